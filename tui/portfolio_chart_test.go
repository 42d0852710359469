package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// historyCore adds per-position prices to the fake core.
type historyCore struct{ *fakeCore }

func (historyCore) PositionHistory(string) (map[string][]float64, error) {
	return map[string][]float64{"MSFT": {400, 405, 410, 402, 420.5}}, nil
}

func TestPortfolioUsesTheWidthAndShowsSparklines(t *testing.T) {
	wide := newHarnessCore(t, 220, 50, func(f *fakeCore) Core { return historyCore{f} })
	wide.m.setFocus(focusPortfolio)
	s := wide.screen()
	row := lineWith(s, "Positions")
	require.Contains(t, row, "Open orders", "side by side on a wide terminal")
	require.Contains(t, row, "Trading log")
	require.Contains(t, s, "Trend")
	require.Contains(t, s, "▁▃▄▂█", "a sparkline per position")
	require.Contains(t, s, "high 100220.00")
	require.Contains(t, s, "low 100000.00")

	narrow := newHarness(t, 80, 40)
	narrow.m.setFocus(focusPortfolio)
	s = narrow.screen()
	require.NotContains(t, lineWith(s, "Positions"), "Open orders", "stacked on a narrow terminal")
	require.Contains(t, s, "Open orders")
	require.NotContains(t, s, "Trend", "no history, no column")
}

// snapCore can take snapshots; each adds a point to the curve.
type snapCore struct {
	*fakeCore
	taken int
}

func (s *snapCore) TakeSnapshot(context.Context, string) error { s.taken++; return nil }

func TestSnapshotFromThePaletteShowsProgress(t *testing.T) {
	sc := &snapCore{}
	h := newHarnessCore(t, 120, 40, func(f *fakeCore) Core { sc.fakeCore = f; return sc })
	h.send(ctrl('p'))
	h.typeText("snapshot")
	require.Equal(t, "portfolio.snapshot", h.m.palette.all[h.m.palette.matches[0].Index].ID)
	_, cmd := h.m.Update(keyMsg("enter"))
	require.Equal(t, focusPortfolio, h.m.focus)
	require.Contains(t, h.screen(), "taking a snapshot of sim-paper…")
	h.run(cmd)
	require.Equal(t, 1, sc.taken)
	s := h.screen()
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
