package workspace

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sentAlert struct{ text, urgency, source string }

type fakeHumans struct {
	mu   sync.Mutex
	sent []sentAlert
}

func (f *fakeHumans) NotifyHumansPlain(_ context.Context, text, urgency, source string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, sentAlert{text, urgency, source})
	return "tui", nil
}

func (f *fakeHumans) all() []sentAlert {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sentAlert(nil), f.sent...)
}

func runAlerter(t *testing.T, m *Manager, opts AlertOptions) (*Alerter, *fakeHumans) {
	t.Helper()
	h := &fakeHumans{}
	a := NewAlerter(m, h, opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); a.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return a, h
}

// heldBack is how many settled alerts the rate limits have held back: a
// test waits for it rather than sleeping and hoping the alerter ran.
func heldBack(a *Alerter) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.suppressed
}

func TestNeedsYouSendsOneAlertWithScreenLines(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	a, humans := runAlerter(t, m, AlertOptions{Settle: 100 * time.Millisecond, PerSession: time.Hour})
	w := createWS(t, m, "alerts", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitScreen(t, s, "$")
	require.NoError(t, s.Input([]byte("echo 'Proceed with deploy?'; printf '\\007'\r")))
	waitAgentState(t, m, s, agentstate.NeedsYou)
	require.Eventually(t, func() bool { return len(humans.all()) == 1 }, waitFor, tick)
	got := humans.all()[0]
	assert.Contains(t, got.text, "Workspace alerts · sh1 (shell) needs you")
	assert.Contains(t, got.text, "│ Proceed with deploy?")
	assert.Equal(t, "important", got.urgency)
	assert.Equal(t, AlertSource, got.source)

	// Answered, then asking again within the per-session window: held back.
	require.NoError(t, m.Send(s.ID(), "printf '\\007'", true))
	waitAgentState(t, m, s, agentstate.NeedsYou)
	require.Eventually(t, func() bool { return heldBack(a) == 1 }, waitFor, tick, "the second bell settles and is held back")
	assert.Len(t, humans.all(), 1, "rate-limited per session")
}

func TestFlickerMakesNoAlert(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	_, humans := runAlerter(t, m, AlertOptions{Settle: 500 * time.Millisecond})
	w := createWS(t, m, "flicker", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitScreen(t, s, "$")
	// A bell answered at once by new work (progress starts) never settles.
	require.NoError(t, s.Input([]byte("printf '\\007\\033]9;4;3;0\\007'; sleep 1\r")))
	waitAgentState(t, m, s, agentstate.Working)
	time.Sleep(700 * time.Millisecond)
	assert.Empty(t, humans.all())
}

func TestGlobalLimitCountsHeldBackAlerts(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	a, humans := runAlerter(t, m, AlertOptions{Settle: 50 * time.Millisecond, PerMinute: 1})
	w := createWS(t, m, "limit", "chat")
	var sessions []*Session
	for range 3 {
		s, err := m.StartSession(w.ID, AgentShell)
		require.NoError(t, err)
		waitScreen(t, s, "$")
		sessions = append(sessions, s)
	}
	for _, s := range sessions {
		require.NoError(t, s.Input([]byte("printf '\\033]9;4;2;0\\007'\r")))
		waitAgentState(t, m, s, agentstate.Errored)
	}
	// All three settle: one is sent, the limit holds back the other two.
	require.Eventually(t, func() bool { return heldBack(a) == 2 }, waitFor, tick, "two alerts held back; sent %d", len(humans.all()))
	require.Len(t, humans.all(), 1, "one alert per minute")
	assert.Contains(t, humans.all()[0].text, "errored")
}

func TestWatchedSessionMakesNoAlert(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	var log stateLog
	m.OnAgentState(log.add)
	_, humans := runAlerter(t, m, AlertOptions{Settle: 50 * time.Millisecond})
	w := createWS(t, m, "watched", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitScreen(t, s, "$")
	m.SetWatched(s.ID(), true)
	m.SetWatched(s.ID(), true)
	m.SetWatched(s.ID(), false) // still watched once
	require.True(t, m.Watched(s.ID()))
	require.NoError(t, s.Input([]byte("printf '\\007'\r")))
	// Watched, the bell is answered at once: it passes through needs-you.
	if !assert.Eventually(t, func() bool { return slices.Contains(log.states(), agentstate.NeedsYou) }, waitFor, tick) {
		t.Fatalf("the bell never made the session need a person; transitions %v", log.states())
	}
	time.Sleep(300 * time.Millisecond)
	assert.Empty(t, humans.all(), "attached: the person sees it")

	m.SetWatched(s.ID(), false)
	require.False(t, m.Watched(s.ID()))
	require.NoError(t, m.Send(s.ID(), "printf '\\007'", true))
	require.Eventually(t, func() bool { return len(humans.all()) == 1 }, waitFor, tick)
}
