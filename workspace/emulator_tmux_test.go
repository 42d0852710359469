package workspace

import (
	"log/slog"
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
