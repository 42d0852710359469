//go:build unix

package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A FIFO a session puts in its workspace never blocks the core: accepting
// the changes (git add reads every file), the diff, the file viewer and
// the .mcp.json refresh (with a FIFO planted under its temporary name)
// all return (black-box N5: the accept hung until someone wrote to it).
func TestAFIFOInTheWorkspaceBlocksNothing(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "fifo", "chat")
	require.NoError(t, syscall.Mkfifo(filepath.Join(w.Dir, "pipe1"), 0o644))
	require.NoError(t, syscall.Mkfifo(filepath.Join(w.Dir, fmt.Sprintf(".mcp.json.alice-%d", os.Getpid())), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, ".mcp.json"), []byte("{}"), 0o644))
	writeFile(t, w.Dir, "work.txt", "done\n")

	within := func(name string, f func()) {
		t.Helper()
		done := make(chan struct{})
		go func() { defer close(done); f() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s blocked on the FIFO", name)
		}
	}
	within("diff", func() {
		d, err := m.Diff(w.ID)
		require.NoError(t, err)
		require.Contains(t, byPath(d), "work.txt")
	})
	within("read", func() {
		_, err := m.ReadFile(w.ID, "pipe1")
		require.ErrorIs(t, err, ErrInvalidPath)
	})
	within("refresh .mcp.json", func() { m.refreshMCPConfig(w) })
	b, err := os.ReadFile(filepath.Join(w.Dir, ".mcp.json"))
	require.NoError(t, err)
	require.Equal(t, string(MCPConfig(m.mcpURL(), w.ID)), string(b))
	within("accept", func() {
		_, err := m.CommitChanges(w.ID, "accept")
		// refusing, naming the FIFO, is fine; hanging is not
		require.ErrorContains(t, err, "pipe1 in the workspace is not a regular file")
	})
}
