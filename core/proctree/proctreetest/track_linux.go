package proctreetest

import (
	"testing"

	"golang.org/x/sys/unix"
)

// Track pins the running process pid (a pidfd) and returns a check that
// reports whether that process is still running. Unlike Alive it cannot
// be fooled by the pid's reuse: with many tests starting processes at
// once (pid_max is 32768 here), a dead process's pid went to another
// long-lived process within a wait. The pidfd is closed when the test
// ends. Where pidfds are missing it falls back to Alive.
func Track(t testing.TB, pid int) func() bool {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return func() bool { return Alive(pid) }
	}
	t.Cleanup(func() { _ = unix.Close(fd) })
	return func() bool {
		// A pidfd reads as ready once its process has ended (a zombie
		// included).
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		if err != nil {
			return Alive(pid)
		}
		return n == 0
	}
}
