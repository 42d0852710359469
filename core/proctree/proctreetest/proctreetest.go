// Package proctreetest holds what tests of process lifetime share: the pid
// a test's helper process wrote to a file, and daemons found on the host
// by a unique "sleep <mark>" command line.
package proctreetest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadPIDFile waits (up to 20 s) for path to hold a pid and returns it;
// the process is killed when the test ends, whatever happened.
func ReadPIDFile(t testing.TB, path string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// SleepMark is a unique "sleep N" argument (about 1000 s) by which a
// test's daemon is found on the host, whatever namespace started it.
func SleepMark() string {
	return "1000." + strconv.FormatInt(time.Now().UnixNano()%1e9, 10)
}

// Sleepers lists the live (not zombie) host pids running "sleep <mark>".
func Sleepers(mark string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasSuffix(string(b), "sleep\x00"+mark+"\x00") && Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Alive: the process exists and is not a zombie.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z")
}
