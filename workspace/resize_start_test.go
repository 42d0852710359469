package workspace

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A resize that arrives while the child is starting reaches its pty: the
// spawn has read the old size, and Resize finds no pty to set yet. (The
// TUI resizes a session right after starting it.)
func TestResizeWhileStartingReachesThePty(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "resize-start", "shell-only")
	for i := range 6 {
		s, err := m.StartSession(w.ID, "")
		require.NoError(t, err)
		cols, rows := 90+i, 25+i
		s.Resize(cols, rows)
		waitState(t, s, StateRunning)
		_, err = s.Write([]byte("stty size\n"))
		require.NoError(t, err)
		waitScreen(t, s, fmt.Sprintf("%d %d", rows, cols))
	}
}
