package workspace

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/stretchr/testify/require"
)

// A long batch is written in chunks; a redraw that asks for the screen
// while a chunk is being written gets it right after that chunk, before
// the next one, and its subscribers are nudged in between: a child that repaints
// continuously is shown mid-batch instead of once per batch.
func TestRedrawGoesBetweenChunksOfALongBatch(t *testing.T) {
	t.Parallel()
	term := newTerminal(80, 24, 100, nil, slog.New(slog.DiscardHandler))
	defer term.Close()
	term.handoffWait = time.Hour // only the redraw taking the lock lets the feeder go on
	changes, unsubscribe := term.Subscribe()
	defer unsubscribe()
	term.Feed([]byte("\x1b[?1049h"))
	<-changes

	// The first chunk rings the bell (a callback that runs with the lock
	// held), which parks the feeder until the redraw is waiting.
	inBell, release := make(chan struct{}), make(chan struct{})
	term.emu.SetCallbacks(vt.Callbacks{Bell: func() { close(inBell); <-release }})
	first := []byte("\x1b[Hfirst\a")
	pad := bytes.Repeat([]byte("\x1b[H"), (rawChunk-len(first))/3+1)
	batch := append(append(append([]byte{}, first...), pad...), "\x1b[2;1Hsecond"...)
	require.Greater(t, len(batch), rawChunk, "two chunks")
	fed := make(chan struct{})
	go func() { term.Feed(batch); close(fed) }()

	<-inBell
	screen := make(chan string, 1)
	go func() { screen <- term.Render() }()
	require.Eventually(t, func() bool { return term.uiWaiting.Load() == 1 }, 30*time.Second, time.Millisecond)
	close(release)

	s := <-screen
	require.Contains(t, s, "first")
	require.NotContains(t, s, "second", "the redraw got the lock before the feeder's next chunk")
	select {
	case <-changes:
	default:
		t.Fatal("the subscriber was not nudged between the chunks")
	}
	<-fed
	require.True(t, strings.Contains(term.String(), "second"), "the whole batch is written")
}
