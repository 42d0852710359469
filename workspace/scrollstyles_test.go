package workspace

import (
	"fmt"
	"image/color"
	"io"
	"log/slog"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func rgb(n int) color.RGBA { return color.RGBA{uint8(n), uint8(n >> 8), uint8(n >> 16), 255} }

// styleFamilies make a distinct style of each n, stored inline or in the
// table.
var styleFamilies = []struct {
	name   string
	inline bool
	style  func(n int) uv.Style
}{
	{"24-bit foreground (inline)", true, func(n int) uv.Style { return uv.Style{Fg: rgb(n)} }},
	{"24-bit background, bold italic (inline)", true, func(n int) uv.Style {
		return uv.Style{Bg: rgb(n), Attrs: uv.AttrBold | uv.AttrItalic}
	}},
	{"24-bit foreground and background (table)", false, func(n int) uv.Style {
		return uv.Style{Fg: rgb(n), Bg: rgb(n * 7)}
	}},
	{"24-bit foreground, curly underline (table)", false, func(n int) uv.Style {
		return uv.Style{Fg: rgb(n), Underline: uv.UnderlineCurly}
	}},
	{"256-colour pairs, strikethrough (table)", false, func(n int) uv.Style {
		return uv.Style{Fg: ansi.IndexedColor(n), Bg: ansi.IndexedColor(n >> 8), Attrs: uv.AttrStrikethrough | uint8(n>>16)}
	}},
	{"16 colours, coloured underline (table)", false, func(n int) uv.Style {
		return uv.Style{Fg: ansi.BasicColor(n % 16), UnderlineColor: rgb(n / 16), Underline: uv.UnderlineDouble}
	}},
	{"CMYK foreground (table, whole)", false, func(n int) uv.Style {
		return uv.Style{Fg: color.CMYK{C: uint8(n), M: uint8(n >> 8), Y: uint8(n >> 16)}, Attrs: uv.AttrFaint}
	}},
}

// wantRuns is the line pushStyledLine(i) wrote, as text and styles.
type styledRun struct {
	text  string
	style uv.Style
}

// pushStyledLine pushes line i: perLine runs, each in style(n) for the
// next n.
// pushStyledLines pushes n lines of pushStyledLine, reclaiming styles
// after each as the history sink does, and returns what each held.
func pushStyledLines(r *scrollRing, style func(int) uv.Style, n, perLine int) [][]styledRun {
	var written [][]styledRun
	for i := 0; i < n; i++ {
		written = append(written, pushStyledLine(r, style, i, perLine))
		r.reclaimStyles()
	}
	return written
}

func pushStyledLine(r *scrollRing, style func(int) uv.Style, i, perLine int) []styledRun {
	var row uv.Line
	var want []styledRun
	for j := 0; j < perLine; j++ {
		st := style(i*perLine + j + 1)
		text := fmt.Sprintf("%02d", j)
		row = append(row, cellsOf(st, text)...)
		want = append(want, styledRun{text, st})
	}
	r.pushCells(row, false)
	return want
}

// requireHeldStyles checks every held line's runs against what was
// written, and the budget's count of the ring's bytes.
func requireHeldStyles(t *testing.T, r *scrollRing, written [][]styledRun, first int) {
	t.Helper()
	var bytes int64
	for i := 0; i < r.len(); i++ {
		l := r.at(i)
		want := written[first+i]
		require.Len(t, l.runs, len(want), "line %d", first+i)
		off := 0
		for j, run := range l.runs {
			got := r.styles.style(run.style)
			require.Equal(t, want[j].text, l.text[off:off+int(run.n)], "line %d run %d", first+i, j)
			require.True(t, got.Equal(&want[j].style), "line %d run %d: %v, wrote %v", first+i, j, got, want[j].style)
			off += int(run.n)
		}
		bytes += l.cost()
	}
	require.Equal(t, bytes+int64(r.styles.live)*styleCost, r.bytes, "the ring counts its lines and its table")
	styled := r.styled()
	for i, s := range styled {
		var b strings.Builder
		for _, run := range written[first+i] {
			b.WriteString(run.style.String() + run.text + ansi.ResetStyle)
		}
		require.Equal(t, b.String(), s, "line %d as SGR", first+i)
	}
}

// A ring keeps the colours of every line it holds, however many distinct
// styles they have: here 90,000 live ones (the table held 65,536, and
// lines scrolled off past it lost their colours), through 144,000 pushed.
func TestScrollRingKeepsEveryStyleOfTheLinesItHolds(t *testing.T) {
	t.Parallel()
	const ringLines, perLine, lines = 5000, 18, 8000
	for _, fam := range styleFamilies {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			r := newScrollRing(ringLines, nil)
			written := pushStyledLines(r, fam.style, lines, perLine)
			require.Equal(t, ringLines, r.len())
			requireHeldStyles(t, r, written, lines-ringLines)
			require.Zero(t, r.renumbers, "a table in use is never walked (walking it at every push froze a session for 80 s)")
			if fam.inline {
				require.Zero(t, r.styles.live, "inline styles take no table entry")
			} else {
				require.Equal(t, ringLines*perLine, r.styles.live, "the table holds the styles of the lines held, no more")
				require.Less(t, len(r.styles.list), ringLines*perLine+2*perLine, "ids of lines gone are reused")
			}
		})
	}
}

// A ring so small that the lines leaving it free the ids the next ones
// take: the table stays as small as the ring, every line keeps its
// colours.
func TestScrollRingSmallRingReusesStyleIDs(t *testing.T) {
	t.Parallel()
	const ringLines, perLine, lines = 4, 3, 25000 // 75,000 styles pushed
	for _, fam := range styleFamilies {
		t.Run(fam.name, func(t *testing.T) {
			t.Parallel()
			r := newScrollRing(ringLines, nil)
			written := pushStyledLines(r, fam.style, lines, perLine)
			requireHeldStyles(t, r, written, lines-ringLines)
			require.LessOrEqual(t, len(r.styles.list), 1+(ringLines+1)*perLine, "ids are reused")
		})
	}
}

// Without a reclaim between pushes (the coalescer pushes a batch of rows
// at once) nothing is freed early: a row can use an id whose last line
// just left.
func TestScrollRingStyleFreedOnlyBetweenPushes(t *testing.T) {
	t.Parallel()
	r := newScrollRing(1, nil)
	red := uv.Style{Fg: ansi.Red, Bg: ansi.Blue}
	id := r.styleID(&red)
	r.push("a", []attrRun{{1, id}}, false)
	r.reclaimStyles()
	// The next row was laid out with the same id; pushing the row before
	// it evicts the only line that used it.
	r.push("b", nil, false)
	r.push("c", []attrRun{{1, id}}, false)
	r.reclaimStyles()
	require.Equal(t, []string{"\x1b[31;44mc\x1b[m"}, r.styled())
	require.Equal(t, 1, r.styles.live)
	r.push("d", nil, false)
	r.reclaimStyles()
	require.Zero(t, r.styles.live, "freed once no line uses it")
	require.Equal(t, int64(r.at(0).cost()), r.bytes, "and given back to the budget")
}

// The SGR cache names ids; one that was freed and given to another style
// since is not taken.
func TestScrollRingSGRCacheSkipsFreedIDs(t *testing.T) {
	t.Parallel()
	r := newScrollRing(1, nil)
	var pen uv.Style
	a := r.sgr(0, []byte("31;44"), &pen)
	r.push("a", []attrRun{{1, a}}, false)
	r.push("b", nil, false) // a's line leaves
	r.reclaimStyles()
	pen = uv.Style{}
	b := r.sgr(0, []byte("32;45"), &pen)
	require.Equal(t, a, b, "the freed id is reused")
	pen = uv.Style{}
	got := r.sgr(0, []byte("31;44"), &pen)
	want := uv.Style{Fg: ansi.Red, Bg: ansi.Blue}
	require.True(t, pen.Equal(&want), "pen %v", pen)
	st := r.styles.style(got)
	require.True(t, st.Equal(&want), "id %d is %v", got, st)
	require.NotEqual(t, b, got)

	// A cycle of a few colours is parsed once per colour.
	pen = uv.Style{}
	again := r.sgr(0, []byte("32;45"), &pen)
	require.Equal(t, b, again)
	require.Len(t, r.styles.sgr, 2, "31;44 from the empty style is one entry")
}

// A table that held a flood of styles is renumbered once those lines left
// and most of it is free, so its memory goes back with them; the lines
// still held keep their colours.
func TestScrollRingStyleTableShrinks(t *testing.T) {
	t.Parallel()
	const ringLines = 6000
	fam := styleFamilies[2] // table styles
	r := newScrollRing(ringLines, nil)
	var written [][]styledRun
	for i := 0; i < 5000; i++ {
		written = append(written, pushStyledLine(r, fam.style, i, 2))
		r.reclaimStyles()
	}
	green := uv.Style{Fg: ansi.Green, Attrs: uv.AttrConceal}
	for i := 0; i < 5000; i++ {
		r.pushCells(cellsOf(green, "ok"), false)
		written = append(written, []styledRun{{"ok", green}})
		r.reclaimStyles()
	}
	require.Positive(t, r.renumbers)
	require.Less(t, len(r.styles.list), shrinkAt, "10,001 ids were in use; at most shrinkAt stay")
	requireHeldStyles(t, r, written, len(written)-ringLines)
}

// The budget trims lines and gets their styles' bytes back.
func TestScrollRingTrimFreesStyles(t *testing.T) {
	t.Parallel()
	b := NewScrollBudget(1 << 30)
	r := newScrollRing(100, b)
	for i := 0; i < 50; i++ {
		pushStyledLine(r, styleFamilies[2].style, i, 4)
		r.reclaimStyles()
	}
	require.Equal(t, 200, r.styles.live)
	require.Equal(t, r.bytes, b.Used())
	freed := r.trimOldest(30, 0, 1<<30)
	require.Equal(t, 80, r.styles.live)
	require.Equal(t, r.bytes, b.Used())
	var held int64
	for i := 0; i < r.len(); i++ {
		held += r.at(i).cost()
	}
	require.Equal(t, held+80*styleCost, r.bytes)
	require.Positive(t, freed)
	r.clear()
	require.Zero(t, b.Used())
}

// A session that prints a 24-bit gradient (8000 lines of 20 colours no
// other run has: 160,000 styles, the black-box report's flood) keeps the
// colours of every line in its scrollback, fed in big batches (the
// coalescer) or small ones (the emulator and its history sink). The table
// held 65,536 styles and lines that scrolled off past it lost theirs.
func TestGradientFloodKeepsEveryColour(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		lines int
		sgr   func(n int) string
	}{
		{"foreground", 8000, func(n int) string {
			c := rgb(n)
			return fmt.Sprintf("38;2;%d;%d;%d", c.R, c.G, c.B)
		}},
		{"foreground and background", 4000, func(n int) string {
			c, d := rgb(n), rgb(n*7)
			return fmt.Sprintf("38;2;%d;%d;%d;48;2;%d;%d;%d", c.R, c.G, c.B, d.R, d.G, d.B)
		}},
	}
	for _, tc := range cases {
		var flood []byte
		var want []string
		n := 0
		for i := 0; i < tc.lines; i++ {
			var line strings.Builder
			for j := 0; j < 20; j++ {
				n++
				seq := "\x1b[" + tc.sgr(n) + "m"
				flood = fmt.Appendf(flood, "%sg%03d", seq, j)
				line.WriteString(fmt.Sprintf("%sg%03d\x1b[m", seq, j))
			}
			flood = append(flood, "\x1b[m\r\n"...)
			want = append(want, line.String())
		}
		for _, batch := range []int{64 << 10, 2 << 10} {
			t.Run(fmt.Sprintf("%s/batch=%dKiB", tc.name, batch>>10), func(t *testing.T) {
				t.Parallel()
				term := newTerminal(116, 33, DefaultScrollbackLines, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
				defer term.Close()
				for p := flood; len(p) > 0; {
					k := min(len(p), batch)
					term.Feed(p[:k])
					p = p[k:]
				}
				got := term.ScrollbackStyled()
				require.Len(t, got, tc.lines-32, "all but the screen's last 32 lines and the cursor's row")
				for i, s := range got {
					require.Equal(t, want[i], s, "line %d", i)
				}
			})
		}
	}
}

// A width change moves the newest ring lines back into the emulator and
// stores them again (reflow.go): their table styles stay in between, and
// none is left behind unused.
func TestResizeKeepsTableStyles(t *testing.T) {
	t.Parallel()
	term := newTerminal(40, 5, 100, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer term.Close()
	var want []string
	for i := 0; i < 30; i++ {
		seq := fmt.Sprintf("\x1b[%d;%dm", 31+i%7, 41+i/7)
		term.Feed(fmt.Appendf(nil, "%sline-%02d\x1b[m\r\n", seq, i))
		want = append(want, fmt.Sprintf("%sline-%02d\x1b[m", seq, i))
	}
	before := term.ScrollbackStyled()
	require.Equal(t, want[:len(before)], before)
	term.Resize(30, 5)
	term.Resize(50, 8)
	got := term.ScrollbackStyled()
	require.Equal(t, want[:len(got)], got)
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Equal(t, len(got), term.ring.styles.live, "one style per line held, no more")
}
