package workspace

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Minimal byte sequences on which the pane's emulator (x/vt, patched in
// third_party/vt; each patch is listed in third_party/vt/ALICE.md) differed
// from tmux 3.3a. want is what tmux showed for the stream in a 20×5 pane, in
// the screen corpus's capture format (see tmuxCapture: "cols rows cursorX
// cursorY", then capture-pane -p -e -N), taken from real tmux with the
// replay of scripts/terminal/record.sh.
var emulatorTmuxCases = []struct {
	name, stream, want string
}{{
	// Mode 47 was ignored: the text went onto the main screen.
	name:   "mode 47 is the alternate screen, as 1047",
	stream: "hello\x1b[?47hALT\r\nmore",
	want:   "20 5 4 1\n     ALT\nmore\n\n\n\n",
}, {
	name:   "leaving mode 47 shows the main screen again, the cursor where it was",
	stream: "hello\x1b[?47hALT\x1b[?47lX",
	want:   "20 5 9 0\nhello   X\n\n\n\n\n",
}, {
	// ED 1 erased the whole cursor row (gen-25).
	name:   "ED 1 erases the cursor row up to the cursor only",
	stream: "\x1b[2;1Hxxxxxxxxxx\x1b[2;3H\x1b[1J",
	want:   "20 5 2 1\n\n   xxxxxxx\n\n\n\n",
}, {
	// tmux's cursor is past the margin while a wrap is pending.
	name:   "ED 0 with a wrap pending keeps the last column",
	stream: "\x1b[2;1Hzz\x1b[1;1Habcdefghijklmnopqrst\x1b[J",
	want:   "20 5 20 0\nabcdefghijklmnopqrst\n\n\n\n\n",
}, {
	// top ends each full-width row with SGR 0 and EL 0 (top-start).
	name:   "EL 0 with a wrap pending keeps the last column and its attributes",
	stream: "\x1b[1mabcdefghijklmnopqrst\x1b[m\x1b[K",
	want:   "20 5 20 0\n\x1b[1mabcdefghijklmnopqrst\n\n\n\n\n",
}, {
	// gen-38: the wide character was written over the last column.
	name:   "autowrap off: a wide character that does not fit is dropped",
	stream: "abcdefghijklmnopqrs\x1b[?7lXé中",
	want:   "20 5 19 0\nabcdefghijklmnopqrsé\n\n\n\n\n",
}, {
	name:   "autowrap off with a wrap pending: characters are dropped, the wrap stays",
	stream: "abcdefghijklmnopqrst\x1b[?7lXY\x1b[?7hZ",
	want:   "20 5 1 1\nabcdefghijklmnopqrst\nZ\n\n\n\n",
}, {
	// gen-76 (seed 76 of the generator): the restored cursor kept the wrap.
	name:   "DECRC ends a pending wrap",
	stream: "\x1b[2;3H\x1b7\x1b[1;1Habcdefghijklmnopqrst\x1b8XY",
	want:   "20 5 4 1\nabcdefghijklmnopqrst\n  XY\n\n\n\n",
}, {
	// seed 119: LF, VT, FF and IND leave tmux's cursor past the margin.
	name:   "LF keeps a pending wrap",
	stream: "abcdefghijklmnopqrst\nX",
	want:   "20 5 1 2\nabcdefghijklmnopqrst\n\nX\n\n\n",
}, {
	name:   "RI keeps a pending wrap",
	stream: "\n\nabcdefghijklmnopqrst\x1bMX",
	want:   "20 5 1 2\n\n\nXbcdefghijklmnopqrst\n\n\n",
}, {
	// gen-25: leaving the alternate screen (even when not on it) puts
	// tmux's cursor on the last column.
	name:   "1049l ends a pending wrap",
	stream: "abcdefghijklmnopqrst\x1b[?1049lX",
	want:   "20 5 20 0\nabcdefghijklmnopqrsX\n\n\n\n\n",
}, {
	name:   "DECRC on the alternate screen restores what DECSC saved on the main one",
	stream: "\x1b[3;5H\x1b7\x1b[?1049h\x1b[1;1Hab\x1b8X",
	want:   "20 5 5 2\nab\n\n    X\n\n\n",
}, {
	name:   "1049l on the main screen restores the cursor 1049h saved",
	stream: "\x1b[3;5H\x1b[?1049h\x1b[1;1Hab\x1b[?1049l\x1b[5;1H\x1b[?1049lX",
	want:   "20 5 5 2\n\n\n    X\n\n\n",
}, {
	name:   "1047l leaves the cursor where it was on the alternate screen",
	stream: "\x1b[3;5H\x1b[?1047h\x1b[1;1Hab\x1b[?1047lX",
	want:   "20 5 3 0\n  X\n\n\n\n\n",
}, {
	name:   "CSI u restores what CSI s saved",
	stream: "\x1b[3;5H\x1b[s\x1b[1;1Hab\x1b[uX",
	want:   "20 5 5 2\nab\n\n    X\n\n\n",
}, {
	// seed 194: one scroll region for both screens.
	name:   "the scroll region carries into the alternate screen",
	stream: "\x1b[4;5r\x1b[?1049h\x1b[5;1Habc\x1b[4;1Hxyz\x1b[1;1Htop\x1b[S",
	want:   "20 5 3 0\ntop\n\n\nabc\n\n",
}, {
	name:   "the scroll region set on the alternate screen stays after it",
	stream: "\x1b[?1049h\x1b[4;5r\x1b[?1049l\x1b[5;1Habc\x1b[4;1Hxyz\x1b[1;1Htop\x1b[S",
	want:   "20 5 3 0\ntop\n\n\nabc\n\n",
}, {
	// seed 309: CUD from above the region stops at its bottom margin.
	name:   "CUD from above the scroll region stops at its bottom",
	stream: "\x1b[3;4r\x1b[1;1H\x1b[8Bx",
	want:   "20 5 1 3\n\n\n\nx\n\n",
}, {
	name:   "CUU from below the scroll region stops at its top",
	stream: "\x1b[3;4r\x1b[5;1H\x1b[8Ax",
	want:   "20 5 1 2\n\n\nx\n\n\n",
}, {
	// tmux's cursor is past the margin: CUB 1 lands on the last column.
	name:   "CUB with a wrap pending counts from past the margin",
	stream: "abcdefghijklmnopqrst\x1b[Dx",
	want:   "20 5 20 0\nabcdefghijklmnopqrsx\n\n\n\n\n",
}, {
	name:   "CUF with a wrap pending ends it on the last column",
	stream: "abcdefghijklmnopqrst\x1b[2C\x1b[2Dx",
	want:   "20 5 18 0\nabcdefghijklmnopqxst\n\n\n\n\n",
}, {
	// seed 352: every wide character right of the deleted cells vanished.
	name:   "DCH moves wide characters intact",
	stream: "ab中文b\r\x1b[2Px",
	want:   "20 5 1 0\nx 文b             \n\n\n\n\n",
}, {
	name:   "ICH moves wide characters intact",
	stream: "ab中文b\r\x1b[2@x",
	want:   "20 5 1 0\nx ab中文b           \n\n\n\n\n",
}, {
	name:   "DCH and ICH fill with the pen's background",
	stream: "\x1b[44mab中文b\r\x1b[2P\x1b[2@",
	want:   "20 5 0 0\n\x1b[44m  中文b\x1b[49m             \n\n\n\n\n",
}, {
	// seeds 203, 722, 822, 838, 975: tmux's grid keeps the rows when IL
	// below the scroll region would push every row from the cursor down
	// off the screen (grid_view_insert_lines moves none and wipes none).
	name:   "IL below the region reaching the bottom leaves the rows",
	stream: "\x1b[2;3r\x1b[4;1Habc\r\n\x1b[5;1Hdef\x1b[4;2H\x1b[2L",
	want:   "20 5 1 3\n\n\n\nabc\ndef\n",
}, {
	name:   "IL below the region moves the rows that stay",
	stream: "\x1b[2;3r\x1b[4;1Habc\r\n\x1b[5;1Hdef\x1b[4;2H\x1b[L",
	want:   "20 5 1 3\n\n\n\n\nabc\n",
}, {
	// Insert mode (IRM) was not implemented: characters overwrote.
	name:   "insert mode makes room for each character",
	stream: "\x1b[3G\x1b[4habc\r\x1b[2@Z\x1b[4l",
	want:   "20 5 1 0\nZ    abc            \n\n\n\n\n",
}, {
	name:   "insert mode makes room before a wide character wraps",
	stream: "abcdefghijklmnopqrs\x1b[4h中X\x1b[4l",
	want:   "20 5 3 1\nabcdefghijklmnopqrs\n中X                 \n\n\n\n",
}, {
	name:   "setting origin mode homes the cursor to the region's top",
	stream: "\x1b[2;4r\x1b[3;3H\x1b[?6hX",
	want:   "20 5 1 1\n\nX\n\n\n\n",
}, {
	name:   "resetting origin mode homes the cursor",
	stream: "\x1b[2;4r\x1b[?6h\x1b[1;1HX\x1b[?6lY",
	want:   "20 5 1 0\nY\nX\n\n\n\n",
}, {
	// DECALN (ESC # 8) was not implemented.
	name:   "DECALN fills the screen with E and homes the cursor",
	stream: "abc\x1b[2;4r\x1b[44m\x1b[3;3H\x1b#8X",
	want:   "20 5 1 0\n\x1b[44mX\x1b[49mEEEEEEEEEEEEEEEEEEE\nEEEEEEEEEEEEEEEEEEEE\nEEEEEEEEEEEEEEEEEEEE\nEEEEEEEEEEEEEEEEEEEE\nEEEEEEEEEEEEEEEEEEEE\n",
}, {
	// uv's SGR reader ignored 21.
	name:   "SGR 21 is a double underline",
	stream: "\x1b[1mA\x1b[21mB\x1b[21;24mC\x1b[38;5;21mD\x1b[m",
	want:   "20 5 4 0\n\x1b[1mA\x1b[4:2mB\x1b[0;1m\x1b[39m\x1b[49mC\x1b[38;5;21mD\n\n\n\n\n",
}, {
	// SO and SI were registered as C1 controls and never ran.
	name:   "SO and SI shift to G1 and back",
	stream: "\x1b(0lqqk\x1b(Bx\x1b)0\x0elq\x0fy",
	want:   "20 5 8 0\n\x0elqqk\x0fx\x0elq\x0fy\n\n\n\n\n",
}, {
	// REP repeats only an ASCII character printed right before it.
	name:   "REP after REP repeats nothing",
	stream: "a\x1b[3b\x1b[2bX",
	want:   "20 5 5 0\naaaaX\n\n\n\n\n",
}, {
	name:   "REP after another sequence repeats nothing",
	stream: "a\x1b[1m\x1b[3bX",
	want:   "20 5 2 0\na\x1b[1mX\n\n\n\n\n",
}, {
	name:   "REP repeats at most up to the margin",
	stream: "abcdefghijklmnopq\x1b[9bX",
	want:   "20 5 1 1\nabcdefghijklmnopqqqq\nX\n\n\n\n",
}, {
	name:   "REP after a non-ASCII character repeats nothing",
	stream: "é\x1b[3bX",
	want:   "20 5 2 0\néX\n\n\n\n\n",
}, {
	name:   "CBT with a wrap pending ends it",
	stream: "abcdefghijklmnopqrst\x1b[ZX",
	want:   "20 5 17 0\nabcdefghijklmnopXrst\n\n\n\n\n",
}, {
	// seed 37 of the widened generator: DECSTBM homes to the screen's
	// top left in origin mode too.
	name:   "DECSTBM homes the cursor to the top left in origin mode",
	stream: "\x1b[?6h\x1b[3;4rX",
	want:   "20 5 1 0\nX\n\n\n\n\n",
}, {
	name:   "DECSTBM past the screen ends the region at its last row",
	stream: "\x1b[3;40rX\x1b[40;1HY\r\nZ",
	want:   "20 5 1 4\nX\n\n\nY\nZ\n",
}, {
	// seed 305: CR in origin mode moved the cursor down by the region's top.
	name:   "CR in origin mode keeps the row",
	stream: "\x1b[?6h\x1b[3;4r\rX",
	want:   "20 5 1 0\nX\n\n\n\n\n",
}, {
	name:   "HPA in origin mode keeps the row",
	stream: "\x1b[3;4r\x1b[?6h\x1b[1;5HX\x1b[8`Y",
	want:   "20 5 8 2\n\n\n    X  Y\n\n\n",
}, {
	name:   "HVP is relative to the region in origin mode",
	stream: "\x1b[3;4r\x1b[?6h\x1b[2;3fX",
	want:   "20 5 3 3\n\n\n\n  X\n\n",
}, {
	// seeds 89, 267: DECSC saves origin mode and DECRC restores it.
	name:   "DECRC restores origin mode",
	stream: "\x1b7\x1b[3;4r\x1b[?6h\x1b8\x1b[2;3HX",
	want:   "20 5 3 1\n\n  X\n\n\n\n",
}, {
	// seed 377: one cursor for both screens; 1049l restores only what a
	// 1049h saved.
	name:   "1049l after 1047h leaves the cursor where it was on the alternate screen",
	stream: "\x1b[3;5H\x1b[?1047h\x1b[1;1Hab\x1b[?1049lX",
	want:   "20 5 3 0\n  X\n\n\n\n\n",
}, {
	name:   "1049l restores the cursor of the last 1049h",
	stream: "\x1b[2;2H\x1b[?1049h\x1b[?1049l\x1b[4;4H\x1b[?1047h\x1b[1;1H\x1b[?1049lX",
	want:   "20 5 2 1\n\n X\n\n\n\n",
}, {
	// RIS reset both screens and, by map order, left the alternate
	// screen or not and restored a cursor or not.
	name:   "RIS on the alternate screen clears it and stays there",
	stream: "main\x1b[?1049hALT\x1b[2;3H\x1bcAB",
	want:   "20 5 2 0\nAB\n\n\n\n\n",
}, {
	name:   "RIS on the alternate screen keeps the main screen and the cursor 1049h saved",
	stream: "ab\x1b[2;5H\x1b[?1049hALT\x1bc\x1b[?1049lX",
	want:   "20 5 5 1\nab\n    X\n\n\n\n",
}, {
	name:   "RIS keeps the cursor 1049h saved for a later 1049l",
	stream: "ab\x1b[2;5H\x1b[?1049h\x1b[?1049l\x1bcZ\x1b[?1049lX",
	want:   "20 5 5 1\nZ\n    X\n\n\n\n",
}}

func TestEmulatorEdgeCasesMatchTmux(t *testing.T) {
	t.Parallel()
	for _, c := range emulatorTmuxCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			compareWithTmux(t, []byte(c.stream), c.want, nil)
		})
	}
}

// ED 0 from the top left corner clears the whole screen, and tmux
// (scroll-on-clear, on by default) scrolls its rows into the history first,
// as for ED 2: `capture-pane -S -10` shows one, two, three above the blank
// screen.
// RIS on the main screen scrolls its rows into the history as ED 2 does
// (tmux's screen_write_clearscreen): `capture-pane -S -10` shows l1, l2,
// l3 above Z.
func TestResetKeepsTheScreenInScrollback(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.Feed([]byte("l1\r\nl2\r\nl3\x1bcZ"))
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Equal(t, []string{"l1", "l2", "l3"}, term.ring.snapshot())
	require.Equal(t, "Z", term.emu.CellAt(0, 0).Content)
}

func TestEraseBelowFromHomeKeepsTheScreenInScrollback(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.Feed([]byte("one\r\ntwo\r\nthree\x1b[H\x1b[J"))
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Equal(t, []string{"one", "two", "three"}, term.ring.snapshot())
	for y := range 5 {
		for x := range 20 {
			require.Equal(t, "", cellDiff(term.emu.CellAt(x, y), nil), "cell (%d,%d)", x, y)
		}
	}
}

// A wide character cut by ICH, DCH or insert mode becomes two blanks in the
// pane. tmux leaves the other half in its grid (a head drawn two columns
// wide, or a padding cell that capture-pane skips), so this is not a tmux
// comparison: it checks that the cut leaves no orphan half and that the
// characters inserted after it show.
func TestWideCharacterCutByInsertOrDelete(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, stream, want string }{
		{"insert mode on the second half", "ab語語 stop\x1b[4h\x1b[4GQ x\x1b[4l", "ab Q x 語 stop"},
		{"ICH on the second half", "ab語語 stop\x1b[4G\x1b[2@Q", "ab Q  語 stop"},
		{"DCH on the second half", "ab語語 stop\x1b[4G\x1b[2PQ", "ab Q stop"},
		{"DCH cutting the next one", "ab語語 stop\x1b[3G\x1b[3PQ", "abQ stop"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
			defer term.Close()
			term.Feed([]byte(c.stream))
			term.mu.Lock()
			defer term.mu.Unlock()
			var row strings.Builder
			for x := 0; x < 20; x++ {
				cell := term.emu.CellAt(x, 0)
				require.NotNil(t, cell)
				if cell.Width == 0 {
					require.Positive(t, x, "a placeholder in the first column")
					require.Equal(t, 2, term.emu.CellAt(x-1, 0).Width, "placeholder at %d without its wide character", x)
					continue
				}
				row.WriteString(cell.Content)
			}
			require.Equal(t, c.want, strings.TrimRight(row.String(), " "))
		})
	}
}

// ED 2 puts into the scrollback every row down to the last one something
// was written to, blanks included, as tmux's grid_view_clear_history
// (cellused): for this stream tmux's history_size is 2.
func TestEraseScreenKeepsWrittenBlankRows(t *testing.T) {
	t.Parallel()
	term := newTerminal(20, 5, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.Feed([]byte("a\r\n   \r\n\r\n\x1b[2J"))
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Len(t, term.ring.snapshot(), 2)
	require.Equal(t, "a", term.ring.snapshot()[0])
}
