package chat_test

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// cursors counts the block cursors drawn in a frame (reverse video: the
// inputs' virtual cursors are the only reverse-video cells alice draws).
func cursors(frame string) int {
	return strings.Count(frame, "\x1b[7m") + strings.Count(frame, "\x1b[7;")
}

// Only the focused input shows a cursor: with the palette, help (f1: ? types in the input) or the
// session browser open over the chat, the chat input's cursor is hidden
// (both were drawn), and it is back once the overlay closes.
func TestOneCursorWithAnOverlayOpen(t *testing.T) {
	t.Parallel()
	for _, open := range []string{"ctrl+p", "f1", "ctrl+s"} {
		h := tuitest.NewHarness(t, 120, 40)
		require.Equal(t, 1, cursors(h.M.Render()), "the chat input's cursor")
		h.Key(open)
		require.Equal(t, 1, cursors(h.M.Render()), "%s: only the overlay's cursor", open)
		h.Key("esc")
		require.Equal(t, 1, cursors(h.M.Render()), "%s closed: the chat input's cursor is back", open)
		require.Contains(t, h.Screen(), "Ask Alice")
	}
}
