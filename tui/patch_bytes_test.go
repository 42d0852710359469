package tui_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/workspace"
	"github.com/stretchr/testify/require"
)

// recorder passes the program's output on to the emulator (once ready
// is closed: runOnEmulator makes it after the program) and keeps a copy.
type recorder struct {
	ready chan struct{}
	scr   *emuScreen
	mu    sync.Mutex
	buf   bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	<-r.ready
	r.mu.Lock()
	r.buf.Write(p)
	r.mu.Unlock()
	return r.scr.Write(p)
}

func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.buf.String()
	r.buf.Reset()
	return s
}

// TestAnEchoIsPatchedAsTheCharacterAlone: the echo of a key at the
// cursor is written as tmux writes it, the character alone: the cursor
// is neither hidden nor shown around it (a blinking cursor flickered at
// every keystroke). A change away from the cursor still hides the cursor
// while it moves there and back.
func TestAnEchoIsPatchedAsTheCharacterAlone(t *testing.T) {
	t.Parallel()
	const w, h = sessCols + 2, sessRows + 2
	term := workspace.NewTerminal(sessCols, sessRows, slog.New(slog.DiscardHandler))
	t.Cleanup(term.Close)
	term.Feed([]byte("$ "))
	m := &sessionModel{term: term, held: make(chan chan struct{})}
	rec := &recorder{ready: make(chan struct{})}
	p, scr := runOnEmulator(t, m, w, h, tea.WithFPS(480), tea.WithOutput(rec))
	rec.scr = scr
	close(rec.ready)
	// The first frame, then nothing pending: the patch may draw.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.HasPrefix(scr.line(1), "│$") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.True(t, strings.HasPrefix(scr.line(1), "│$"), "the first frame never came:\n%s", scr.text())
	patch := func() string {
		t.Helper()
		for !patchSession(p, term, sessCols, sessRows) {
			require.True(t, time.Now().Before(deadline), "the renderer never took a patch")
			time.Sleep(time.Millisecond)
		}
		return rec.take()
	}
	patch() // whatever the first frame left to the patch
	rec.take()

	term.Feed([]byte("é"))
	require.Equal(t, "é", patch())
	term.Feed([]byte("x"))
	require.Equal(t, "x", patch())
	x, y := scr.cursor()
	require.Equal(t, [2]int{1 + 4, 1}, [2]int{x, y}, "the cursor follows the echo (after the 4 columns of \"$ éx\")")

	// A change elsewhere: the cursor is hidden while it moves.
	term.Feed([]byte("\x1b7\x1b[5;3HZ\x1b8"))
	out := patch()
	require.Contains(t, out, "Z")
	require.True(t, strings.HasPrefix(out, "\x1b[?25l") && strings.HasSuffix(out, "\x1b[?25h"), "got %q", out)
}
