package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSocketDirs: only the user's own 0700 directories are covered, and
// never "/", the home or a directory above it (a misconfigured
// XDG_RUNTIME_DIR=$HOME must not empty a session's home).
func TestSocketDirs(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(p, 0o755))
		require.NoError(t, os.Chmod(p, mode))
		return p
	}
	tmux := mk("tmux-1000", 0o700)
	open := mk("shared", 0o755)
	home := mk("home/u", 0o700)
	above := filepath.Dir(home)
	require.NoError(t, os.Chmod(above, 0o700))
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	got := socketDirs([]string{tmux, open, home, above, "/", file, filepath.Join(base, "absent"), "relative"}, os.Getuid(), home)
	assert.Equal(t, []string{tmux}, got)
	assert.Empty(t, socketDirs([]string{tmux}, os.Getuid()+1, home), "another user's directory")
}
