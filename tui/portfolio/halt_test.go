package portfolio_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// haltCore has a kill switch; set stands for a halt or resume that came
// from elsewhere (another client, Telegram, alice halt).
type haltCore struct {
	*tuitest.FakeCore
	mu sync.Mutex
	st portfolio.HaltState
}

func (c *haltCore) set(st portfolio.HaltState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.st = st
}

func (c *haltCore) Halt(context.Context) (string, error) {
	c.Mu.Lock()
	c.PendingCommits = nil // withdrawn, as the real kill switch does
	c.Mu.Unlock()
	c.set(portfolio.HaltState{Halted: true, Since: tuitest.T0.Add(90 * time.Minute), By: "a person in the alice UI", Reason: "palette"})
	return "trading halted: 1 resting order(s) cancelled, 1 commit(s) withdrawn; Resume trading lifts it", nil
}

func (c *haltCore) Resume(context.Context) (string, error) {
	c.set(portfolio.HaltState{})
	return "trading resumed", nil
}

func (c *haltCore) Halted() (portfolio.HaltState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st, nil
}

func newHaltHarness(t *testing.T, w, h int) (*tuitest.Harness, *haltCore) {
	hc := &haltCore{}
	return tuitest.NewHarnessCore(t, w, h, func(f *tuitest.FakeCore) tui.Core { hc.FakeCore = f; return hc }), hc
}

// palette runs the palette entry whose ID is id (typed query, enter) and
// confirms its dialog.
func palette(t *testing.T, h *tuitest.Harness, query, id string) {
	t.Helper()
	h.Send(tuitest.Ctrl('p'))
	h.TypeText(query)
	require.Equal(t, id, h.M.Palette.All[h.M.Palette.Matches[0].Index].ID)
	h.Key("enter")
	h.Confirm()
}

// statusBar is the screen's last line.
func statusBar(s string) string { return s[strings.LastIndex(s, "\n")+1:] }

// While the kill switch is on it shows on every pane (the status bar
// starts with TRADING HALTED) and in Portfolio's account header (HALTED
// since …), at 80×24 as at 200×50; resuming removes both.
func TestGoldenHaltIsShownUntilResumed(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newHaltHarness(t, size[0], size[1])
			require.NotContains(t, h.Screen(), "HALTED")
			palette(t, h, "halt all", "portfolio.halt")
			require.Contains(t, h.Screen(), "trading halted: 1 resting order(s) cancelled")
			toast, _ := h.M.Toasts.Current()
			h.Send(kit.ToastExpiredMsg{ID: toast.ID}) // so the golden shows the bar as it stays
			for _, f := range []tui.Focus{tui.FocusChat, tui.FocusPortfolio, tui.FocusWorkspaces, h.M.PaneIndex(h.M.Market), h.M.PaneIndex(h.M.Settings)} {
				h.M.SetFocus(f)
				s := h.Screen()
				require.True(t, strings.HasPrefix(statusBar(s), " TRADING HALTED "), "%s: %q", h.M.Tabs[f].Name, statusBar(s))
			}
			h.M.SetFocus(tui.FocusPortfolio)
			s := h.Screen()
			require.Contains(t, s, "HALTED  since 2026-11-20 16:00 UTC by a person")
			golden.RequireEqual(t, []byte(s))

			palette(t, h, "resume trading", "portfolio.resume")
			s = h.Screen()
			require.Contains(t, s, "trading resumed")
			require.NotContains(t, s, "HALTED", "resuming removes the marker and the header line")
			h.M.SetFocus(tui.FocusChat)
			require.NotContains(t, h.Screen(), "HALTED")
		})
	}
}

// A halt or resume from anywhere else reaches the screen as the trading
// event the core sends for it, with no timer.
func TestHaltFromElsewhereShowsOnTheNextTradingEvent(t *testing.T) {
	t.Parallel()
	h, hc := newHaltHarness(t, 80, 24)
	require.NotContains(t, h.Screen(), "HALTED")
	hc.set(portfolio.HaltState{Halted: true, Since: tuitest.T0, By: "alice halt (tester)"})
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.True(t, strings.HasPrefix(statusBar(h.Screen()), " TRADING HALTED "), "on the chat pane, where the UI starts")
	h.Key("alt+3")
	require.Contains(t, h.Screen(), "HALTED  since 2026-11-20 14:30 UTC by alice halt (tester)")

	hc.set(portfolio.HaltState{})
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.NotContains(t, h.Screen(), "HALTED")
}
