//go:build !linux

package workspace

import "syscall"

// headlessProcAttr puts a headless run in its own process group (killed
// whole at its time limit). Only Linux can also tie it to the core's life.
func headlessProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
