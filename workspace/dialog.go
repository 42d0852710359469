package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
)

// DialogTurn continues the conversation of a persistent workspace
// session: the prompt is typed into the running session (started first
// when the workspace has none of that agent), and the turn ends when the
// agent's state (agentstate) goes from working back to idle/done — or,
// for programs that never report a state (a shell, a plain script), when
// the output has been quiet for Quiet after the reply began.
type DialogTurn struct {
	WorkspaceID string
	// Session is a live session's id or name (c1, sh2); "" picks the
	// workspace's first live session of Agent, starting one if none.
	Session string
	Agent   Agent
	Prompt  string
	// Timeout bounds the turn (DefaultDialogTimeout when 0).
	Timeout time.Duration
	// Quiet is the silence that ends a turn without state (1.5 s when 0).
	Quiet time.Duration
}

// DialogResult is the captured reply.
type DialogResult struct {
	WorkspaceID string           `json:"workspaceId"`
	SessionID   string           `json:"sessionId"`
	Session     string           `json:"session"`
	Reply       string           `json:"reply"`
	State       agentstate.State `json:"state"`
	Started     bool             `json:"started,omitempty"` // a session was started for the turn
}

// Dialog defaults.
const (
	DefaultDialogTimeout = 10 * time.Minute
	defaultDialogQuiet   = 1500 * time.Millisecond
	dialogReadyTimeout   = 60 * time.Second
	dialogPoll           = 100 * time.Millisecond
)

// Converse runs one dialog turn. The session is marked watched during the
// turn so the needs-you/done alerter does not page a person about work a
// schedule is waiting for.
func (m *Manager) Converse(ctx context.Context, t DialogTurn) (DialogResult, error) {
	ws, ok := m.Get(t.WorkspaceID)
	if !ok {
		return DialogResult{}, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, t.WorkspaceID)
	}
	if strings.TrimSpace(t.Prompt) == "" {
		return DialogResult{}, errors.New("dialog turn: empty prompt")
	}
	if t.Timeout <= 0 {
		t.Timeout = DefaultDialogTimeout
	}
	if t.Quiet <= 0 {
		t.Quiet = defaultDialogQuiet
	}
	ctx, cancel := context.WithTimeout(ctx, min(t.Timeout, MaxHeadlessTimeout))
	defer cancel()
	s, started, err := m.dialogSession(ctx, ws, t)
	if err != nil {
		return DialogResult{}, err
	}
	res := DialogResult{WorkspaceID: ws.ID, SessionID: s.ID(), Session: s.Name(), Started: started}
	m.SetWatched(s.ID(), true)
	defer m.SetWatched(s.ID(), false)
	before := s.ScreenText(-1)
	sent := time.Now()
	if err := m.Send(s.ID(), t.Prompt, true); err != nil {
		return res, err
	}
	st, err := m.waitTurn(ctx, s, sent, t.Quiet)
	res.State = st
	res.Reply = replyText(before, s.ScreenText(-1), t.Prompt)
	m.AcknowledgeAgent(s.ID())
	if err != nil {
		return res, fmt.Errorf("session %s: %w (reply so far: %s)", s.Name(), err, lastLines(res.Reply, 3))
	}
	return res, nil
}

// dialogSession finds or starts the session for a turn.
func (m *Manager) dialogSession(ctx context.Context, ws Workspace, t DialogTurn) (*Session, bool, error) {
	if t.Session != "" {
		s, err := m.ResolveSession(ws.ID, t.Session)
		return s, false, err
	}
	agent := t.Agent
	if agent == "" && len(ws.Agents) > 0 {
		agent = ws.Agents[0]
	}
	for _, s := range m.Sessions(ws.ID) {
		if st, _ := s.State(); s.Agent() == agent && st == StateRunning {
			return s, false, nil
		}
	}
	s, err := m.StartSession(ws.ID, agent)
	if err != nil {
		return nil, false, err
	}
	if !m.WaitReady(ctx, s.ID(), dialogReadyTimeout) {
		return nil, true, fmt.Errorf("session %s did not become ready within %s", s.Name(), dialogReadyTimeout)
	}
	return s, true, nil
}

// waitTurn polls the session until the turn ends (see DialogTurn).
func (m *Manager) waitTurn(ctx context.Context, s *Session, sent time.Time, quiet time.Duration) (agentstate.State, error) {
	tk := time.NewTicker(dialogPoll)
	defer tk.Stop()
	sawWorking := false
	for {
		select {
		case <-ctx.Done():
			st, _ := m.AgentStatus(s.ID())
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return st.State, errors.New("no end of the reply before the time limit")
			}
			return st.State, ctx.Err()
		case <-tk.C:
		}
		if st, _ := s.State(); st != StateRunning {
			return agentstate.Exited, fmt.Errorf("the session stopped (%s)", st)
		}
		as, _ := m.AgentStatus(s.ID())
		if as.State == agentstate.Working {
			sawWorking = true
		}
		if sawWorking && slices.Contains([]agentstate.State{agentstate.Idle, agentstate.Done, agentstate.NeedsYou, agentstate.Errored}, as.State) {
			return as.State, nil
		}
		t, ok := m.status.get(s.ID())
		if !ok {
			return as.State, errors.New("the session is gone")
		}
		last := time.Unix(0, t.lastOut.Load())
		if !sawWorking && last.After(sent) && time.Since(last) >= quiet {
			return as.State, nil
		}
	}
}

// replyText is what the turn added to the screen: the lines after the
// last line showing the prompt (else after what the screen had before),
// without a trailing line identical to the old last line (the idle
// prompt of a shell).
func replyText(before, after []string, prompt string) string {
	key := strings.TrimSpace(strings.SplitN(strings.TrimSpace(prompt), "\n", 2)[0])
	if len(key) > 40 {
		key = key[:40]
	}
	start := -1
	for i := len(after) - 1; i >= 0 && key != ""; i-- {
		if strings.Contains(after[i], key) {
			start = i + 1
			break
		}
	}
	if start < 0 {
		start = 0
		for start < len(after) && start < len(before) && after[start] == before[start] {
			start++
		}
	}
	lines := slices.Clone(after[min(start, len(after)):])
	if n := len(lines); n > 0 && len(before) > 0 && strings.TrimSpace(lines[n-1]) == strings.TrimSpace(before[len(before)-1]) {
		lines = lines[:n-1]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
