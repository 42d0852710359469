package pid1

import (
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// forwarded are the signals the init passes on to the program.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGQUIT, syscall.SIGINT}

// run is the sandbox init: set up, start the program, forward signals,
// reap, and return the program's status.
func run(v string) int {
	s, err := Decode(v)
	if err != nil {
		return fail(err.Error())
	}
	if os.Getpid() != 1 {
		return fail("not started in a new pid namespace (pid " + itoa(os.Getpid()) + ")")
	}
	env := WithoutEnv(os.Environ())
	if len(s.InitOnly) > 0 {
		kept := env[:0]
		for _, kv := range env {
			if !contains(s.InitOnly, kv) {
				kept = append(kept, kv)
			}
		}
		env = kept
	}
	dir := s.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fail("working directory: " + err.Error())
		}
		dir = wd
	}
	if err := setUp(s); err != nil {
		return fail(err.Error())
	}
	// The old working directory is the directory under the mounts: enter
	// it again through them.
	if err := os.Chdir(dir); err != nil {
		return fail("working directory " + dir + ": " + err.Error())
	}
	if s.Probe {
		for _, p := range s.Absent {
			if _, err := os.Lstat(p); err == nil {
				return fail(p + " is still visible")
			}
		}
		return 0
	}

	sigs := make(chan os.Signal, 32)
	signal.Notify(sigs, append([]os.Signal{syscall.SIGCHLD}, forwarded...)...)

	// On a terminal the init is the session leader (pty.Start): the
	// program gets a process group of its own in the foreground, so keys
	// (^C, ^Z, ^\) reach it and not the init. Otherwise it shares the
	// init's group (a headless run's group is killed whole).
	ownGroup := onOwnTerminal()
	attr := &syscall.SysProcAttr{
		// One more user namespace: the hiding mounts are locked to the
		// program, even as root there. It maps the init's root back to
		// the caller's ids.
		Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: s.UID, HostID: 0, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: s.GID, HostID: 0, Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	if ownGroup {
		attr.Setpgid, attr.Foreground, attr.Ctty = true, true, 0
	}
	args := s.Args
	if len(args) == 0 {
		args = []string{s.Path}
	}
	// The program is forked from this thread, which alone takes the
	// Landlock scopes (landlock_linux.go); it stays locked to this
	// goroutine until the init exits.
	runtime.LockOSThread()
	scope()
	pid, err := syscall.ForkExec(s.Path, args, &syscall.ProcAttr{
		Dir: dir, Env: env, Files: []uintptr{0, 1, 2}, Sys: attr,
	})
	if err != nil {
		return fail("start " + s.Path + ": " + err.Error())
	}
	for sig := range sigs {
		if sig != syscall.SIGCHLD {
			forward(pid, ownGroup, sig.(syscall.Signal))
			continue
		}
		// Reap everything: orphans are reparented to the init.
		for {
			var ws syscall.WaitStatus
			p, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if p <= 0 || err != nil {
				break
			}
			if p == pid {
				code := status(ws)
				endRest()
				return code
			}
		}
	}
	return 0
}

// leftGrace is how long what the program left running (a shell's
// background jobs, an agent's daemons) has to end after SIGTERM before the
// init exits, which makes the kernel kill it: the grace proctree.End gave
// them before the sandbox.
const leftGrace = 2 * time.Second

// endRest sends SIGTERM to every process left in the namespace and reaps
// them until none is left or leftGrace has passed.
func endRest() {
	if err := syscall.Kill(-1, syscall.SIGTERM); err != nil {
		return // ESRCH: nothing left
	}
	deadline := time.Now().Add(leftGrace)
	for time.Now().Before(deadline) {
		p, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
		if err == syscall.ECHILD {
			return
		}
		if p <= 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// forward sends sig to the program: to its process group when it has its
// own, else to the program. A ^C or ^\ (SIGINT, SIGQUIT) that reached the
// init in the program's own group reached the program too: it is not sent
// twice.
func forward(pid int, ownGroup bool, sig syscall.Signal) {
	if ownGroup {
		_ = syscall.Kill(-pid, sig)
		if pg, err := syscall.Getpgid(pid); err == nil && pg != pid {
			_ = syscall.Kill(pid, sig) // it left its group
		}
		return
	}
	if sig == syscall.SIGINT || sig == syscall.SIGQUIT {
		return
	}
	_ = syscall.Kill(pid, sig)
}

// onOwnTerminal reports that the init leads a session whose controlling
// terminal is its stdin.
func onOwnTerminal() bool {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	if errno != 0 || int(sid) != os.Getpid() {
		return false
	}
	var tsid int32
	_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, 0, syscall.TIOCGSID, uintptr(unsafe.Pointer(&tsid)))
	return errno == 0 && int(tsid) == int(sid)
}

// status is the init's exit status for the program's: its code, or
// 128+signal.
func status(ws syscall.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return 1
}
