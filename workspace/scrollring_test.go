package workspace

import (
	"fmt"
	"image/color"
	"log/slog"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// cellsOf lays s out as the emulator would (one style per part).
func cellsOf(parts ...any) uv.Line {
	var l uv.Line
	var st uv.Style
	for _, p := range parts {
		switch p := p.(type) {
		case uv.Style:
			st = p
		case string:
			for _, g := range strings.Split(p, "") {
				w := ansi.StringWidth(g)
				l = append(l, uv.Cell{Content: g, Width: w, Style: st})
				if w == 2 {
					l = append(l, uv.Cell{})
				}
			}
		}
	}
	return l
}

func TestScrollRingStoresTextAndAttributeRuns(t *testing.T) {
	t.Parallel()
	red := uv.Style{Fg: ansi.Red}
	bar := uv.Style{Bg: ansi.Blue}
	bold := uv.Style{Attrs: uv.AttrBold, Fg: color.RGBA{1, 2, 3, 255}}
	cases := []struct {
		name   string
		cells  uv.Line
		text   string
		runs   int // attribute runs stored (0: none)
		plain  string
		styled string
	}{
		{"plain, trailing blanks trimmed", cellsOf("hello   "), "hello", 0, "hello", "hello"},
		{"one red word", cellsOf("a ", red, "red", uv.Style{}, " b  "), "a red b", 3, "a red b", "a \x1b[31mred\x1b[m b"},
		{"a coloured bar's trailing blanks are kept", cellsOf("x", bar, "    "), "x    ", 2, "x", "x\x1b[44m    \x1b[m"},
		{"wide characters", cellsOf(bold, "日本", uv.Style{}, " ok"), "日本 ok", 2, "日本 ok", "\x1b[1;38;2;1;2;3m日本\x1b[m ok"},
		{"empty", cellsOf("   "), "", 0, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newScrollRing(10, nil)
			r.pushCells(tc.cells, false)
			l := r.at(0)
			require.Equal(t, tc.text, l.text)
			require.Len(t, l.runs, tc.runs)
			require.Equal(t, []string{tc.plain}, r.snapshot())
			require.Equal(t, []string{tc.styled}, r.styled())
			require.Equal(t, l.cost()+int64(r.styles.live)*styleCost, r.bytes, "the line and the styles it added to the table")
		})
	}
}

func TestScrollRingKeepsTheNewestLines(t *testing.T) {
	t.Parallel()
	r := newScrollRing(3, nil)
	var want int64
	for i := range 5 {
		r.pushPlain(fmt.Sprintf("line %d", i), false)
	}
	require.Equal(t, []string{"line 2", "line 3", "line 4"}, r.snapshot())
	for i := range r.len() {
		want += r.at(i).cost()
	}
	require.Equal(t, want, r.bytes, "bytes follow the lines held")
	require.EqualValues(t, 5, r.total)
}

// Sessions share one budget: past it, the oldest lines of any session go
// first, and each session's newest lines stay.
func TestScrollBudgetTrimsTheOldestAcrossSessions(t *testing.T) {
	t.Parallel()
	const limit = 40 << 10
	b := NewScrollBudget(limit)
	a := newTerminal(40, 5, 10000, b, slog.New(slog.DiscardHandler))
	defer a.Close()
	c := newTerminal(40, 5, 10000, b, slog.New(slog.DiscardHandler))
	defer c.Close()
	feed := func(term *Terminal, prefix string, n int) {
		for i := range n {
			term.Feed(fmt.Appendf(nil, "\x1b[32m%s-%04d\x1b[m padding padding\r\n", prefix, i))
		}
	}
	feed(a, "a", 400) // ~40 KiB: about the whole budget
	require.LessOrEqual(t, b.Used(), int64(limit))
	aBefore := a.Scrollback()
	require.Equal(t, "a-0000 padding padding", aBefore[0], "under the budget nothing is trimmed")
	feed(c, "c", 300)
	require.LessOrEqual(t, b.Used(), int64(limit), "the budget holds")
	aAfter, cAfter := a.Scrollback(), c.Scrollback()
	require.Equal(t, "c-0000 padding padding", cAfter[0], "the newer session keeps its oldest line: a's older lines went first")
	require.Less(t, len(aAfter), len(aBefore), "the oldest session was trimmed")
	require.Equal(t, aBefore[len(aBefore)-1], aAfter[len(aAfter)-1], "from its oldest end")
	require.Equal(t, "\x1b[32mc-0295\x1b[m padding padding", c.ScrollbackStyled()[len(cAfter)-1], "attributes kept")

	var held int64
	for _, term := range []*Terminal{a, c} {
		term.mu.Lock()
		held += term.ring.bytes
		term.mu.Unlock()
	}
	require.Equal(t, held, b.Used(), "the budget counts exactly what the rings hold")
	c.Close()
	a.mu.Lock()
	held = a.ring.bytes
	a.mu.Unlock()
	require.Equal(t, held, b.Used(), "a closed session gives its bytes back")

	feed(a, "a2", 50) // a trimmed ring grows again in order
	got := a.Scrollback()
	require.Equal(t, "a2-0045 padding padding", got[len(got)-1], "the last 4 are on the screen")
	require.Equal(t, "a2-0000 padding padding", got[len(got)-46])
}

// ED 3 (what `clear` sends after erasing the screen) erases the saved
// lines, as in tmux; lines that scroll off after it are kept.
func TestEraseSavedLinesClearsTheScrollback(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	for i := range 10 {
		term.Feed(fmt.Appendf(nil, "old-%d\r\n", i))
	}
	require.Contains(t, term.Scrollback(), "old-0")
	term.Feed([]byte("\x1b[H\x1b[2J\x1b[3Jnew-0\r\nnew-1\r\nnew-2\r\nnew-3\r\nnew-4\r\nnew-5\r\n"))
	require.Equal(t, []string{"new-0", "new-1"}, term.Scrollback(), "only what scrolled off after the erase")
}
