package proctree

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// stat is what /proc/PID/stat says about one process.
type stat struct {
	pid, ppid, session int
	zombie             bool
	start              uint64
}

// readStat parses /proc/<pid>/stat (false when the process is gone).
func readStat(pid int) (stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	return parseStat(pid, b)
}

// parseStat reads the fields after the parenthesised command (which may
// hold spaces and parentheses): state ppid pgrp session … starttime (the
// 22nd field of the line).
func parseStat(pid int, b []byte) (stat, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return stat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	sid, err2 := strconv.Atoi(string(f[3]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return stat{}, false
	}
	return stat{pid: pid, ppid: ppid, session: sid, zombie: string(f[0]) == "Z" || string(f[0]) == "X", start: start}, true
}

// snapshot reads every process's stat (empty without /proc).
func snapshot() []stat {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]stat, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out = append(out, st)
		}
	}
	return out
}

// kthreadd is the parent of every kernel thread (whose environment is
// empty: no need to read it).
const kthreadd = 2

// Find returns the live processes q names, in pid order.
func (q Query) Find() []Proc {
	all := snapshot()
	self := os.Getpid()
	picked := make(map[int]bool)
	if q.Below > 0 {
		for _, p := range descendants(all, q.Below) {
			picked[p] = true
		}
	}
	known := make(map[Proc]bool, len(q.Known))
	for _, p := range q.Known {
		known[p] = true
	}
	entry := []byte(TagEntry(q.Tag))
	var out []Proc
	for _, st := range all {
		if st.zombie || st.pid == self || st.pid == kthreadd || st.ppid == kthreadd {
			continue
		}
		p := Proc{PID: st.pid, Start: st.start}
		if picked[st.pid] || (q.Session > 0 && st.session == q.Session) || known[p] ||
			(len(entry) > 0 && environHas(st.pid, entry)) {
			out = append(out, p)
		}
	}
	return out
}

// descendants lists the pids below root by parent links (zombies
// included: their children are still below them).
func descendants(all []stat, root int) []int {
	children := make(map[int][]int)
	for _, st := range all {
		children[st.ppid] = append(children[st.ppid], st.pid)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if c != root { // a cycle is impossible, but never loop
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// environHas reports whether pid's environment (as it was at exec) holds
// entry exactly.
func environHas(pid int, entry []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for len(b) > 0 {
		kv := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			kv, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// Alive reports whether p is still running (not a zombie, and its pid not
// taken by another process since).
func Alive(p Proc) bool {
	st, ok := readStat(p.PID)
	return ok && !st.zombie && (p.Start == 0 || st.start == p.Start)
}

// Signal sends sig to each of procs that is still alive.
func Signal(procs []Proc, sig syscall.Signal) {
	for _, p := range procs {
		if Alive(p) {
			_ = syscall.Kill(p.PID, sig)
		}
	}
}
