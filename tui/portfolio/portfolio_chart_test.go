package portfolio_test

import (
	"context"
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// historyCore adds per-position prices to the fake core.
type historyCore struct{ *tuitest.FakeCore }

func (historyCore) PositionHistory(string) (map[string][]float64, error) {
	return map[string][]float64{"MSFT": {400, 405, 410, 402, 420.5}}, nil
}

func TestPortfolioUsesTheWidthAndShowsSparklines(t *testing.T) {
	t.Parallel()
	wide := tuitest.NewHarnessCore(t, 220, 50, func(f *tuitest.FakeCore) tui.Core { return historyCore{f} })
	wide.M.SetFocus(tui.FocusPortfolio)
	s := wide.Screen()
	row := lineWith(s, "Positions")
	require.Contains(t, row, "Open orders", "side by side on a wide terminal")
	require.Contains(t, row, "Trading log")
	require.Contains(t, s, "Trend")
	require.Contains(t, s, "▁▃▄▂█", "a sparkline per position")
	require.Contains(t, s, "high 100220.00")
	require.Contains(t, s, "low 100000.00")

	narrow := tuitest.NewHarness(t, 80, 40)
	narrow.M.SetFocus(tui.FocusPortfolio)
	s = narrow.Screen()
	require.NotContains(t, lineWith(s, "Positions"), "Open orders", "stacked on a narrow terminal")
	require.Contains(t, s, "Open orders")
	require.NotContains(t, s, "Trend", "no history, no column")
}

// snapCore can take snapshots; each adds a point to the curve.
type snapCore struct {
	*tuitest.FakeCore
	taken int
}

func (s *snapCore) TakeSnapshot(context.Context, string) error { s.taken++; return nil }

func TestSnapshotFromThePaletteShowsProgress(t *testing.T) {
	t.Parallel()
	sc := &snapCore{}
	h := tuitest.NewHarnessCore(t, 120, 40, func(f *tuitest.FakeCore) tui.Core { sc.FakeCore = f; return sc })
	h.Send(tuitest.Ctrl('p'))
	h.TypeText("snapshot")
	require.Equal(t, "portfolio.snapshot", h.M.Palette.All[h.M.Palette.Matches[0].Index].ID)
	_, cmd := h.M.Update(tuitest.KeyMsg("enter"))
	require.Equal(t, tui.FocusPortfolio, h.M.Focus)
	require.Contains(t, h.Screen(), "taking a snapshot of sim-paper…")
	h.Run(cmd)
	require.Equal(t, 1, sc.taken)
	s := h.Screen()
	require.NotContains(t, s, "taking a snapshot")
	require.Contains(t, s, "snapshot taken")
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
