package mdterm

import (
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"
	extast "github.com/yuin/goldmark/extension/ast"
)

// renderTable draws header and rows with a rounded border, cells padded by
// one space and aligned as the Markdown asked; a table wider than width is
// narrowed (cells wrap).
func renderTable(header []string, rows [][]string, align []extast.Alignment, width int, border, head lipgloss.Style) string {
	natural := 1
	cols := len(header)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	measure := func(cells []string) {
		for i, c := range cells {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	measure(header)
	for _, r := range rows {
		measure(r)
	}
	for _, w := range widths {
		natural += w + 3 // padding and one border
	}
	t := table.New().Border(lipgloss.RoundedBorder()).BorderStyle(border).Headers(header...).Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			st := lipgloss.NewStyle().Padding(0, 1)
			if col < len(align) {
				switch align[col] {
				case extast.AlignRight:
					st = st.Align(lipgloss.Right)
				case extast.AlignCenter:
					st = st.Align(lipgloss.Center)
				}
			}
			if row == table.HeaderRow {
				st = st.Inherit(head)
			}
			return st
		})
	if natural > width {
		t = t.Width(width)
	}
	return t.String()
}
