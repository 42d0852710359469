package live

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui"
)

// The adapter reads the kill switch, and a halt or resume made anywhere
// (here the trading service, as Telegram and the halt API call it) is a
// trading event for the UI.
func TestHaltStateAndItsEventsThroughTheAdapter(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	st, err := c.Halted()
	require.NoError(t, err)
	require.False(t, st.Halted)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := c.Events(ctx)
	tradingEvent := func() bool {
		for {
			select {
			case ev := <-events:
				if _, ok := ev.(tui.TradingChangedEvent); ok {
					return true
				}
			case <-time.After(30 * time.Second):
				return false
			}
		}
	}
	_, err = a.Trading().Halt(ctx, "a person on Telegram", "drill")
	require.NoError(t, err)
	require.True(t, tradingEvent(), "a halt reaches the UI as an event")
	st, err = c.Halted()
	require.NoError(t, err)
	require.True(t, st.Halted)
	require.Equal(t, "a person on Telegram", st.By)
	require.Equal(t, "drill", st.Reason)
	require.WithinDuration(t, time.Now(), st.Since, time.Minute)
	_, err = a.Trading().Resume("tester")
	require.NoError(t, err)
	require.True(t, tradingEvent(), "and so does a resume")
	st, _ = c.Halted()
	require.False(t, st.Halted)
}

// Two attached clients at 80×24: a halt from one's palette marks both
// status bars at once; `alice resume` (the halt API, with the operator
// key) clears both.
func TestHaltShowsInEveryClientUntilResumed(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	dark := true
	client := func() (*teatest.TestModel, *vtScreen) {
		m := tui.New(New(a), tui.Options{Version: "test", Dark: &dark})
		t.Cleanup(m.Close)
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24),
			teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
		scr := newVTScreen(t, tm, 80, 24)
		scr.waitFor("ctrl+p commands")
		return tm, scr
	}
	tm1, scr1 := client()
	tm2, scr2 := client()
	tm2.Send(tea.KeyPressMsg{Code: '5', Mod: tea.ModAlt}) // the other client looks at Market
	scr2.waitFor("─ Market ─")

	tm1.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	keyText(tm1, "halt all")
	press(tm1, tea.KeyEnter)
	scr1.waitFor("Halt ALL trading?")
	time.Sleep(tui.GraceQuiet + 100*time.Millisecond)
	keyText(tm1, "y")
	scr1.waitFor("TRADING HALTED")
	scr2.waitFor("TRADING HALTED")
	tm1.Send(tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt})
	scr1.waitFor("HALTED  since ")

	key, err := config.ReadOperatorKey(a.Paths().Data)
	require.NoError(t, err)
	_, path, _ := strings.Cut(app.ResumeRoute, " ")
	req, err := http.NewRequest(http.MethodPost, strings.TrimSuffix(a.MCPURL(), "/mcp")+path, strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(config.OperatorKeyHeader, key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	scr1.waitGone("HALTED")
	scr2.waitGone("HALTED")
}
