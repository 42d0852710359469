package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stateLog collects agent state transitions of one manager.
type stateLog struct {
	mu  sync.Mutex
	seq []agentstate.State
}

func (l *stateLog) add(c AgentStateChange) {
	l.mu.Lock()
	l.seq = append(l.seq, c.To.State)
	l.mu.Unlock()
}

func (l *stateLog) states() []agentstate.State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seq)
}

func waitAgentState(t *testing.T, m *Manager, s *Session, want agentstate.State) {
	t.Helper()
	if !assert.Eventually(t, func() bool { st, _ := m.AgentStatus(s.ID()); return st.State == want }, waitFor, tick) {
		// Read at the end of the wait, not when it began.
		st, _ := m.AgentStatus(s.ID())
		t.Fatalf("agent state never became %s (it is %s); screen:\n%s", want, st.State, s.Screen())
	}
}

// TestFakeAgentDrivesEveryState runs a script that sets spinner titles,
// emits OSC 9;4 progress, rings the bell and waits at a prompt, and checks
// each state the workspace derives from it in a real pty.
func TestFakeAgentDrivesEveryState(t *testing.T) {
	t.Parallel()
	script, err := filepath.Abs("testdata/fake-agent.sh")
	require.NoError(t, err)
	m := newTestManager(t, t.TempDir(), func(o *Options) { o.ClaudeCommand = []string{"/bin/sh", script} })
	var log stateLog
	m.OnAgentState(log.add)
	w := createWS(t, m, "fake", "chat")
	s, err := m.StartSession(w.ID, AgentClaude)
	require.NoError(t, err)

	waitScreen(t, s, "fake>")
	waitAgentState(t, m, s, agentstate.Idle)
	steps := []struct {
		want   agentstate.State
		screen string
	}{
		{agentstate.Working, "thinking"},
		{agentstate.Working, "half way"},
		{agentstate.Done, "finished"},
		{agentstate.NeedsYou, "Allow the edit?"},
		{agentstate.Errored, "tests failed"},
		{agentstate.Exited, "process exited"},
	}
	for _, st := range steps {
		require.NoError(t, s.Input([]byte("\r")))
		waitScreen(t, s, st.screen)
		waitAgentState(t, m, s, st.want)
	}
	status, ok := m.AgentStatus(s.ID())
	require.True(t, ok)
	assert.Equal(t, w.ID, status.WorkspaceID)
	assert.Equal(t, AgentClaude, status.Agent)
	assert.Equal(t, []agentstate.State{agentstate.Working, agentstate.Done, agentstate.NeedsYou,
		agentstate.Errored, agentstate.Exited}, dedupe(log.states()), "transitions")
}

func dedupe(in []agentstate.State) []agentstate.State {
	var out []agentstate.State
	for _, s := range in {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// TestAcknowledgeTurnsDoneIntoIdle: a person looking at the session
// answers the bell and clears Done.
func TestAcknowledgeClearsBellAndDone(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "ack", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitScreen(t, s, "$")
	waitAgentState(t, m, s, agentstate.Idle)
	require.NoError(t, s.Input([]byte("printf '\\033]9;4;3;0\\007'; sleep 0.3; printf '\\033]9;4;0\\007\\007'\r")))
	waitAgentState(t, m, s, agentstate.NeedsYou)
	m.AcknowledgeAgent(s.ID())
	waitAgentState(t, m, s, agentstate.Idle)
	assert.Equal(t, agentstate.Idle, m.WorkspaceAgentState(w.ID))
}

// A bell or a finished run in a session a person is attached to is seen
// as it happens, as tmux flags a bell only in a window nobody looks at: a
// shell that rang while attached (vim's beep on Esc, printf '\a') stayed
// "needs you" after the detach and alerted then.
func TestWatchedSessionAnswersItsBellAtOnce(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	var log stateLog
	m.OnAgentState(log.add)
	w := createWS(t, m, "watched", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitScreen(t, s, "$")
	waitAgentState(t, m, s, agentstate.Idle)
	m.SetWatched(s.ID(), true)
	endsIdleAfter := func(want agentstate.State) {
		t.Helper()
		require.Eventually(t, func() bool {
			st := log.states()
			return len(st) > 0 && st[len(st)-1] == agentstate.Idle && slices.Contains(st, want)
		}, waitFor, tick, "while watched, %s is answered at once: %v", want, log.states())
	}
	require.NoError(t, s.Input([]byte("printf '\\033]9;4;3;0\\007'; sleep 0.3; printf '\\033]9;4;0\\007'; echo end-$((6*7))\r")))
	waitScreen(t, s, "end-42")
	endsIdleAfter(agentstate.Done)
	require.NoError(t, s.Input([]byte("printf 'rang\\007\\n'\r")))
	waitScreen(t, s, "rang")
	endsIdleAfter(agentstate.NeedsYou)
	m.SetWatched(s.ID(), false)
	st, _ := m.AgentStatus(s.ID())
	assert.Equal(t, agentstate.Idle, st.State, "nothing left to answer after the detach (transitions %v)", log.states())
}

// TestRealClaudeWithoutKeyIsNeverWorking runs the installed claude CLI
// with no credentials and no network: it must end errored (or waiting for
// a person), never "working".
func TestRealClaudeWithoutKeyIsNeverWorking(t *testing.T) {
	t.Parallel()
	bin := os.Getenv("ALICE_CLAUDE_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("claude"); err != nil {
			t.Skip("claude CLI not installed (npm i @anthropic-ai/claude-code; or set ALICE_CLAUDE_BIN)")
		}
	}
	home := t.TempDir()
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.ClaudeCommand = []string{bin}
		o.RespawnDelay = 200 * time.Millisecond
		o.ExtraEnv = append(o.ExtraEnv, "HOME="+home, "CLAUDE_CONFIG_DIR="+home+"/.claude", "DISABLE_AUTOUPDATER=1",
			"ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=http://127.0.0.1:9")
	})
	var log stateLog
	m.OnAgentState(log.add)
	w := createWS(t, m, "real-claude", "chat")
	s, err := m.StartSession(w.ID, AgentClaude)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		st, _ := m.AgentStatus(s.ID())
		return st.State == agentstate.Errored || st.State == agentstate.NeedsYou
	}, 60*time.Second, 50*time.Millisecond, "screen:\n%s", s.Screen())
	time.Sleep(2 * time.Second) // let it settle (respawns included)
	st, _ := m.AgentStatus(s.ID())
	t.Logf("claude ended %s (%s); transitions %v; screen tail %q", st.State, st.Detail, log.states(), s.ScreenText(4))
	assert.Contains(t, []agentstate.State{agentstate.Errored, agentstate.NeedsYou}, st.State)
	assert.NotContains(t, log.states(), agentstate.Working)
}

// TestRealCodexSignInNeedsYou runs the installed codex CLI with an empty
// CODEX_HOME: its sign-in menu waits for a person.
func TestRealCodexSignInNeedsYou(t *testing.T) {
	t.Parallel()
	bin := os.Getenv("ALICE_CODEX_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("codex"); err != nil {
			t.Skip("codex CLI not installed (npm i @openai/codex; or set ALICE_CODEX_BIN)")
		}
	}
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".codex"), 0o700))
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.CodexCommand = []string{bin}
		o.ExtraEnv = append(o.ExtraEnv, "HOME="+home, "CODEX_HOME="+filepath.Join(home, ".codex"), "OPENAI_API_KEY=")
	})
	var log stateLog
	m.OnAgentState(log.add)
	w := createWS(t, m, "real-codex", "chat")
	s, err := m.StartSession(w.ID, AgentCodex)
	require.NoError(t, err)
	waitAgentState(t, m, s, agentstate.NeedsYou)
	st, _ := m.AgentStatus(s.ID())
	t.Logf("codex: %s (%s); transitions %v", st.State, st.Detail, log.states())
	assert.NotContains(t, log.states(), agentstate.Working)
}
