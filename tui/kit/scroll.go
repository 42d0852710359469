package kit

import "fmt"

// Scrolling a view taller than its pane: the pane keeps Top, the first
// content line shown, moves it with its keys (ScrollBy, clamped with
// MaxTop) and draws Window. Where lines are hidden, the window's first row
// reads "↑ N more" and its last "↓ N more" (as the Settings forms do), so
// a person sees there is more and which way it lies.

// MaxTop is the largest useful Top for n lines shown in rows: the one
// that shows the last line on the last row.
func MaxTop(n, rows int) int { return max(0, n-max(1, rows)) }

// ScrollBy is top moved by delta lines and clamped to [0, MaxTop(n, rows)].
func ScrollBy(top, delta, n, rows int) int {
	return max(0, min(top+delta, MaxTop(n, rows)))
}

// Window is exactly rows lines of lines from top (clamped): when lines are
// hidden above, the first row is "↑ N more" instead of the line under
// it, and when lines are hidden below, the last row is "↓ N more". Each
// step of top reveals one new line. With fewer than 3 rows there is no
// room for markers and the lines are shown plain.
func Window(st Styles, lines []string, top, rows int) []string {
	if rows <= 0 {
		return nil
	}
	n := len(lines)
	if n <= rows {
		return FitLines(lines, rows)
	}
	top = max(0, min(top, MaxTop(n, rows)))
	out := append([]string(nil), lines[top:top+rows]...)
	if rows < 3 {
		return out
	}
	if top > 0 {
		out[0] = st.Muted.Render(fmt.Sprintf("↑ %d more", top+1))
	}
	if below := n - (top + rows); below > 0 {
		out[rows-1] = st.Muted.Render(fmt.Sprintf("↓ %d more", below+1))
	}
	return out
}
