package market

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// CandleChart renders candles as text: one body glyph per candle (cw
// columns wide, the last column a gap when cw > 1), wicks as thin bars,
// green or red by close ≥ open, with indicator overlays as dots and a
// price axis on the right. It is a pure function of its inputs so goldens
// are stable. ntcharts would pull Bubble Tea v1 into the build
// (tui-patterns.md §4), so this stays a small renderer of our own.
type CandleChart struct {
	Candles  []Candle
	Overlays [][]float64 // right-aligned with candles
	W, H     int         // total size including the axis
	Cw       int         // columns per candle
}

// cell is one chart character and its style class.
type cell struct {
	R    rune
	Kind cellKind
}

type cellKind uint8

const (
	cellEmpty cellKind = iota
	CellUp
	CellDown
	CellOverlay0
)

// AxisWidth is the right-hand price label column.
const AxisWidth = 10

// visible returns the candles and overlay tails that fit the plot width.
func (c CandleChart) visible() ([]Candle, [][]float64) {
	plotW := max(1, c.W-AxisWidth)
	cw := max(1, c.Cw)
	n := min(len(c.Candles), plotW/cw)
	cs := c.Candles[len(c.Candles)-n:]
	ovs := make([][]float64, len(c.Overlays))
	for i, o := range c.Overlays {
		// Align each overlay's last value with the last candle.
		k := min(len(o), n)
		pad := make([]float64, n-k)
		for j := range pad {
			pad[j] = math.NaN()
		}
		ovs[i] = append(pad, o[len(o)-k:]...)
	}
	return cs, ovs
}

// Grid lays the chart out as cells plus the price range it covers.
func (c CandleChart) Grid() ([][]cell, float64, float64) {
	cs, ovs := c.visible()
	h := max(2, c.H)
	plotW := max(1, c.W-AxisWidth)
	g := make([][]cell, h)
	for r := range g {
		g[r] = make([]cell, plotW)
		for x := range g[r] {
			g[r][x] = cell{R: ' '}
		}
	}
	if len(cs) == 0 {
		return g, 0, 0
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, k := range cs {
		lo, hi = math.Min(lo, k.Low), math.Max(hi, k.High)
	}
	if hi == lo {
		hi, lo = hi+0.5, lo-0.5
	}
	// An overlay on another scale (RSI 0–100 under a 180 price) would
	// flatten the candles: draw only overlays near the price range.
	span := hi - lo
	for i, o := range ovs {
		olo, ohi := math.Inf(1), math.Inf(-1)
		for _, v := range o {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				olo, ohi = math.Min(olo, v), math.Max(ohi, v)
			}
		}
		if olo < lo-span || ohi > hi+span {
			ovs[i] = nil
			continue
		}
		lo, hi = math.Min(lo, olo), math.Max(hi, ohi)
	}
	// row maps a price to a row; rows are twice as fine for half blocks.
	row := func(v float64) float64 { return (hi - v) / (hi - lo) * float64(h*2-1) }
	cw := max(1, c.Cw)
	for i, k := range cs {
		x := i * cw
		kind := CellUp
		if k.Close < k.Open {
			kind = CellDown
		}
		top, bot := row(k.High), row(k.Low)
		bTop, bBot := row(math.Max(k.Open, k.Close)), row(math.Min(k.Open, k.Close))
		for r := 0; r < h; r++ {
			// Half-rows covered by wick and body in this cell.
			upper, lower := float64(2*r), float64(2*r+1)
			wick := func(y float64) bool { return y >= math.Round(top) && y <= math.Round(bot) }
			body := func(y float64) bool { return y >= math.Round(bTop) && y <= math.Round(bBot) }
			var ch rune
			switch {
			case body(upper) && body(lower):
				ch = '┃'
			case body(upper):
				ch = '╿'
			case body(lower):
				ch = '╽'
			case wick(upper) && wick(lower):
				ch = '│'
			case wick(upper):
				ch = '╵'
			case wick(lower):
				ch = '╷'
			}
			if ch != 0 {
				for dx := 0; dx < max(1, cw-1); dx++ {
					g[r][x+dx] = cell{R: ch, Kind: kind}
				}
			}
		}
	}
	for oi, o := range ovs {
		for i, v := range o {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			r := int(math.Round(row(v))) / 2
			r = min(max(r, 0), h-1)
			x := i * cw
			for dx := 0; dx < cw && x+dx < plotW; dx++ {
				g[r][x+dx] = cell{R: '•', Kind: CellOverlay0 + cellKind(oi%4)}
			}
		}
	}
	return g, lo, hi
}

// Render draws the grid with styles and the price axis.
func (c CandleChart) Render(st kit.Styles) string {
	g, lo, hi := c.Grid()
	styleOf := func(k cellKind) *lipgloss.Style {
		switch k {
		case CellUp:
			return &st.Profit
		case CellDown:
			return &st.Loss
		case CellOverlay0:
			return &st.Accent
		case CellOverlay0 + 1:
			return &st.Warn
		case CellOverlay0 + 2:
			return &st.Assistant
		case CellOverlay0 + 3:
			return &st.Text
		}
		return nil
	}
	lines := make([]string, len(g))
	for r, rowCells := range g {
		var b strings.Builder
		// Group runs of the same kind so a row has few escape sequences.
		for i := 0; i < len(rowCells); {
			j := i
			var run strings.Builder
			for j < len(rowCells) && rowCells[j].Kind == rowCells[i].Kind {
				run.WriteRune(rowCells[j].R)
				j++
			}
			if s := styleOf(rowCells[i].Kind); s != nil {
				b.WriteString(s.Render(run.String()))
			} else {
				b.WriteString(run.String())
			}
			i = j
		}
		label := ""
		if hi > lo {
			switch r {
			case 0:
				label = priceLabel(hi)
			case len(g) / 2:
				label = priceLabel((hi + lo) / 2)
			case len(g) - 1:
				label = priceLabel(lo)
			}
		}
		lines[r] = b.String() + " " + st.Muted.Render(label)
	}
	return strings.Join(lines, "\n")
}

// priceLabel formats an axis price with precision suited to its size.
func priceLabel(v float64) string {
	switch a := math.Abs(v); {
	case a >= 10000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.2f", v)
	case a >= 1:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.5f", v)
}
