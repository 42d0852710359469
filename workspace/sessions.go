package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// StartSession starts a new session of agent ("" = the workspace's default
// agent) in a workspace at 80×24. A missing CLI is reported here, with how
// to install it.
func (m *Manager) StartSession(wsID string, agent Agent) (*Session, error) {
	return m.StartSessionSize(wsID, agent, 80, 24)
}

// StartSessionSize is StartSession with the pty sized cols×rows before the
// child starts, so its first screen is laid out for the pane it is shown
// in (a child reads its size once at start; a later SIGWINCH is too late
// for a prompt already printed).
func (m *Manager) StartSessionSize(wsID string, agent Agent, cols, rows int) (*Session, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	if agent == "" {
		agent = AgentShell
		if len(w.Agents) > 0 {
			agent = w.Agents[0]
		}
	}
	if !agent.Valid() {
		return nil, fmt.Errorf("unknown agent %q (want %s)", agent, AgentNames)
	}
	if w.Archived {
		return nil, fmt.Errorf("workspace %s is archived: unarchive it to start sessions", w.Tag)
	}
	if _, err := m.commandFor(agent, w, nil, false); err != nil {
		return nil, err
	}
	m.refreshMCPConfig(w)
	now := time.Now().UTC()
	rec := SessionRecord{ID: uuid.NewString(), WsID: w.ID, Agent: agent, CreatedAt: now, LastActiveAt: now, State: RecordRunning,
		StartCommit: headCommit(w.Dir)}
	switch agent {
	case AgentClaude:
		rec.ResumeHint = &ResumeHint{Kind: "agent-session-id", Value: rec.ID}
	case AgentCodex, AgentOpenCode:
		rec.ResumeHint = &ResumeHint{Kind: "last"}
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	rec.Name = m.nextNameLocked(w.ID, agent)
	m.records[w.ID] = append(m.records[w.ID], rec)
	m.saveRecordsLocked(w.ID)
	s := m.newSessionLocked(w, rec, cols, rows)
	m.mu.Unlock()
	if err := s.start(false); err != nil {
		return nil, err
	}
	return s, nil
}

func (m *Manager) nextNameLocked(wsID string, agent Agent) string {
	n := 0
	for _, r := range m.records[wsID] {
		if r.Agent == agent {
			if k, err := strconv.Atoi(strings.TrimPrefix(r.Name, agent.prefix())); err == nil && k > n {
				n = k
			}
		}
	}
	return fmt.Sprintf("%s%d", agent.prefix(), n+1)
}

func (m *Manager) newSessionLocked(w Workspace, rec SessionRecord, cols, rows int) *Session {
	cols, rows = clampSize(cols, rows)
	s := &Session{id: rec.ID, name: rec.Name, agent: rec.Agent, ws: w, m: m, created: rec.CreatedAt,
		term: newTerminal(cols, rows, m.opts.ScrollbackLines, m.budget, m.log), replay: newReplayBuffer(DefaultReplayBytes), hint: rec.ResumeHint,
		cols: cols, rows: rows, state: StateStarting}
	m.sessions[rec.ID] = s
	m.status.attach(s)
	return s
}

// ResumeSession starts a paused session record again: claude resumes its
// conversation, codex runs "resume --last", a shell gets its saved
// scrollback replayed.
func (m *Manager) ResumeSession(recordID string) (*Session, error) {
	m.mu.Lock()
	if s, ok := m.sessions[recordID]; ok {
		m.mu.Unlock()
		if st, _ := s.State(); st == StateStopped || st == StateFailed || st == StateExited {
			return s, s.Restart()
		}
		return s, nil
	}
	rec, ok := m.findRecordLocked(recordID)
	if !ok {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %s", ErrSessionNotFound, recordID)
	}
	w, ok := m.getLocked(rec.WsID)
	m.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, rec.WsID)
	}
	if _, err := m.commandFor(rec.Agent, w, rec.ResumeHint, true); err != nil {
		return nil, err
	}
	m.refreshMCPConfig(w)
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	s := m.newSessionLocked(w, rec, 80, 24)
	m.mu.Unlock()
	if rec.ScrollbackFile != "" {
		if b, err := os.ReadFile(rec.ScrollbackFile); err == nil {
			_, _ = s.replay.Write(b)
			s.term.Feed(b)
			s.term.Feed([]byte("\r\n\x1b[2m[alice: restored scrollback]\x1b[m\r\n"))
		}
	}
	if err := s.start(true); err != nil {
		return nil, err
	}
	return s, nil
}

func (m *Manager) findRecordLocked(id string) (SessionRecord, bool) {
	for _, recs := range m.records {
		for _, r := range recs {
			if r.ID == id {
				return r, true
			}
		}
	}
	return SessionRecord{}, false
}

// Sessions returns the live sessions of a workspace, oldest first.
func (m *Manager) Sessions(wsID string) []*Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Session
	for _, s := range m.sessions {
		if s.ws.ID == wsID {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *Session) int { return a.created.Compare(b.created) })
	return out
}

// Session returns a live session by id.
func (m *Manager) Session(id string) (*Session, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	return s, ok
}

// SessionRecords returns the persisted records of a workspace (live and
// paused), for a "resume" list.
func (m *Manager) SessionRecords(wsID string) []SessionRecord {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.records[wsID])
}

// RemoveSession stops a session (if live) and forgets its record.
func (m *Manager) RemoveSession(id string) error {
	m.mu.Lock()
	s, live := m.sessions[id]
	delete(m.sessions, id)
	m.mu.Unlock()
	if live {
		s.close()
		m.status.detach(id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for ws, recs := range m.records {
		for i, r := range recs {
			if r.ID == id {
				m.records[ws] = slices.Delete(recs, i, i+1)
				m.saveRecordsLocked(ws)
				if r.ScrollbackFile != "" {
					_ = os.Remove(r.ScrollbackFile)
				}
				return nil
			}
		}
	}
	if live {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrSessionNotFound, id)
}

func (m *Manager) saveRecordsLocked(wsID string) {
	if err := saveRecords(m.recordsPath(wsID), m.records[wsID]); err != nil {
		m.log.Warn("workspace: save session records", "ws", wsID, "err", err)
	}
}

// sessionChanged persists the record state and publishes the change. It is
// called by sessions without their lock held.
func (m *Manager) sessionChanged(s *Session) {
	st, reason := s.State()
	m.status.lifecycle(s, st, reason)
	paused := st == StateStopped || st == StateFailed || st == StateExited
	scroll := ""
	if paused && s.agent == AgentShell {
		scroll = m.scrollbackPath(s.ws.ID, s.id)
		if err := os.MkdirAll(filepath.Dir(scroll), 0o700); err == nil {
			if err := os.WriteFile(scroll, s.replay.Bytes(), 0o600); err != nil {
				scroll = ""
			}
		}
	}
	m.mu.Lock()
	recs := m.records[s.ws.ID]
	for i := range recs {
		if recs[i].ID != s.id {
			continue
		}
		switch {
		case st == StateRunning:
			recs[i].State, recs[i].LastActiveAt = RecordRunning, time.Now().UTC()
		case paused:
			recs[i].State = RecordPaused
			if scroll != "" {
				recs[i].ScrollbackFile = scroll
			}
		}
		m.saveRecordsLocked(s.ws.ID)
	}
	m.mu.Unlock()
	m.events.Publish(Event{Kind: EventSessionState, WorkspaceID: s.ws.ID, SessionID: s.id, State: st, Reason: reason})
}
