package kit_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestLineChartHasValueAndTimeAxes(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	pts := []kit.EquityPoint{
		{Time: tuitest.T0, Equity: 1000},
		{Time: tuitest.T0.Add(12 * time.Hour), Equity: 1500},
		{Time: tuitest.T0.Add(24 * time.Hour), Equity: 900},
		{Time: tuitest.T0.Add(48 * time.Hour), Equity: 1200},
	}
	out := ansi.Strip(kit.LineChart(st, pts, 60, 10, func(v float64) string { return strings.TrimRight(strings.TrimRight(ftoa(v), "0"), ".") }))
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
	require.Empty(t, kit.LineChart(st, pts[:1], 60, 10, ftoa), "one point is not a line")
}

func TestBrailleLinesHaveNoGaps(t *testing.T) {
	t.Parallel()
	g := kit.NewBrailleGrid(2, 4)
	g.Line(0, 0, 3, 15) // steep: every dot row must be lit
	rows := map[int]bool{}
	for y := 0; y < 16; y++ {
		for x := 0; x < 4; x++ {
			if g.Cells[(y/4)*g.W+x/2]&kit.BrailleBits[x%2][y%4] != 0 {
				rows[y] = true
			}
		}
	}
	require.Len(t, rows, 16)
}

func TestSparkline(t *testing.T) {
	t.Parallel()
	require.Equal(t, "▁▃▆█", kit.Sparkline([]float64{1, 2, 3, 4}, 10))
	require.Equal(t, "▁█", kit.Sparkline([]float64{9, 1, 2}, 2), "only the last w values")
	require.Equal(t, "▅▅▅", kit.Sparkline([]float64{5, 5, 5}, 3), "a flat series is a flat mid line")
	require.Empty(t, kit.Sparkline(nil, 5))
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// A $0.10 move on $100,000 is a flat line in the middle of the chart, not
// a cliff over 30 rows; the value labels show the scale that was used.
func TestLineChartNeverExaggeratesAFlatSeries(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	pts := []kit.EquityPoint{
		{Time: tuitest.T0, Equity: 100000},
		{Time: tuitest.T0.Add(time.Hour), Equity: 100000.10},
		{Time: tuitest.T0.Add(2 * time.Hour), Equity: 100000.05},
	}
	out := ansi.Strip(kit.LineChart(st, pts, 80, 32, ftoa))
	lines := strings.Split(out, "\n")
	lit := 0
	for _, l := range lines {
		if strings.ContainsFunc(l, func(r rune) bool { return r > 0x2800 && r <= 0x28FF }) {
			lit++
		}
	}
	require.LessOrEqual(t, lit, 2, "the line stays flat:\n%s", out)
	require.True(t, strings.HasPrefix(lines[0], "100100.05 ┤"), "the top label is the widened range: %q", lines[0])
	require.Contains(t, lines[29], "99900.05 ┤")
}

// The time axis never repeats a label: a short span gets a finer format,
// and a label equal to its neighbour is left out.
func TestTimeAxisLabelsAreDistinct(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	for _, span := range []time.Duration{0, 500 * time.Millisecond, time.Second, 90 * time.Second, 45 * time.Minute, 3 * time.Hour, 30 * time.Hour, 4 * 24 * time.Hour, 10 * 24 * time.Hour, 400 * 24 * time.Hour} {
		for _, w := range []int{40, 60, 120} {
			pts := []kit.EquityPoint{{Time: tuitest.T0, Equity: 100}, {Time: tuitest.T0.Add(span / 2), Equity: 101}, {Time: tuitest.T0.Add(span), Equity: 100.5}}
			lines := strings.Split(ansi.Strip(kit.LineChart(st, pts, w, 10, ftoa)), "\n")
			axis := strings.TrimSpace(lines[len(lines)-1])
			require.NotEmpty(t, axis, "span %v width %d: the axis has a label", span, w)
			// Labels are one or two words ("11-20 14:30", "Nov 20"),
			// separated by runs of spaces.
			seen := map[string]bool{}
			for _, l := range regexp.MustCompile(`\s{2,}`).Split(axis, -1) {
				require.False(t, seen[l], "span %v width %d: label %q repeats in %q", span, w, l, axis)
				seen[l] = true
			}
		}
	}
}

// A short chart (the 80x24 Portfolio gives it two rows) has no middle
// label, so a flat series is drawn on the row its own value labels, not
// on the row of the widened range's top (found in tmux: equity 99,999.90
// drawn beside "100099.90 ┤").
func TestShortLineChartDrawsAFlatSeriesAtItsLabel(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	pts := []kit.EquityPoint{{Time: tuitest.T0, Equity: 99999.90}, {Time: tuitest.T0.Add(time.Minute), Equity: 99999.90}}
	for _, h := range []int{3, 4, 5, 6} {
		lines := strings.Split(ansi.Strip(kit.LineChart(st, pts, 60, h, ftoa)), "\n")
		for _, l := range lines {
			if strings.ContainsFunc(l, func(r rune) bool { return r > 0x2800 && r <= 0x28FF }) {
				require.True(t, strings.HasPrefix(strings.TrimSpace(l), "99999.90 ┤"), "height %d: the line is on its value's label: %q\n%s", h, l, strings.Join(lines, "\n"))
			}
		}
	}
}
