package tui_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/activity"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/require"
)

func startPagesFlow(t *testing.T) (*teatest.TestModel, *tuitest.FakePages, *clock, *screen) {
	t.Helper()
	f := tuitest.NewFakePages()
	f.Mu.Lock()
	f.PendingCommits = nil
	f.Mu.Unlock()
	clk := &clock{now: tuitest.T0}
	dark := true
	m := tui.New(f, tui.Options{Version: "test", Dark: &dark, Now: clk.Now})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 40),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	t.Cleanup(m.Close)
	return tm, f, clk, newScreen(t, tm, 140, 40)
}

// TestFlowMarketSearchIndicatorStageOrder is the end-to-end flow:
// search a symbol, add an indicator, stage an order from the Market pane
// and find it waiting for approval in Portfolio.
func TestFlowMarketSearchIndicatorStageOrder(t *testing.T) {
	t.Parallel()
	tm, f, clk, scr := startPagesFlow(t)
	scr.waitFor("Ask Alice")
	tm.Send(tea.KeyPressMsg{Code: '5', Mod: tea.ModAlt})
	// The pane starts on the holdings (and watchlist), with quotes.
	scr.waitFor("Watchlist and holdings")
	scr.waitFor("MSFT")
	tm.Send(tea.KeyPressMsg{Code: '/', Text: "/"})
	tm.Type("apple")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	// The results are drawn as rows: symbol, name, class.
	scr.waitFor("Results (1)")
	scr.waitFor("AAPL         Apple Inc.")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("AAPL Apple Inc. · equity")
	scr.waitFor("187.25 +1.75 (+0.94%)")

	tm.Send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	scr.waitFor("Indicator › SMA(CLOSE('AAPL','1d'),20)")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("• SMA(CLOSE('AAPL','1d'),20)")

	tm.Send(tea.KeyPressMsg{Code: 'o', Text: "o"})
	scr.waitFor("Stage an order")
	tm.Type("7")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	scr.waitFor("Stage this order?")
	scr.waitFor("BUY 7 AAPL MKT on sim-paper")
	clk.Add(time.Second)
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	scr.waitFor("staged BUY 7 AAPL MKT on sim-paper")

	tm.Send(tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt})
	scr.waitFor("Pending approval: sim-paper 9f8e7d6c")
	scr.waitFor("placeOrder BUY 7 AAPL (MKT)")

	quit(t, tm, scr)
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	require.Len(t, f.Tickets, 1)
	require.Equal(t, "BUY 7 AAPL MKT on sim-paper", f.Tickets[0].Describe())
	f.Mu.Lock()
	defer f.Mu.Unlock()
	require.Empty(t, f.Approved, "nothing executes without the approval")
}

// TestFlowActivityShowsNewRunsLive: a run recorded while the pane is open
// appears through the event bridge, without a key press.
func TestFlowActivityShowsNewRunsLive(t *testing.T) {
	t.Parallel()
	tm, f, _, scr := startPagesFlow(t)
	scr.waitFor("Ask Alice")
	tm.Send(tea.KeyPressMsg{Code: '6', Mod: tea.ModAlt})
	tm.Send(tea.KeyPressMsg{Code: ']', Text: "]"})
	scr.waitFor("✓ delivered → tui")

	req := f.AddEvent("agent.work.requested", `{"source":"task","prompt":"webhook: TSLA halted"}`, 0)
	f.EventCh <- activity.ActivityChangedEvent{Seq: req.Seq}
	scr.waitFor("webhook: TSLA halted                  … running")
	f.AddEvent("agent.work.error", `{"source":"task","error":"No AI provider is configured","durationMs":12}`, req.Seq)
	f.EventCh <- activity.ActivityChangedEvent{}
	scr.waitFor("webhook: TSLA halted                  ✗ No AI provider is configured")
	quit(t, tm, scr)
}

// TestFlowActivityRetriesAFailedRun: a failed queued task is retried from
// the Runs tab with r; a run that did not fail is refused with a message.
func TestFlowActivityRetriesAFailedRun(t *testing.T) {
	tm, f, _, scr := startPagesFlow(t)
	scr.waitFor("Ask Alice")
	req := f.AddEvent("agent.work.requested", `{"source":"task","prompt":"webhook: rebalance","taskId":"task-77","key":"webhook:k1","queued":true}`, 0)
	f.AddEvent("agent.work.started", `{"source":"task","taskId":"task-77"}`, req.Seq)
	f.AddEvent("agent.work.abandoned", `{"source":"task","taskId":"task-77","reason":"alice stopped while the task ran"}`, req.Seq)
	tm.Send(tea.KeyPressMsg{Code: '6', Mod: tea.ModAlt})
	tm.Send(tea.KeyPressMsg{Code: ']', Text: "]"})
	scr.waitFor("✗ abandoned (r retries)")
	tm.Send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	scr.waitFor("retry queued as task retry-ta")
	tm.Send(tea.KeyPressMsg{Code: 'j', Text: "j"}) // the older, delivered run
	tm.Send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	scr.waitFor("only failed or abandoned runs can be retried")
	quit(t, tm, scr)
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	require.Equal(t, []string{"task-77"}, f.Retried)
}

// TestFlowStatusBarShowsTelegramRetrying: a Telegram link that is down
// shows in the status bar on the next status refresh, and leaves it when up.
func TestFlowStatusBarShowsTelegramRetrying(t *testing.T) {
	tm, f, clk, scr := startPagesFlow(t)
	scr.waitFor("Ask Alice")
	f.Mu.Lock()
	f.TelegramDown = "Telegram unreachable since 09:41, retrying"
	f.Mu.Unlock()
	tm.Send(tui.TickMsg(clk.Now()))
	scr.waitFor("⚠ Telegram unreachable since 09:41, retrying")
	quit(t, tm, scr)
}
