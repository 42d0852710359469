//go:build !linux

package proctreetest

import "testing"

// Track returns a check that reports whether pid is still running (no
// pidfds here: a reused pid reads as running).
func Track(t testing.TB, pid int) func() bool { return func() bool { return Alive(pid) } }
