// Package proctreetest holds what tests of process lifetime share: the pid
// a test's helper process wrote to a file.
package proctreetest

import (
	"os"
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
