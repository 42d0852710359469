package workspace

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// Scrolling moves whole rows (x/vt patch): the rows keep their text and
// order, the lines scrolled off the whole screen reach the scrollback in
// order, and the new bottom row is blank in the current background colour
// (as in xterm and tmux). Inside a scroll region only the region moves, and
// the lines scrolled off its top reach the scrollback, as in tmux 3.3a
// (grid_scroll_history_region; `capture-pane -S` of the same bytes shows
// line 0 to line 3 above the screen).
func TestScrollMovesRowsIntact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		setup  string
		lines  int
		screen []string
		sb     []string
	}{
		{"full screen", "", 8, []string{"line 3", "line 4", "line 5", "line 6", "line 7"}, []string{"line 0", "line 1", "line 2"}},
		// Rows 2-4 scroll; 1 and 5 stay. The region's scrolled lines
		// reach the scrollback.
		{"region", "\x1b[2;4r\x1b[2;1H", 6, []string{"top", "line 3", "line 4", "line 5", "bottom"}, []string{"line 0", "line 1", "line 2", "line 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
			defer term.Close()
			var b strings.Builder
			if tc.setup != "" {
				b.WriteString("\x1b[1;1Htop\x1b[5;1Hbottom" + tc.setup)
			}
			for i := range tc.lines {
				if i > 0 {
					b.WriteString("\r\n")
				}
				fmt.Fprintf(&b, "line %d", i)
			}
			// One more line feed with a blue background: the new row is
			// blank and blue.
			b.WriteString("\x1b[44m\r\n\x1b[m")
			term.Feed([]byte(b.String()))
			rows := strings.Split(term.String(), "\n")
			for i := range rows {
				rows[i] = strings.TrimRight(rows[i], " ")
			}
			want := append(append([]string{}, tc.screen[1:]...), "")
			blank := 4
			if tc.setup != "" {
				want = []string{tc.screen[0], tc.screen[2], tc.screen[3], "", tc.screen[4]}
				blank = 3
			}
			require.Equal(t, want, rows)
			for x := range 20 {
				c := term.emu.CellAt(x, blank)
				require.Equal(t, " ", c.Content)
				require.Equal(t, ansi.Blue, c.Style.Bg, "cell %d of the new row", x)
			}
			if tc.setup == "" {
				require.Equal(t, append(tc.sb, tc.screen[0]), term.Scrollback())
			} else {
				require.Equal(t, tc.sb, term.Scrollback()) // as tmux's history
			}
		})
	}
}

// Lines scrolled off one write at a time (the emulator's scrollback is
// drained after each write and its storage reused for the next lines) all
// reach the scrollback intact, in order.
func TestScrollbackOneLinePerWrite(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	var want []string
	for i := range 12 {
		term.Feed(fmt.Appendf(nil, "\x1b[3%dmline %d%s\r\n", i%8, i, strings.Repeat("x", i)))
		if i >= 4 { // the fifth line feed scrolls the first line off
			want = append(want, fmt.Sprintf("line %d%s", i-4, strings.Repeat("x", i-4)))
		}
	}
	require.Equal(t, want, term.Scrollback())
}
