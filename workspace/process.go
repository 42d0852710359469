package workspace

import (
	"syscall"

	"github.com/alice-trading/alice/core/proctree"
)

// A session's process tree. pty.Start makes the child a session leader: its
// pid is its process group's id and its terminal session's. A process that
// ran setsid (a daemon, such as codex's `app-server --managed-daemon`) is in
// neither, and once its parent exits it is not below the leader either. So
// each spawn gets a tag (proctree.TagEnv) in its environment, which its
// descendants inherit, and Stop records the processes below the leader
// before signalling it; what a spawn started is ended however it detached.
// (A process that both dropped its environment and lost its parent before
// Stop is left to the core's subreaper, proctree.Reaper, at shutdown.)

// spawnProcs names the processes of the current spawn (nothing when none
// is running or it has been reaped and cleaned up).
type spawnProcs struct {
	leader int             // the child's pid: its process group and session id
	tag    string          // the spawn's proctree tag
	below  []proctree.Proc // recorded below the leader while it lived
}

// query names the spawn's processes; live says the leader has not been
// reaped, so the processes below it can still be found by parent links.
func (p spawnProcs) query(live bool) proctree.Query {
	q := proctree.Query{Session: p.leader, Tag: p.tag, Known: p.below}
	if live {
		q.Below = p.leader
	}
	return q
}

// spawnProcsLocked is the current spawn's procs; s.mu is held.
func (s *Session) spawnProcsLocked() (spawnProcs, bool) {
	if s.cmd == nil || s.cmd.Process == nil || s.exited {
		return spawnProcs{}, false
	}
	return spawnProcs{leader: s.cmd.Process.Pid, tag: s.tag, below: s.below}, true
}

// recordBelow remembers the processes now below the live leader, so they
// are ended even after the leader's exit reparents them away.
func (s *Session) recordBelow() {
	s.mu.Lock()
	p, ok := s.spawnProcsLocked()
	s.mu.Unlock()
	if !ok {
		return
	}
	found := proctree.Query{Below: p.leader}.Find()
	s.mu.Lock()
	if s.tag == p.tag { // still the same spawn
		s.below = append(s.below, found...)
	}
	s.mu.Unlock()
}

// signalSpawn sends sig to the live child's process group and to every
// other process of its spawn (background jobs of an interactive shell get
// process groups of their own; daemons sessions of their own).
func (s *Session) signalSpawn(sig syscall.Signal) {
	s.mu.Lock()
	p, ok := s.spawnProcsLocked()
	s.mu.Unlock()
	if !ok {
		return
	}
	signalProcs(p, true, sig)
}

// signalProcs signals p's process group and the processes p names.
func signalProcs(p spawnProcs, live bool, sig syscall.Signal) {
	_ = syscall.Kill(-p.leader, sig)
	proctree.Signal(p.query(live).Find(), sig)
}

// endLeftovers ends what a reaped child left running (a shell's background
// jobs, an agent's daemons): SIGTERM, then SIGKILL after killGrace.
func endLeftovers(p spawnProcs) {
	proctree.End(p.query(false).Find, killGrace)
}
