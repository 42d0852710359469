package proctree

import (
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Reaper makes the calling process (the core) the child subreaper of
// everything it starts: a descendant whose parent exits — a daemon's
// double fork, a shell's `(cmd &)` — is reparented to the core instead of
// init. The core is then that orphan's parent: the Reaper reaps it when it
// exits (on SIGCHLD; nothing runs while no child changes), and Close ends
// every orphan still running.
//
// Reaping must never take the exit status of a child that os/exec waits
// for: its Wait would fail with ECHILD. On Linux ≥ 5.4 os.Process holds a
// pidfd for each child from the fork until its Wait has reaped it, so a
// zombie child that no pidfd of this process refers to is one nobody here
// will wait for. StartReaper checks that os/exec does use pidfds; where it
// does not, the Reaper stays off and orphans go to init as before.
type Reaper struct {
	log  *slog.Logger
	sig  chan os.Signal
	stop chan struct{}
	done chan struct{} // closed when the reaping goroutine has returned
}

// StartReaper makes this process a child subreaper and starts reaping
// orphans as they exit. It logs and returns an idle Reaper where that is
// not safe (see Reaper). Call Close once, when the process is done.
func StartReaper(log *slog.Logger) *Reaper {
	r := &Reaper{log: log}
	if err := pidfdsTrackChildren(); err != nil {
		log.Info("Process reaper off: orphans of sessions go to init", "err", err)
		return r
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		log.Info("Process reaper off: orphans of sessions go to init", "err", err)
		return r
	}
	r.sig = make(chan os.Signal, 1)
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	signal.Notify(r.sig, syscall.SIGCHLD)
	go r.loop()
	return r
}

// loop reaps orphans each time a child changes state, until Close.
func (r *Reaper) loop() {
	defer close(r.done)
	for {
		select {
		case <-r.stop:
			return
		case <-r.sig:
			r.reapOrphans()
		}
	}
}

// Close stops reaping on SIGCHLD, ends every orphan still running and
// what is below it (SIGTERM; SIGKILL to those left after grace), reaps
// them and turns the subreaper off. Children os/exec still waits for are
// left to their owners. It returns how many processes it ended.
func (r *Reaper) Close(grace time.Duration) int {
	if r.sig == nil {
		return 0
	}
	signal.Stop(r.sig)
	close(r.stop)
	<-r.done
	r.sig = nil
	n := End(r.strays, grace)
	// A killed process becomes a zombie a moment later: reap until none
	// is left running, for at most a second.
	deadline := time.Now().Add(time.Second)
	for len(r.strays()) > 0 && time.Now().Before(deadline) {
		r.reapOrphans()
		time.Sleep(pollEvery)
	}
	r.reapOrphans()
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	if n > 0 {
		r.log.Info("Ended processes left behind by sessions", "count", n)
	}
	return n
}

// strays lists the running orphans (children nothing here waits for) and
// every process below them.
func (r *Reaper) strays() []Proc {
	all := snapshot()
	self := os.Getpid()
	held := pidfdPIDs(-1)
	byPID := make(map[int]stat, len(all))
	for _, st := range all {
		byPID[st.pid] = st
	}
	var out []Proc
	for _, st := range all {
		if st.ppid != self || held[st.pid] {
			continue
		}
		for _, pid := range append([]int{st.pid}, descendants(all, st.pid)...) {
			if d := byPID[pid]; !d.zombie {
				out = append(out, Proc{PID: d.pid, Start: d.start})
			}
		}
	}
	return out
}

// reapOrphans reaps every zombie child that nothing here waits for and
// returns how many it reaped.
func (r *Reaper) reapOrphans() int {
	self := os.Getpid()
	// Open a pidfd on each zombie child first, then look at who else
	// holds one: a child os/exec reaps in between has its pidfd closed,
	// but waitid on ours then finds nothing to reap (a pidfd names one
	// process, never a later one with the same pid).
	own := make(map[int]int) // pidfd → pid
	for _, st := range snapshot() {
		if st.ppid != self || !st.zombie {
			continue
		}
		fd, err := unix.PidfdOpen(st.pid, 0)
		if err == nil {
			own[fd] = st.pid
		}
	}
	if len(own) == 0 {
		return 0
	}
	held := pidfdPIDsExcept(own)
	n := 0
	for fd, pid := range own {
		if !held[pid] {
			var info unix.Siginfo
			if err := unix.Waitid(unix.P_PIDFD, fd, &info, unix.WEXITED|unix.WNOHANG, nil); err == nil {
				n++
				r.log.Debug("Reaped an orphan", "pid", pid)
			}
		}
		_ = unix.Close(fd)
	}
	return n
}

// pidfdPIDs lists the pids this process holds a pidfd for, leaving out
// the descriptor skip.
func pidfdPIDs(skip int) map[int]bool {
	return pidfdPIDsExcept(map[int]int{skip: 0})
}

// pidfdPIDsExcept lists the pids this process holds a pidfd for, leaving
// out the descriptors in skip.
func pidfdPIDsExcept(skip map[int]int) map[int]bool {
	out := make(map[int]bool)
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return out
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, mine := skip[fd]; mine {
			continue
		}
		if link, err := os.Readlink("/proc/self/fd/" + e.Name()); err != nil || link != "anon_inode:[pidfd]" {
			continue
		}
		if pid := fdinfoPID(e.Name()); pid > 0 {
			out[pid] = true
		}
	}
	return out
}

// fdinfoPID reads the "Pid:" line of a pidfd's /proc/self/fdinfo entry.
func fdinfoPID(fd string) int {
	b, err := os.ReadFile("/proc/self/fdinfo/" + fd)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, _ := strconv.Atoi(strings.TrimSpace(v))
			return pid
		}
	}
	return 0
}

// pidfdsTrackChildren checks that os/exec holds a pidfd for a child it
// started (Go ≥ 1.23 does where the kernel allows it), by starting one.
func pidfdsTrackChildren() error {
	path, err := exec.LookPath("true")
	if err != nil {
		return err
	}
	cmd := exec.Command(path)
	if err := cmd.Start(); err != nil {
		return err
	}
	held := pidfdPIDs(-1)[cmd.Process.Pid]
	if err := cmd.Wait(); err != nil {
		return err
	}
	if !held {
		return errors.New("os/exec holds no pidfd for its children here")
	}
	return nil
}
