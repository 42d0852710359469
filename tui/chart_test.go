package tui

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestLineChartHasValueAndTimeAxes(t *testing.T) {
	st := NewStyles(true)
	pts := []EquityPoint{
		{Time: t0, Equity: 1000},
		{Time: t0.Add(12 * time.Hour), Equity: 1500},
		{Time: t0.Add(24 * time.Hour), Equity: 900},
		{Time: t0.Add(48 * time.Hour), Equity: 1200},
	}
	out := ansi.Strip(lineChart(st, pts, 60, 10, func(v float64) string { return strings.TrimRight(strings.TrimRight(ftoa(v), "0"), ".") }))
	lines := strings.Split(out, "\n")
	require.Len(t, lines, 10, "exactly the height asked for")
	for _, l := range lines {
		require.LessOrEqual(t, ansi.StringWidth(l), 60)
	}
	require.True(t, strings.HasPrefix(lines[0], "1500 ┤"), "the high labels the top row: %q", lines[0])
	require.True(t, strings.HasPrefix(lines[7], " 900 ┤"), "the low labels the bottom row: %q", lines[7])
	require.Contains(t, lines[8], "└───")
	require.Contains(t, lines[9], "11-20 14:30", "start time")
	require.Contains(t, lines[9], "11-22 14:30", "end time")
	dots := 0
	for _, r := range out {
		if r > 0x2800 && r <= 0x28FF {
			dots++
		}
	}
	require.Greater(t, dots, 50, "a braille line, not a few blocks")
	require.Empty(t, lineChart(st, pts[:1], 60, 10, ftoa), "one point is not a line")
}

func TestBrailleLinesHaveNoGaps(t *testing.T) {
	g := newBrailleGrid(2, 4)
	g.line(0, 0, 3, 15) // steep: every dot row must be lit
	rows := map[int]bool{}
	for y := 0; y < 16; y++ {
		for x := 0; x < 4; x++ {
			if g.cells[(y/4)*g.w+x/2]&brailleBits[x%2][y%4] != 0 {
				rows[y] = true
			}
		}
	}
	require.Len(t, rows, 16)
}

func TestSparkline(t *testing.T) {
	require.Equal(t, "▁▃▆█", sparkline([]float64{1, 2, 3, 4}, 10))
	require.Equal(t, "▁█", sparkline([]float64{9, 1, 2}, 2), "only the last w values")
	require.Equal(t, "▅▅▅", sparkline([]float64{5, 5, 5}, 3), "a flat series is a flat mid line")
	require.Empty(t, sparkline(nil, 5))
}

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

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

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
