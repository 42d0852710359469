package portfolio_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/stretchr/testify/require"
)

// accountsCore has several accounts that can be removed while the pane
// shows one; like the real core, it refuses to read an account it does
// not have.
type accountsCore struct {
	*tuitest.FakeCore
	mu  sync.Mutex
	ids []string
}

func (c *accountsCore) known(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.ids, id) {
		return fmt.Errorf("unknown or disabled account %q (see listUTAs)", id)
	}
	return nil
}

func (c *accountsCore) remove(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = slices.DeleteFunc(c.ids, func(s string) bool { return s == id })
}

func (c *accountsCore) Accounts() ([]portfolio.AccountSummary, error) {
	base, _ := c.FakeCore.Accounts()
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []portfolio.AccountSummary
	for _, id := range c.ids {
		a := base[0]
		a.ID = id
		out = append(out, a)
	}
	return out, nil
}

func (c *accountsCore) Positions(a string) ([]portfolio.Position, error) {
	if err := c.known(a); err != nil {
		return nil, err
	}
	return c.FakeCore.Positions(a)
}

func (c *accountsCore) Orders(a string) ([]portfolio.Order, error) {
	if err := c.known(a); err != nil {
		return nil, err
	}
	return c.FakeCore.Orders(a)
}

func (c *accountsCore) TradingLog(a string, n int) ([]portfolio.CommitLogEntry, error) {
	if err := c.known(a); err != nil {
		return nil, err
	}
	return c.FakeCore.TradingLog(a, n)
}

func (c *accountsCore) EquityCurve(a string) ([]kit.EquityPoint, error) {
	if err := c.known(a); err != nil {
		return nil, err
	}
	return c.FakeCore.EquityCurve(a)
}

func (c *accountsCore) OrderHistory(a string, n int) ([]portfolio.HistoryOrder, error) {
	if err := c.known(a); err != nil {
		return nil, err
	}
	return c.FakeCore.OrderHistory(a, n)
}

// Removing the account the pane shows (Settings → Accounts → d, or an
// edit of accounts.json) moves the pane to its neighbour without an
// error: the tester saw "✗ unknown or disabled account "sim3"" stay.
func TestRemovedAccountFallsBackWithoutAnError(t *testing.T) {
	t.Parallel()
	ac := &accountsCore{ids: []string{"sim-paper", "sim2", "sim3"}}
	h := tuitest.NewHarnessCore(t, 100, 30, func(f *tuitest.FakeCore) tui.Core { ac.FakeCore = f; return ac })
	h.Key("alt+3", "]", "]")
	require.Contains(t, h.Screen(), "MSFT")
	require.Regexp(t, `sim2 +sim3 `, h.Screen())

	ac.remove("sim3")
	h.F.EventCh <- tui.TradingChangedEvent{} // what the core sends when accounts change
	h.Run(h.M.WaitEvent())
	s := h.Screen()
	require.NotContains(t, s, "unknown or disabled", "no error for an account that is gone")
	require.Empty(t, h.Toast())
	require.NotContains(t, s, "sim3")
	require.Contains(t, s, "MSFT", "the neighbour's positions show")
	h.Key("[")
	require.Empty(t, h.Toast(), "the cursor moved with the list: [ goes on to sim-paper")

	// The history view falls back too, and so does the last account going.
	h.Key("]", "v")
	ac.remove("sim2")
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	s = h.Screen()
	require.NotContains(t, s, "unknown or disabled")
	require.Empty(t, h.Toast())
	require.Contains(t, s, "Order history (4)", "sim-paper's history")
	ac.remove("sim-paper")
	h.F.EventCh <- tui.TradingChangedEvent{}
	h.Run(h.M.WaitEvent())
	require.Empty(t, h.Toast())
	require.Contains(t, h.Screen(), "No trading accounts")
}
