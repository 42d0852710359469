package kit

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// A small braille line-chart renderer (ntcharts only builds against
// Bubble Tea v1; see shared/reference/tui-patterns.md §4). Each cell is a
// 2×4 dot grid, so a w×h plot has 2w×4h points of resolution. Consecutive
// points are joined with Bresenham lines so steep moves leave no gaps.
// Other panes can reuse lineChart and sparkline for their own series.

// BrailleBits maps (column, row) within a cell to its dot bit.
var BrailleBits = [2][4]rune{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// brailleGrid is a w×h cell canvas of braille dots.
type brailleGrid struct {
	W, h  int
	Cells []rune
}

func NewBrailleGrid(w, h int) *brailleGrid {
	return &brailleGrid{W: w, h: h, Cells: make([]rune, w*h)}
}

// set lights the dot at (x, y) in dot coordinates (y grows downwards).
func (g *brailleGrid) set(x, y int) {
	if x < 0 || y < 0 || x >= 2*g.W || y >= 4*g.h {
		return
	}
	g.Cells[(y/4)*g.W+x/2] |= BrailleBits[x%2][y%4]
}

// Line joins two dots (Bresenham).
func (g *brailleGrid) Line(x0, y0, x1, y1 int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	err := dx + dy
	for {
		g.set(x0, y0)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * err
		if e2 >= dy {
			err += dy
			x0 += sx
		}
		if e2 <= dx {
			err += dx
			y0 += sy
		}
	}
}

func (g *brailleGrid) rows() []string {
	out := make([]string, g.h)
	var b strings.Builder
	for r := 0; r < g.h; r++ {
		b.Reset()
		for c := 0; c < g.W; c++ {
			if v := g.Cells[r*g.W+c]; v != 0 {
				b.WriteRune(0x2800 | v)
			} else {
				b.WriteByte(' ')
			}
		}
		out[r] = b.String()
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// seriesRange is the plotted range of ys: their min and max, widened
// around the middle to at least 0.2% of the level (and at least 1), so a
// $0.10 move on $100,000 is drawn as the flat line it is, never stretched
// over the whole height. The axis labels show the range used.
func seriesRange(ys []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, y := range ys {
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	mid := (lo + hi) / 2
	if minSpan := math.Max(math.Abs(mid)*0.002, 1); hi-lo < minSpan {
		lo, hi = mid-minSpan/2, mid+minSpan/2
	}
	return lo, hi
}

// LineChart draws pts (ordered by time) in a w×h box: value labels on the
// left (high, middle, low), the braille plot, then an axis line and time
// labels (start, middle, end). fmtY formats the value labels.
func LineChart(st Styles, pts []EquityPoint, w, h int, fmtY func(float64) string) string {
	if len(pts) < 2 || w < 12 || h < 3 {
		return ""
	}
	ys := make([]float64, len(pts))
	for i, p := range pts {
		ys[i] = p.Equity
	}
	lo, hi := seriesRange(ys)
	if h-2 < 5 {
		// No middle label: a widened (flat) range starts at the series'
		// low, so the line is drawn on the row that labels its value.
		low := slices.Min(ys)
		lo, hi = low, low+(hi-lo)
	}
	labels := []string{fmtY(hi), fmtY((hi + lo) / 2), fmtY(lo)}
	gw := 0
	for _, l := range labels {
		gw = max(gw, ansi.StringWidth(l))
	}
	pw, ph := w-gw-2, h-2
	if pw < 4 || ph < 1 {
		return ""
	}
	g := NewBrailleGrid(pw, ph)
	t0, t1 := pts[0].Time, pts[len(pts)-1].Time
	span := t1.Sub(t0)
	dotX := func(t time.Time, i int) int {
		if span <= 0 {
			return int(math.Round(float64(i) / float64(len(pts)-1) * float64(2*pw-1)))
		}
		return int(math.Round(float64(t.Sub(t0)) / float64(span) * float64(2*pw-1)))
	}
	dotY := func(v float64) int {
		return (4*ph - 1) - int(math.Round((v-lo)/(hi-lo)*float64(4*ph-1)))
	}
	px, py := dotX(pts[0].Time, 0), dotY(ys[0])
	g.set(px, py)
	for i := 1; i < len(pts); i++ {
		x, y := dotX(pts[i].Time, i), dotY(ys[i])
		g.Line(px, py, x, y)
		px, py = x, y
	}
	rows := g.rows()
	out := make([]string, 0, h)
	for r, row := range rows {
		label := ""
		switch {
		case r == ph-1:
			label = labels[2]
		case r == 0:
			label = labels[0]
		case r == (ph-1)/2 && ph >= 5:
			label = labels[1]
		}
		tick := "│"
		if label != "" {
			tick = "┤"
		}
		out = append(out, st.Muted.Render(Pad(label, gw, true)+" "+tick)+st.Chart.Render(row))
	}
	out = append(out, st.Muted.Render(strings.Repeat(" ", gw+1)+"└"+strings.Repeat("─", pw)))
	out = append(out, st.Muted.Render(strings.Repeat(" ", gw+2)+timeAxis(t0, t1, pw)))
	return strings.Join(out, "\n")
}

// timeAxis spreads start, middle and end labels over w cells, never the
// same text twice: a span shorter than the format's unit gets a finer
// format, and a middle (or end) label equal to a neighbour is left out.
func timeAxis(t0, t1 time.Time, w int) string {
	layout := "01-02 15:04"
	switch span := t1.Sub(t0); {
	case span < 30*time.Minute:
		layout = "15:04:05"
	case span < 20*time.Hour && t0.YearDay() == t1.YearDay():
		layout = "15:04"
	case span > 300*24*time.Hour:
		layout = "Jan 2006"
	case span > 5*24*time.Hour:
		layout = "Jan 02"
	}
	if t0.Format(layout) == t1.Format(layout) && layout != "15:04:05" {
		layout = "01-02 15:04:05"
	}
	a, z := t0.Format(layout), t1.Format(layout)
	mid := t0.Add(t1.Sub(t0) / 2).Format(layout)
	line := []rune(strings.Repeat(" ", w))
	put := func(s string, at int) {
		for i, r := range []rune(s) {
			if at+i >= 0 && at+i < len(line) {
				line[at+i] = r
			}
		}
	}
	put(a, 0)
	if w >= len(a)+len(mid)+len(z)+4 && mid != a && mid != z {
		put(mid, w/2-len(mid)/2)
	}
	if w >= len(a)+len(z)+2 && z != a {
		put(z, w-len(z))
	}
	return string(line)
}

// Pad aligns s to w cells (right-aligned when right).
func Pad(s string, w int, right bool) string {
	n := w - ansi.StringWidth(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

// Sparkline draws ys in w cells with block heights (last w values).
func Sparkline(ys []float64, w int) string {
	if len(ys) == 0 || w <= 0 {
		return ""
	}
	if len(ys) > w {
		ys = ys[len(ys)-w:]
	}
	lo, hi := seriesRange(ys)
	levels := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, y := range ys {
		i := int(math.Round((y - lo) / (hi - lo) * float64(len(levels)-1)))
		b.WriteRune(levels[min(max(i, 0), len(levels)-1)])
	}
	return b.String()
}

// EquityPoint is one snapshot's net liquidation value.
type EquityPoint struct {
	Time   time.Time
	Equity float64 // charting only; money values elsewhere stay decimal
}
