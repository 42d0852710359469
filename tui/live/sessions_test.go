package live

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace"
)

// TestAdapterForwardsKeysByteExact drives the pane's attach path below the
// pane: tea.KeyPressMsg (as bubbletea decodes xterm's bytes) → the live
// terminal adapter → the session → the child's pty, in raw mode.
func TestAdapterForwardsKeysByteExact(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "keys.bin")
	m, err := workspace.NewManager(workspace.Options{Root: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		ShellCommand: []string{"/bin/sh", "-c", "stty raw -echo; printf 'READY\\n'; exec cat > " + out}})
	require.NoError(t, err)
	defer m.Close()
	w, err := m.Create(context.Background(), "keys", "shell-only", nil)
	require.NoError(t, err)
	s, err := m.StartSessionSize(w.ID, "", 100, 30)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(s.ScreenText(5)) > 0 && s.ScreenText(1)[0] == "READY" }, 30*time.Second, 20*time.Millisecond)
	cols, rows := s.Terminal().Size()
	require.Equal(t, [2]int{100, 30}, [2]int{cols, rows})

	term := terminal{s}
	typed := "echo ABC xyz ~!@#$%^&*()_+ é 日本 🙂"
	var dec uv.EventDecoder
	for b := []byte(typed + "\r\x1b[A\x1b[1;5D\x1b\x7f\x03"); len(b) > 0; {
		n, ev := dec.Decode(b)
		k, ok := ev.(uv.KeyPressEvent)
		require.True(t, ok, "%q", b)
		term.SendKey(tea.KeyPressMsg(k))
		b = b[n:]
	}
	want := typed + "\r\x1b[A\x1b[1;5D\x1b\x7f\x03"
	var got []byte
	require.Eventually(t, func() bool { got, _ = os.ReadFile(out); return len(got) >= len(want) }, 30*time.Second, 20*time.Millisecond)
	require.Equal(t, want, string(got))
}
