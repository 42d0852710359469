//go:build !linux

package proctree

import "syscall"

// Find returns nothing where there is no /proc to look in: process groups
// are all the callers have.
func (q Query) Find() []Proc { return nil }

// Alive reports whether a process with p's pid exists (the start time is
// not checked here).
func Alive(p Proc) bool { return syscall.Kill(p.PID, 0) == nil }

// Signal sends sig to each of procs.
func Signal(procs []Proc, sig syscall.Signal) {
	for _, p := range procs {
		_ = syscall.Kill(p.PID, sig)
	}
}
