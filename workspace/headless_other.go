//go:build !linux

package workspace

import "syscall"

// headlessProcAttr puts a headless run in its own process group (killed
// whole at its time limit). Only Linux can also tie it to the core's life.
func headlessProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// headlessCommand runs the program as it is (no parent-death signal to
// guard against here).
func headlessCommand(path string, args []string) (string, []string) { return path, args }
