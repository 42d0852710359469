package workspace

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
)

// EventAgentState is published (lossy: the next one supersedes it) when a
// session's derived agent state changes; Event.Status carries it.
const EventAgentState EventKind = "session.agent-state"

// AgentStatus is what a session's agent is doing, derived by
// workspace/agentstate from what the child writes to its terminal.
type AgentStatus struct {
	SessionID   string `json:"sessionId"`
	WorkspaceID string `json:"workspaceId"`
	Name        string `json:"name"`
	Agent       Agent  `json:"agent"`
	agentstate.Snapshot
}

// AgentStateChange is one transition, for listeners such as the alerter.
type AgentStateChange struct {
	From agentstate.Snapshot
	To   AgentStatus
}

// screenEvery is how often at most the screen rules are re-applied to a
// session whose screen changed.
const screenEvery = 250 * time.Millisecond

// statusHub tracks the agent state of every live session: the pty
// reader feeds each session's Tracker through Session.Observe, the
// supervisor reports the lifecycle, and one loop applies the screen rules
// to the sessions whose emulator took in output since it last looked.
// Sessions whose agent has no screen rules (a shell) are never looked at.
type statusHub struct {
	m     *Manager
	rules *agentstate.RuleSet

	mu        sync.Mutex
	byID      map[string]*tracked
	listeners []func(AgentStateChange)
	watched   map[string]int // sessions a person is looking at (attached)
	stop      chan struct{}
	done      chan struct{}
	wake      chan struct{} // capacity 1: a screen changed while the loop slept
	closed    bool
}

type tracked struct {
	s      *Session
	tr     *agentstate.Tracker
	cancel func()
	lines  int         // bottom non-blank lines the screen rules read; 0: none
	dirty  atomic.Bool // the emulator took in output since the loop looked
	// lookMu orders looks (the loop's and refreshScreenState's), so an
	// older screen is never applied after a newer one.
	lookMu sync.Mutex
	seen   atomic.Uint64
	// lastOut is the unix nanos of the last output batch (readiness:
	// waitReady waits for quiet output).
	lastOut atomic.Int64
}

// look applies the screen rules to the bottom lines of the screen, unless
// the screen is unchanged since the last look (force looks anyway).
func (t *tracked) look(force bool) {
	if t.lines == 0 {
		return
	}
	t.lookMu.Lock()
	defer t.lookMu.Unlock()
	since := t.seen.Load()
	if force {
		since = ^uint64(0)
	}
	lines, gen, changed := t.s.term.tailText(t.lines, since)
	if changed {
		t.seen.Store(gen)
		t.tr.Screen(lines)
	}
}

func newStatusHub(m *Manager) *statusHub {
	rules, err := agentstate.LoadRules(m.opts.AgentRulesDir)
	if err != nil {
		m.log.Warn("workspace: agent state rules", "err", err)
	}
	h := &statusHub{m: m, rules: rules, byID: map[string]*tracked{}, watched: map[string]int{},
		stop: make(chan struct{}), done: make(chan struct{}), wake: make(chan struct{}, 1)}
	go h.loop()
	return h
}

// attach starts tracking a new live session.
func (h *statusHub) attach(s *Session) {
	rules := h.rules.For(string(s.agent))
	t := &tracked{s: s, lines: rules.ScreenLines()}
	t.tr = agentstate.NewTracker(rules, nil, func(c agentstate.Change) { h.changed(s, c) })
	cancelObs := s.Observe(func(p []byte) {
		t.tr.Output(p)
		t.lastOut.Store(time.Now().UnixNano())
	})
	var cancelFed func()
	if t.lines > 0 {
		cancelFed = s.onFed(func() {
			t.dirty.Store(true)
			select {
			case h.wake <- struct{}{}:
			default:
			}
		})
	}
	t.cancel = func() {
		cancelObs()
		if cancelFed != nil {
			cancelFed()
		}
	}
	h.mu.Lock()
	if old, ok := h.byID[s.id]; ok {
		old.cancel()
	}
	h.byID[s.id] = t
	s.watched.Store(int32(h.watched[s.id]))
	h.mu.Unlock()
}

// detach stops tracking a session that was removed.
func (h *statusHub) detach(id string) {
	h.mu.Lock()
	t, ok := h.byID[id]
	delete(h.byID, id)
	h.mu.Unlock()
	if ok {
		t.cancel()
	}
}

func (h *statusHub) get(id string) (*tracked, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t, ok := h.byID[id]
	return t, ok
}

// lifecycle maps the supervisor's state onto the tracker.
func (h *statusHub) lifecycle(s *Session, st SessionState, reason string) {
	t, ok := h.get(s.id)
	if !ok {
		return
	}
	switch st {
	case StateStarting, StateRunning:
		t.tr.Lifecycle(agentstate.LifeRunning, "")
	case StateRestarting, StateFailed:
		t.tr.Lifecycle(agentstate.LifeCrashed, reason)
	case StateExited, StateStopped:
		if reason == "" {
			reason = string(st)
		}
		t.tr.Lifecycle(agentstate.LifeExited, reason)
	}
}

func (h *statusHub) changed(s *Session, c agentstate.Change) {
	st := AgentStatus{SessionID: s.id, WorkspaceID: s.ws.ID, Name: s.name, Agent: s.agent, Snapshot: c.To}
	h.mu.Lock()
	ls := slices.Clone(h.listeners)
	h.mu.Unlock()
	for _, fn := range ls {
		fn(AgentStateChange{From: c.From, To: st})
	}
	h.m.events.Publish(Event{Kind: EventAgentState, WorkspaceID: s.ws.ID, SessionID: s.id, Status: &st})
	// A person attached to the session sees its bell and its finished
	// run as they happen (tmux flags a bell only in a window nobody looks
	// at): answered at once, they do not wait as "needs you" or "done"
	// for the detach. The tracker reports the state it settles on.
	if s.watched.Load() > 0 && (c.To.State == agentstate.NeedsYou || c.To.State == agentstate.Done) {
		if t, ok := h.get(s.id); ok {
			t.tr.Acknowledge()
		}
	}
}

// loop re-applies the screen rules to the sessions whose emulator took in
// output (the feeder marks them after each batch, so the screen already
// shows it). It waits screenEvery after a wake-up, so a session's burst
// costs one look per screenEvery, and sleeps on wake while nothing
// changes: an idle alice runs no timer here.
func (h *statusHub) loop() {
	defer close(h.done)
	settle := time.NewTimer(screenEvery)
	settle.Stop()
	defer settle.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-h.wake:
		}
		settle.Reset(screenEvery)
		select {
		case <-h.stop:
			return
		case <-settle.C:
		}
		h.screens()
	}
}

// screens applies the screen rules to the sessions marked dirty. A mark
// set after it was cleared here wakes the loop again.
func (h *statusHub) screens() {
	h.mu.Lock()
	var dirty []*tracked
	for _, t := range h.byID {
		if t.dirty.Swap(false) {
			dirty = append(dirty, t)
		}
	}
	h.mu.Unlock()
	for _, t := range dirty {
		t.look(false)
	}
}

func (h *statusHub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	for _, t := range h.byID {
		t.cancel()
	}
	h.mu.Unlock()
	close(h.stop)
	<-h.done
}

// AgentStatus returns a live session's derived agent state.
func (m *Manager) AgentStatus(sessionID string) (AgentStatus, bool) {
	t, ok := m.status.get(sessionID)
	if !ok {
		return AgentStatus{}, false
	}
	s := t.s
	return AgentStatus{SessionID: s.id, WorkspaceID: s.ws.ID, Name: s.name, Agent: s.agent, Snapshot: t.tr.Snapshot()}, true
}

// WorkspaceAgentState is the most pressing state among a workspace's live
// sessions (errored > needs-you > done > working > idle > exited), for a
// badge; Unknown when it has none.
func (m *Manager) WorkspaceAgentState(wsID string) agentstate.State {
	best := agentstate.Unknown
	for _, s := range m.Sessions(wsID) {
		if st, ok := m.AgentStatus(s.id); ok && urgency(st.State) > urgency(best) {
			best = st.State
		}
	}
	return best
}

func urgency(s agentstate.State) int {
	switch s {
	case agentstate.Errored:
		return 6
	case agentstate.NeedsYou:
		return 5
	case agentstate.Done:
		return 4
	case agentstate.Working:
		return 3
	case agentstate.Idle:
		return 2
	case agentstate.Exited:
		return 1
	}
	return 0
}

// OnAgentState registers fn to be called on every agent state transition.
// fn runs on the session's pty reader or supervisor goroutine: it must not
// block.
func (m *Manager) OnAgentState(fn func(AgentStateChange)) {
	m.status.mu.Lock()
	m.status.listeners = append(m.status.listeners, fn)
	m.status.mu.Unlock()
}

// AcknowledgeAgent records that a person looked at or typed into a
// session: a pending bell is answered and Done becomes Idle.
func (m *Manager) AcknowledgeAgent(sessionID string) {
	if t, ok := m.status.get(sessionID); ok {
		t.tr.Acknowledge()
	}
}

// refreshScreenState applies the screen rules now (used before reporting
// a status so it reflects the very latest screen).
func (m *Manager) refreshScreenState(sessionID string) {
	if t, ok := m.status.get(sessionID); ok {
		t.look(true)
	}
}

// SetWatched records that a person is (on) or is no longer (off) looking
// at a session, e.g. attached to it in the TUI. The alerter does not
// notify about a watched session: the person sees it already. Calls nest.
func (m *Manager) SetWatched(sessionID string, on bool) {
	h := m.status
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case on:
		h.watched[sessionID]++
	case h.watched[sessionID] <= 1:
		delete(h.watched, sessionID)
	default:
		h.watched[sessionID]--
	}
	if t, ok := h.byID[sessionID]; ok {
		t.s.watched.Store(int32(h.watched[sessionID]))
	}
}

// Watched reports whether a person is looking at the session.
func (m *Manager) Watched(sessionID string) bool {
	m.status.mu.Lock()
	defer m.status.mu.Unlock()
	return m.status.watched[sessionID] > 0
}
