package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// init makes any program that imports this package the sandbox init when
// Wrap started it (InitEnv is set): it runs the init and exits before the
// program's own main (or a test binary's tests) could run. This is the one
// package-level side effect alice allows: the re-executed binary must take
// this path before anything else of it starts. (Go still runs the init
// functions of packages that sort before this one and are ready first —
// in alice ~150, ~1 ms in all per GODEBUG=inittrace=1: tables and
// environment reads, none writes anything or touches the terminal.)
func init() {
	v, ok := os.LookupEnv(InitEnv)
	if !ok {
		return
	}
	os.Exit(runInit(v))
}

// forwarded are the signals the init passes on to the program.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGQUIT, syscall.SIGINT}

// runInit is the sandbox init: set up, start the program, forward signals,
// reap, and return the program's status.
func runInit(v string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "alice sandbox: "+format+"\n", a...)
		return ExitSetupFailed
	}
	var s spec
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return fail("bad spec: %v", err)
	}
	if os.Getpid() != 1 {
		return fail("not started in a new pid namespace (pid %d)", os.Getpid())
	}
	env := withoutInitEnv(os.Environ())
	if s.InitOnly != "" {
		env = slices.DeleteFunc(env, func(kv string) bool { return kv == s.InitOnly })
	}
	dir := s.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fail("working directory: %v", err)
		}
		dir = wd
	}
	if err := setUp(s); err != nil {
		return fail("%v", err)
	}
	// The old working directory is the directory under the mounts: enter
	// it again through them.
	if err := os.Chdir(dir); err != nil {
		return fail("working directory %s: %v", dir, err)
	}
	if s.Probe {
		for _, p := range s.Absent {
			if _, err := os.Lstat(p); err == nil {
				return fail("%s is still visible", p)
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
	pid, err := syscall.ForkExec(s.Path, s.Args, &syscall.ProcAttr{
		Dir: dir, Env: env, Files: []uintptr{0, 1, 2}, Sys: attr,
	})
	if err != nil {
		return fail("start %s: %v", s.Path, err)
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
		if errors.Is(err, syscall.ECHILD) {
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
	sid, err := unix.Getsid(0)
	if err != nil || sid != os.Getpid() {
		return false
	}
	tsid, err := unix.IoctlGetInt(0, unix.TIOCGSID)
	return err == nil && tsid == sid
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
