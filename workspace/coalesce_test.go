package workspace

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// plainOutput builds n lines as a pty delivers them (CR LF), mixing short,
// empty, exactly-width and wrapping lines, colours, UTF-8 (é, 日本, emoji),
// tabs and an in-line CR.
func plainOutput(n, width int, rng *rand.Rand) []byte {
	var b strings.Builder
	for i := range n {
		switch i % 11 {
		case 0:
			fmt.Fprintf(&b, "line %d plain", i)
		case 1:
			fmt.Fprintf(&b, "\x1b[31mred %d\x1b[0m and \x1b[1;32mgreen\x1b[m \x1b[44;38:2::1:2:3m bar \x1b[m", i)
		case 2:
		case 3:
			b.WriteString(strings.Repeat("w", width))
		case 4:
			b.WriteString(strings.Repeat("long-", width/5*2+3))
		case 5:
			fmt.Fprintf(&b, "café 日本語 %d 🙂 done", i)
		case 6:
			fmt.Fprintf(&b, "a\tb\tc %d", i)
		case 7:
			fmt.Fprintf(&b, "progress 10%%\rprogress 100%% %d", i)
		case 8:
			b.WriteString(strings.Repeat("日本", width/2+3))
		case 9:
			fmt.Fprintf(&b, "\x1b[38;5;%dmcolour %d", rng.IntN(255), i) // colour left set
		default:
			fmt.Fprintf(&b, "\x1b[0mreset %d %s", i, strings.Repeat("x", rng.IntN(width*2)))
		}
		b.WriteString("\r\n")
	}
	b.WriteString("partial \x1b[33mline")
	return []byte(b.String())
}

// emuStyled is the reference emulator's scrollback with attributes, as
// the ring would store and show it.
func emuStyled(e *vt.Emulator) []string {
	r := newScrollRing(1<<20, nil)
	for i, l := range e.Scrollback().Lines() {
		r.pushCells(l, e.Scrollback().Wrapped(i))
	}
	return r.styled()
}

// requireSameWrapped checks the soft-wrap flags of the scrollback and the
// screen rows are the reference emulator's.
func requireSameWrapped(t *testing.T, ref *vt.Emulator, term *Terminal) {
	t.Helper()
	term.mu.Lock()
	defer term.mu.Unlock()
	var want, got []bool
	for i := range ref.Scrollback().Len() {
		want = append(want, ref.Scrollback().Wrapped(i))
	}
	for i := range term.ring.len() {
		got = append(got, term.ring.at(i).wrapped)
	}
	require.Equal(t, want, got, "scrollback wrapped flags")
	for y := range ref.Height() {
		require.Equal(t, ref.LineWrapped(y), term.emu.LineWrapped(y), "row %d wrapped", y)
	}
}

func emuLines(e *vt.Emulator) []string {
	out := []string{}
	for _, l := range e.Scrollback().Lines() {
		out = append(out, strings.TrimRight(l.String(), " "))
	}
	return out
}

// TestCoalescedFeedMatchesEmulator feeds the same output in random chunks
// to a coalescing Terminal and to an unmodified x/vt emulator and checks
// screen, cursor and scrollback after every chunk.
func TestCoalescedFeedMatchesEmulator(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{40, 10}, {80, 24}, {23, 7}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			w, h := size[0], size[1]
			rng := rand.New(rand.NewPCG(1, uint64(w)))
			const sbCap = 300
			term, ref := withReference(t, w, h, sbCap)
			// Something on screen first so the head mixes with it.
			pre := []byte("$ prompt here\r\n\x1b[5;3Hold text at 5,3\x1b[1;1H")
			term.Feed(pre)
			_, _ = ref.Write(pre)
			data := plainOutput(3000, w, rng)
			coalesced := 0
			for len(data) > 0 {
				n := min(len(data), 1+rng.IntN(6000))
				chunk := data[:n]
				data = data[n:]
				before := term.ring.total
				term.Feed(chunk)
				_, _ = ref.Write(chunk)
				if term.ring.total-before > int64(2*h) {
					coalesced++
				}
				require.Equal(t, ref.String(), term.String(), "screen")
				rp := ref.CursorPosition()
				x, y, _ := term.Cursor()
				require.Equal(t, [2]int{rp.X, rp.Y}, [2]int{x, y}, "cursor")
				require.Equal(t, emuLines(ref), term.Scrollback(), "scrollback")
				require.Equal(t, emuStyled(ref), term.ScrollbackStyled(), "scrollback attributes")
				requireSameWrapped(t, ref, term)
			}
			require.Positive(t, coalesced, "some chunks took the coalesced path")
		})
	}
}

// TestCoalescedFeedThenGrowPullsHistory: the lines a coalesced batch put
// straight into the scrollback count as scrolled, so a taller screen pulls
// them back down as it does after a raw feed (and as tmux does).
func TestCoalescedFeedThenGrowPullsHistory(t *testing.T) {
	t.Parallel()
	const w, h = 40, 8
	term, ref := withReference(t, w, h, 300)
	data := []byte(numbered(200) + "$ ")
	before := term.ring.total
	term.Feed(data)
	_, _ = ref.Write(data)
	require.Greater(t, term.ring.total-before, int64(2*h), "the batch took the coalesced path")
	saved := len(term.Scrollback())
	term.Resize(w, 2*h)
	ref.Resize(w, 2*h)
	require.Equal(t, ref.String(), term.String(), "screen")
	require.Len(t, term.Scrollback(), saved-h, "h lines came back from the scrollback")
	rp := ref.CursorPosition()
	x, y, _ := term.Cursor()
	require.Equal(t, [2]int{rp.X, rp.Y}, [2]int{x, y}, "cursor")
	require.Equal(t, emuLines(ref), term.Scrollback(), "scrollback")
}

// TestCoalesceFallsBack: cursor addressing, alt screen and scroll regions
// are fed unchanged, and the result still matches.
func TestCoalesceFallsBack(t *testing.T) {
	t.Parallel()
	const w, h = 30, 6
	term, ref := withReference(t, w, h, 100)
	lines := plainOutput(40, w, rand.New(rand.NewPCG(2, 2)))
	for _, chunk := range [][]byte{
		[]byte("\x1b[2;5r"), lines, []byte("\x1b[r"), lines,
		[]byte("\x1b[?1049h"), lines, []byte("\x1b[?1049l"), lines,
		[]byte("\x1b[?6h"), lines, []byte("\x1b[?6l\x1b[4h"), lines, []byte("\x1b[4l"), lines,
	} {
		term.Feed(chunk)
		_, _ = ref.Write(chunk)
		require.Equal(t, ref.String(), term.String())
		require.Equal(t, emuLines(ref), term.Scrollback())
		require.Equal(t, emuStyled(ref), term.ScrollbackStyled())
	}
}

func TestScanner(t *testing.T) {
	t.Parallel()
	var s outScanner
	require.True(t, s.scan([]byte("abc\x1b[31;1mdef\r\n\t日本")))
	require.False(t, s.scan([]byte("\x1b[2J")))
	require.True(t, s.scan([]byte("\x1b[3")))
	require.Equal(t, scanCSI, s.state)
	require.True(t, s.scan([]byte("1m")))
	require.Equal(t, scanGround, s.state)
	require.False(t, s.scan([]byte("\x1b]0;title\x07")))
	require.Equal(t, scanGround, s.state)
	s.scan([]byte("\x1b[3;10r"))
	require.True(t, s.scrollRegion)
	s.scan([]byte("\x1b[r"))
	require.False(t, s.scrollRegion)
}

// withReference is a pane terminal and a bare emulator of the same size
// and scrollback, for feeding both and comparing.
func withReference(t *testing.T, w, h, scrollback int) (*Terminal, *vt.Emulator) {
	term := newTerminal(w, h, scrollback, nil, slog.Default())
	t.Cleanup(term.Close)
	ref := vt.NewEmulator(w, h)
	ref.SetScrollbackSize(scrollback)
	return term, ref
}
