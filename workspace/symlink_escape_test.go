package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A session owns its workspace directory and can put symlinks anywhere in
// it; alice's core is not sandboxed and must never follow one out. These
// are the black-box round's attacks: a committed file whose directory is
// replaced by a symlink to alice's config (the diff showed accounts.json
// and the operator key), .mcp.json replaced by a symlink to accounts.json
// (a session start overwrote it), and .git itself pointing elsewhere.
func TestCoreNeverFollowsASymlinkOutOfTheWorkspace(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "esc", "chat")
	outside := t.TempDir()
	secret := filepath.Join(outside, "operator.key")
	accounts := filepath.Join(outside, "accounts.json")
	require.NoError(t, os.WriteFile(secret, []byte("SECRET-OPERATOR-KEY\n"), 0o600))
	require.NoError(t, os.WriteFile(accounts, []byte(`[{"id":"real"}]`), 0o600))

	// 1. diff through a symlinked directory
	writeFile(t, w.Dir, "sub/operator.key", "decoy\n")
	agentCommit(t, w.Dir, "decoy")
	require.NoError(t, os.RemoveAll(filepath.Join(w.Dir, "sub")))
	require.NoError(t, os.Symlink(outside, filepath.Join(w.Dir, "sub")))
	writeFile(t, w.Dir, "plain.txt", "visible\n")
	d, err := m.Diff(w.ID)
	require.NoError(t, err)
	var all strings.Builder
	for _, f := range d.Files {
		all.WriteString(f.Path + "\n" + f.Patch + "\n")
	}
	require.Contains(t, all.String(), "visible", "the diff still works")
	require.NotContains(t, all.String(), "SECRET-OPERATOR-KEY")
	require.NotContains(t, all.String(), `"real"`)

	// 2. .mcp.json as a symlink to a file alice must not write
	mcp := filepath.Join(w.Dir, ".mcp.json")
	require.NoError(t, os.Remove(mcp))
	require.NoError(t, os.Symlink(accounts, mcp))
	m.refreshMCPConfig(w)
	got, err := os.ReadFile(accounts)
	require.NoError(t, err)
	require.Equal(t, `[{"id":"real"}]`, string(got), "the file the symlink points at is untouched")
	fi, err := os.Lstat(mcp)
	require.NoError(t, err)
	require.True(t, fi.Mode().IsRegular(), "the symlink was replaced by alice's own .mcp.json")

	// 3. .git as a symlink (or a "gitdir:" file) to another repository
	other := createWS(t, m, "other", "chat")
	gitDir := filepath.Join(w.Dir, ".git")
	require.NoError(t, os.Rename(gitDir, gitDir+".moved"))
	require.NoError(t, os.Symlink(filepath.Join(other.Dir, ".git"), gitDir))
	_, err = m.Diff(w.ID)
	require.Error(t, err, "a symlinked .git is not opened")
	_, err = m.CommitChanges(w.ID, "through the link")
	require.Error(t, err)
	require.NoError(t, os.Remove(gitDir))
	require.NoError(t, os.WriteFile(gitDir, []byte("gitdir: "+filepath.Join(other.Dir, ".git")+"\n"), 0o644))
	_, err = m.GitLog(w.ID, 10)
	require.Error(t, err, "a gitdir file is not followed")
}
