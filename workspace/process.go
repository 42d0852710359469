package workspace

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// signalGroup signals the child's process group and, on Linux, every other
// process still in its terminal session (background jobs of an interactive
// shell get their own process groups), so nothing outlives the session.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	sid := cmd.Process.Pid
	_ = syscall.Kill(-sid, sig)
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// reapSession ends processes left in a finished child's terminal session
// (e.g. a shell's background jobs): SIGTERM, then SIGKILL after a grace.
func reapSession(sid int) {
	if len(sessionMembers(sid)) == 0 {
		return
	}
	_ = syscall.Kill(-sid, syscall.SIGTERM)
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(killGrace)
	for time.Now().Before(deadline) {
		if len(sessionMembers(sid)) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// sessionMembers lists processes whose session id is sid, from /proc
// (empty where /proc is unavailable).
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == sid {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid pgrp session …
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 3 && f[0] != "Z" && f[3] == strconv.Itoa(sid) {
			out = append(out, pid)
		}
	}
	return out
}
