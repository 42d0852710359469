package workspace

import "syscall"

// headlessProcAttr puts a headless run in its own process group (killed
// whole at its time limit) and has the kernel kill it when the thread that
// started it dies: a core killed with SIGKILL runs no cleanup, and its task
// is recorded abandoned at the next start, so the run must not go on acting.
// RunHeadless keeps that thread alive (runtime.LockOSThread) until the run
// ends, since the signal follows the thread, not the process.
func headlessProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
