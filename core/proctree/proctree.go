// Package proctree finds and ends the processes a child of alice left
// behind, however they detached themselves, so none outlives the session,
// run or core that started it.
//
// A process that calls setsid leaves its parent's process group and
// terminal session, so killing the group or the session misses it; one
// whose parent exits is reparented away from the tree. Three handles still
// reach it (Query):
//
//   - a tag: every child alice starts gets TagEnv=<a fresh tag> in its
//     environment, which its descendants inherit (codex's
//     `app-server --managed-daemon` does); /proc/PID/environ shows it;
//   - the tree: descendants of a live process, by parent links, recorded
//     before the process is stopped so they can be ended after it is gone;
//   - the subreaper (Reaper, the core only): orphans of every child are
//     reparented to the core instead of init, so at shutdown whatever is
//     left below the core is found and ended, tag or no tag.
//
// Everything here reads /proc and is Linux-only; elsewhere Find returns
// nothing and the Reaper does nothing (process groups are all there is).
package proctree

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"syscall"
	"time"
)

// TagEnv is the environment variable that marks a child's processes.
const TagEnv = "ALICE_PROC_TAG"

// NewTag returns a fresh tag for one child (32 hex digits).
func NewTag() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// TagCommand gives cmd a fresh tag in its environment (set cmd.Env
// first) and returns it: every process cmd starts inherits it.
func TagCommand(cmd *exec.Cmd) string {
	tag := NewTag()
	cmd.Env = append(cmd.Env, TagEntry(tag))
	return tag
}

// TagEntry is the environment entry that marks a child's processes with
// tag ("" when tag is empty).
func TagEntry(tag string) string {
	if tag == "" {
		return ""
	}
	return TagEnv + "=" + tag
}

// Proc is one process: its pid and its start time (clock ticks after
// boot), which together name it even after the pid is reused.
type Proc struct {
	PID   int
	Start uint64
}

// Query names processes: the union of a terminal session's members, a
// process's descendants, the processes whose environment carries a tag and
// known processes that are still alive. Zero fields select nothing. The
// calling process is never selected.
type Query struct {
	Session int    // members of the terminal session with this id
	Below   int    // descendants of this pid (not the pid itself)
	Tag     string // processes with TagEnv=Tag in their environment
	Known   []Proc // these, while alive with the same start time
}

// pollEvery is how often End looks whether the processes it signalled
// have gone (only while it waits for them).
const pollEvery = 20 * time.Millisecond

// End ends the processes find returns: SIGTERM, then, once grace has
// passed with some still alive, SIGKILL to whatever find returns then
// (processes started meanwhile included). It returns how many processes
// the first look found.
func End(find func() []Proc, grace time.Duration) int {
	procs := find()
	if len(procs) == 0 {
		return 0
	}
	n := len(procs)
	Signal(procs, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !anyAlive(procs) {
			// Look again: a process started while the others were
			// ending is not among procs.
			rest := find()
			if len(rest) == 0 {
				return n
			}
			Signal(rest, syscall.SIGTERM)
			procs = rest
		}
		time.Sleep(pollEvery)
	}
	Signal(find(), syscall.SIGKILL)
	return n
}

// anyAlive reports whether any of procs is still running.
func anyAlive(procs []Proc) bool {
	for _, p := range procs {
		if Alive(p) {
			return true
		}
	}
	return false
}
