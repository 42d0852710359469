package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The registry is a file a person can edit: removing a workspace "with its
// directory" never deletes anything outside the workspaces root.
func TestRemoveNeverDeletesOutsideTheRoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	m := newTestManager(t, root, nil)
	w, err := m.Create(context.Background(), "victim", "shell-only", nil)
	require.NoError(t, err)

	outside := t.TempDir()
	keep := filepath.Join(outside, "important.txt")
	require.NoError(t, os.WriteFile(keep, []byte("mine"), 0o600))
	m.mu.Lock()
	for i := range m.workspaces {
		if m.workspaces[i].ID == w.ID {
			m.workspaces[i].Dir = outside // as if workspaces.json had been edited
		}
	}
	m.mu.Unlock()

	require.NoError(t, m.RemoveWorkspace(w.ID, true))
	require.FileExists(t, keep, "a directory outside the root is kept")
	_, ok := m.Get(w.ID)
	require.False(t, ok, "the workspace itself is gone")

	// A normal one inside the root is removed with its directory.
	w2, err := m.Create(context.Background(), "normal", "shell-only", nil)
	require.NoError(t, err)
	require.DirExists(t, w2.Dir)
	require.NoError(t, m.RemoveWorkspace(w2.ID, true))
	require.NoDirExists(t, w2.Dir)
}

func TestWithin(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, c := range []struct {
		path string
		want bool
	}{
		{filepath.Join(root, "a"), true},
		{filepath.Join(root, "a", "b"), true},
		{root, false},
		{filepath.Join(root, ".."), false},
		{filepath.Join(root, "..", "x"), false},
		{"/", false},
	} {
		require.Equal(t, c.want, within(root, c.path), c.path)
	}
}
