package workspace

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// TestRingLinesComeBackAsCells: a stored line turned back into cells is
// the row it was stored from (up to the blanks trimmed at its end), and
// popping lines gives their bytes back to the budget.
func TestRingLinesComeBackAsCells(t *testing.T) {
	t.Parallel()
	budget := NewScrollBudget(1 << 20)
	r := newScrollRing(3, budget)
	red := uv.Style{Fg: ansi.Red}
	rows := []struct {
		cells   uv.Line
		wrapped bool
	}{
		{cellsOf("plain"), false},
		{cellsOf("a ", red, "漢字", uv.Style{}, " b  "), true}, // wrapped: its blanks stay
		{cellsOf(red, "red", uv.Style{}, "日本 x"), false},
		{cellsOf("newest"), true},
	}
	for _, row := range rows {
		r.pushCells(row.cells, row.wrapped)
	}
	require.Equal(t, 3, r.len())
	total := r.total
	width := ansi.StringWidth
	got := r.popNewest(2)
	require.Len(t, got, 2)
	require.Equal(t, rows[2].cells, r.cellsOf(&got[0], width))
	require.False(t, got[0].wrapped)
	require.Equal(t, rows[3].cells, r.cellsOf(&got[1], width))
	require.True(t, got[1].wrapped)
	require.Equal(t, total-2, r.total)
	require.Equal(t, 1, r.len())
	require.Equal(t, rows[1].cells, r.cellsOf(r.at(0), width), "the wrapped row kept its blanks")
	require.Equal(t, r.bytes, budget.Used())
	r.popNewest(5)
	require.Zero(t, r.len())
	require.Equal(t, int64(styleCost), budget.Used(), "red stays in the table until the drain that stores the lines again")
	r.reclaimStyles()
	require.Zero(t, budget.Used())
	r.pushPlain("again", false) // the ring takes lines after being emptied
	require.Equal(t, []string{"again"}, r.snapshot())
}

// TestResizeRewrapsHistory: a width change rewraps the newest scrollback
// lines with the screen, so widening brings history back onto the screen
// (as tmux), and the lines that stay in the scrollback are whole rows of
// the new width.
func TestResizeRewrapsHistory(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, "%02d%s\r\n", i, strings.Repeat("-", 28)) // 30 columns: two rows each
	}
	b.WriteString("$ ")
	term.Feed([]byte(b.String()))
	require.Equal(t, 16, len(term.Scrollback()), "21 rows, 5 on the screen")
	term.Resize(40, 5)
	require.Equal(t, []string{
		"06----------------------------",
		"07----------------------------",
		"08----------------------------",
		"09----------------------------",
		"$",
	}, screenRows(term))
	x, y, _ := term.Cursor()
	require.Equal(t, [2]int{2, 4}, [2]int{x, y})
	sb := term.Scrollback()
	require.Equal(t, "05----------------------------", sb[len(sb)-1])
	term.Resize(25, 5) // 30 columns: 25 and 5
	require.Equal(t, []string{"08-----------------------", "-----", "09-----------------------", "-----", "$"}, screenRows(term))
	// Wrapped: the scrollback lines, then one flag per screen row (what
	// Render shows), so the viewer can join them on copy.
	w := term.Wrapped()
	require.Len(t, w, len(term.Scrollback())+len(strings.Split(term.Render(), "\n")))
	require.Equal(t, []bool{true, false, true, false, true, false, false}, w[len(w)-7:])
	sb = term.Scrollback()
	require.Equal(t, []string{"07-----------------------", "-----"}, sb[len(sb)-2:])
}

func screenRows(term *Terminal) []string {
	lines := strings.Split(term.String(), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}

// TestClearSavesRowsAsTmux: ED 2 saves the screen down to its last row
// with content, blank rows included, as tmux does: a row that wrapped onto
// a blank row keeps its flag and its continuation.
func TestClearSavesRowsAsTmux(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 6, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.Feed([]byte(strings.Repeat("a", 20) + strings.Repeat(" ", 20) + "\r\n\r\nnext\r\n" + strings.Repeat("b", 25) + "\r\n\x1b[2J"))
	require.Equal(t, []string{strings.Repeat("a", 20), "", "", "next", strings.Repeat("b", 20), "bbbbb"}, term.Scrollback())
	require.Equal(t, []bool{true, false, false, false, true, false}, term.Wrapped()[:6])
}
