package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
}

// agentCommit commits everything the way an agent running git would.
func agentCommit(t *testing.T, dir, msg string) {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	require.NoError(t, err)
	wt, err := repo.Worktree()
	require.NoError(t, err)
	wt.Excludes = append(wt.Excludes, infoExcludes(dir)...)
	require.NoError(t, wt.AddWithOptions(&git.AddOptions{All: true}))
	sig := &object.Signature{Name: "agent", Email: "a@x", When: time.Now()}
	_, err = wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig})
	require.NoError(t, err)
}

func byPath(d Diff) map[string]FileDiff {
	out := map[string]FileDiff{}
	for _, f := range d.Files {
		out[f.Path] = f
	}
	return out
}

func TestDiffAgainstSessionStartCommit(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "diff", "chat")
	// Work committed before the session started is not part of its diff.
	writeFile(t, w.Dir, "before.txt", "old work\n")
	agentCommit(t, w.Dir, "before the session")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	recs := m.SessionRecords(w.ID)
	require.Len(t, recs, 1)
	require.Equal(t, headCommit(w.Dir), recs[0].StartCommit)
	s.Stop()

	d, err := m.Diff(w.ID)
	require.NoError(t, err)
	assert.Empty(t, d.Files)
	assert.Equal(t, recs[0].StartCommit, d.Base)

	writeFile(t, w.Dir, "README.md", "# Chat workspace\n\nchanged by the agent\n")
	writeFile(t, w.Dir, "reports/btc.md", "BTC up\n")
	require.NoError(t, os.Remove(filepath.Join(w.Dir, "before.txt")))
	writeFile(t, w.Dir, "img.bin", "\x00\x01\x02")
	agentCommit(t, w.Dir, "agent work") // committed changes still count
	writeFile(t, w.Dir, "notes/draft.txt", "uncommitted\n")
	writeFile(t, w.Dir, ".claude/settings.local.json", "{}\n") // excluded: never listed

	d, err = m.Diff(w.ID)
	require.NoError(t, err)
	got := byPath(d)
	require.Len(t, got, 5, "%+v", d.Files)
	assert.Equal(t, ChangeModified, got["README.md"].Change)
	assert.Contains(t, got["README.md"].Patch, "+changed by the agent")
	assert.Contains(t, got["README.md"].Patch, "--- a/README.md")
	assert.Equal(t, 1, got["README.md"].Additions)
	assert.Equal(t, 2, got["README.md"].Deletions)
	assert.Equal(t, ChangeAdded, got["reports/btc.md"].Change)
	assert.Contains(t, got["reports/btc.md"].Patch, "--- /dev/null")
	assert.Equal(t, 1, got["reports/btc.md"].Additions)
	assert.Equal(t, ChangeDeleted, got["before.txt"].Change)
	assert.Equal(t, 1, got["before.txt"].Deletions)
	assert.True(t, got["img.bin"].Binary)
	assert.Empty(t, got["img.bin"].Patch)
	assert.Equal(t, ChangeAdded, got["notes/draft.txt"].Change)
}

func TestCommitAcceptsAndDiscardRestores(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "accept", "chat")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	s.Stop()
	orig, err := os.ReadFile(filepath.Join(w.Dir, "README.md"))
	require.NoError(t, err)

	writeFile(t, w.Dir, "keep.md", "keep\n")
	h, err := m.CommitChanges(w.ID, "")
	require.NoError(t, err)
	assert.Equal(t, headCommit(w.Dir), h)
	d, err := m.Diff(w.ID)
	require.NoError(t, err)
	assert.Empty(t, d.Files, "accepted changes leave the diff")
	assert.Equal(t, h, d.Base)
	_, err = m.CommitChanges(w.ID, "again")
	assert.ErrorIs(t, err, ErrNoChanges)

	writeFile(t, w.Dir, "README.md", "ruined\n")
	writeFile(t, w.Dir, "junk/tmp.txt", "junk\n")
	require.NoError(t, os.Remove(filepath.Join(w.Dir, "keep.md")))

	_, err = m.DiscardChanges(w.ID, "../outside.txt")
	assert.ErrorContains(t, err, "no change to discard")
	_, err = m.DiscardChanges(w.ID, "CLAUDE.md")
	assert.ErrorContains(t, err, "no change to discard")

	done, err := m.DiscardChanges(w.ID, "README.md")
	require.NoError(t, err)
	assert.Equal(t, []string{"README.md"}, done)
	b, _ := os.ReadFile(filepath.Join(w.Dir, "README.md"))
	assert.Equal(t, string(orig), string(b))
	d, err = m.Diff(w.ID)
	require.NoError(t, err)
	assert.Len(t, d.Files, 2)

	done, err = m.DiscardChanges(w.ID)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"junk/tmp.txt", "keep.md"}, done)
	assert.NoFileExists(t, filepath.Join(w.Dir, "junk", "tmp.txt"))
	assert.FileExists(t, filepath.Join(w.Dir, "keep.md"))
	d, err = m.Diff(w.ID)
	require.NoError(t, err)
	assert.Empty(t, d.Files)

	_, err = m.Diff("nope")
	assert.ErrorIs(t, err, ErrWorkspaceNotFound)
}
