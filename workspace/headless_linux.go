package workspace

import "syscall"

// headlessProcAttr puts a headless run in its own process group (killed
// whole at its time limit) and has the kernel signal it when the thread
// that started it dies: a core killed with SIGKILL runs no cleanup, and its
// task is recorded abandoned at the next start, so the run must not go on
// acting. RunHeadless keeps that thread alive (runtime.LockOSThread) until
// the run ends, since the signal follows the thread, not the process.
//
// The kernel signals only the direct child, so the run is started under a
// guard (headlessCommand): a shell that runs the program in the background
// and, on that signal, kills its whole process group — the program and
// every process it started.
func headlessProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// headlessGuard is the guard's script: $@ is the program and its arguments.
// A trapped signal interrupts `wait` at once (POSIX), then the trap kills
// the group (itself included). The exit status is the program's.
const headlessGuard = `trap 'trap - TERM; kill -KILL 0' TERM HUP INT; "$@" & wait $!`

// headlessCommand wraps path and args in the guard.
func headlessCommand(path string, args []string) (string, []string) {
	return "/bin/sh", append([]string{"-c", headlessGuard, "alice-headless", path}, args...)
}
