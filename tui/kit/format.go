package kit

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// PnlPad colours a P&L value after right-aligning it to width cells, so
// table columns stay aligned despite the escape codes.
func PnlPad(st *Styles, d decimal.Decimal, width int) string {
	s := Money(d)
	if d.Sign() > 0 {
		s = "+" + s
	}
	s = fmt.Sprintf("%*s", width, s)
	switch d.Sign() {
	case 1:
		return st.Profit.Render(s)
	case -1:
		return st.Loss.Render(s)
	}
	return s
}

func Money(d decimal.Decimal) string { return d.StringFixed(2) }

// SideBySide joins two blocks in columns, the left padded to lw.
func SideBySide(left, right string, lw int) string {
	l, r := strings.Split(left, "\n"), strings.Split(right, "\n")
	n := max(len(l), len(r))
	out := make([]string, n)
	for i := 0; i < n; i++ {
		var a, b string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			b = r[i]
		}
		out[i] = Pad(ansi.Truncate(a, lw, ""), lw, false) + b
	}
	return strings.Join(out, "\n")
}
