package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Change kinds of a FileDiff.
const (
	ChangeAdded    = "added"
	ChangeModified = "modified"
	ChangeDeleted  = "deleted"
)

// maxDiffFileBytes bounds the content diffed per file; larger files are
// listed with their status only.
const maxDiffFileBytes = 1 << 20

// FileDiff is one changed path against the diff base.
type FileDiff struct {
	Path      string `json:"path"`
	Change    string `json:"change"` // added | modified | deleted
	Binary    bool   `json:"binary,omitempty"`
	TooLarge  bool   `json:"tooLarge,omitempty"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	// Patch is a unified diff (a/path → b/path), empty for binary or
	// too-large files.
	Patch string `json:"patch,omitempty"`
}

// Diff is a workspace's working tree against the commit its sessions
// started from.
type Diff struct {
	WorkspaceID string     `json:"workspaceId"`
	Base        string     `json:"base"` // full commit hash
	Files       []FileDiff `json:"files"`
}

// ErrNoChanges is returned by CommitChanges when there is nothing to commit.
var ErrNoChanges = errors.New("no changes since the diff base")

// diffBase is the start commit of the workspace's oldest session record
// that has one (sessions record HEAD when they start), else HEAD.
func (m *Manager) diffBase(wsID string, repo *git.Repository) (*object.Commit, error) {
	m.mu.Lock()
	recs := slices.Clone(m.records[wsID])
	m.mu.Unlock()
	slices.SortFunc(recs, func(a, b SessionRecord) int { return a.CreatedAt.Compare(b.CreatedAt) })
	for _, r := range recs {
		if r.StartCommit == "" {
			continue
		}
		if c, err := repo.CommitObject(plumbing.NewHash(r.StartCommit)); err == nil {
			return c, nil
		}
	}
	head, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("git HEAD: %w", err)
	}
	return repo.CommitObject(head.Hash())
}

// headCommit returns the workspace's HEAD commit hash ("" when unborn).
func headCommit(dir string) string {
	repo, err := openWorkspaceRepo(dir)
	if err != nil {
		return ""
	}
	defer repo.Close()
	head, err := repo.Head()
	if err != nil {
		return ""
	}
	return head.Hash().String()
}

// Diff compares the working tree with the diff base, file by file:
// committed and uncommitted changes alike, untracked files included,
// ignored files left out.
func (m *Manager) Diff(wsID string) (Diff, error) { return m.diffFrom(wsID, "") }

// diffFrom is Diff against the commit baseHash ("" for the diff base).
func (m *Manager) diffFrom(wsID, baseHash string) (Diff, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return Diff{}, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	repo, err := openWorkspaceRepo(w.Dir)
	if err != nil {
		return Diff{}, fmt.Errorf("open git repository of %s: %w", w.Tag, err)
	}
	defer repo.Close()
	var base *object.Commit
	if baseHash != "" {
		base, err = repo.CommitObject(plumbing.NewHash(baseHash))
	} else {
		base, err = m.diffBase(w.ID, repo.Repository)
	}
	if err != nil {
		return Diff{}, err
	}
	baseTree, err := base.Tree()
	if err != nil {
		return Diff{}, err
	}
	paths, err := candidatePaths(repo.Repository, w.Dir, baseTree)
	if err != nil {
		return Diff{}, err
	}
	d := Diff{WorkspaceID: w.ID, Base: base.Hash.String(), Files: []FileDiff{}}
	for _, p := range paths {
		fd, changed, err := diffFile(baseTree, w.Dir, p)
		if err != nil {
			return Diff{}, fmt.Errorf("diff %s: %w", p, err)
		}
		if changed {
			d.Files = append(d.Files, fd)
		}
	}
	return d, nil
}

// candidatePaths lists paths that may differ from base: those changed
// between base and HEAD plus those git status reports.
func candidatePaths(repo *git.Repository, dir string, baseTree *object.Tree) ([]string, error) {
	set := map[string]bool{}
	if head, err := repo.Head(); err == nil {
		if hc, err := repo.CommitObject(head.Hash()); err == nil {
			if ht, err := hc.Tree(); err == nil {
				changes, err := object.DiffTree(baseTree, ht)
				if err != nil {
					return nil, err
				}
				for _, c := range changes {
					for _, n := range []string{c.From.Name, c.To.Name} {
						if n != "" {
							set[n] = true
						}
					}
				}
			}
		}
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	wt.Excludes = append(wt.Excludes, infoExcludes(dir)...)
	st, err := wt.Status()
	if err != nil {
		return nil, fmt.Errorf("git status: %w", err)
	}
	for p, s := range st {
		if s.Staging != git.Unmodified || s.Worktree != git.Unmodified {
			set[p] = true
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

func diffFile(baseTree *object.Tree, dir, p string) (FileDiff, bool, error) {
	fd := FileDiff{Path: p}
	var old []byte
	inBase := false
	if f, err := baseTree.File(p); err == nil {
		inBase = true
		if f.Size > maxDiffFileBytes {
			fd.TooLarge = true
		} else {
			r, err := f.Reader()
			if err != nil {
				return fd, false, err
			}
			old, err = io.ReadAll(r)
			r.Close()
			if err != nil {
				return fd, false, err
			}
		}
	}
	cur, onDisk, large, err := readWorking(dir, p)
	if err != nil {
		return fd, false, err
	}
	fd.TooLarge = fd.TooLarge || large
	switch {
	case !inBase && !onDisk:
		return fd, false, nil
	case !inBase:
		fd.Change = ChangeAdded
	case !onDisk:
		fd.Change = ChangeDeleted
	default:
		if !fd.TooLarge && bytes.Equal(old, cur) {
			return fd, false, nil
		}
		fd.Change = ChangeModified
	}
	if fd.TooLarge {
		return fd, true, nil
	}
	if isBinary(old) || isBinary(cur) {
		fd.Binary = true
		return fd, true, nil
	}
	oldLabel, newLabel := "a/"+p, "b/"+p
	if !inBase {
		oldLabel = "/dev/null"
	}
	if !onDisk {
		newLabel = "/dev/null"
	}
	fd.Patch = udiff.Unified(oldLabel, newLabel, string(old), string(cur))
	for _, l := range strings.Split(fd.Patch, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			fd.Additions++
		case strings.HasPrefix(l, "-"):
			fd.Deletions++
		}
	}
	return fd, true, nil
}

// readWorking reads a working-tree file (a symlink's target path stands
// for its content, as git stores it). It reads through an os.Root: a
// symlinked directory on the way (a session's "ln -s ~/.config/alice sub")
// is not followed out of the workspace.
func readWorking(dir, p string) (data []byte, exists, tooLarge bool, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, false, false, err
	}
	defer root.Close()
	rel := filepath.FromSlash(p)
	fi, err := root.Lstat(rel)
	if err != nil {
		// Gone, or not reachable inside the workspace (a directory on the
		// way is a symlink out of it): nothing of it is shown.
		return nil, false, false, nil
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		t, err := root.Readlink(rel)
		return []byte(t), true, false, err
	case fi.IsDir():
		return nil, false, false, nil // a submodule or a directory replacing a file
	case !fi.Mode().IsRegular():
		return nil, false, false, nil // a fifo or a device: nothing to read (and a fifo would block)
	case fi.Size() > maxDiffFileBytes:
		return nil, true, true, nil
	}
	b, size, err := readRegular(root, rel, maxDiffFileBytes)
	if errors.Is(err, errNotRegular) {
		return nil, false, false, nil // swapped for a FIFO meanwhile
	}
	if size > maxDiffFileBytes {
		return nil, true, true, nil
	}
	return b, err == nil, false, err
}

func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}

// CommitChanges commits every change in the workspace (git add -A) with
// message and makes the new commit the diff base of its sessions: the
// changes are accepted.
func (m *Manager) CommitChanges(wsID, message string) (string, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	d, err := m.Diff(w.ID)
	if err != nil {
		return "", err
	}
	if len(d.Files) == 0 {
		return "", ErrNoChanges
	}
	if strings.TrimSpace(message) == "" {
		message = fmt.Sprintf("%s: accept %d changed file(s)", w.Tag, len(d.Files))
	}
	repo, err := openWorkspaceRepo(w.Dir)
	if err != nil {
		return "", err
	}
	defer repo.Close()
	wt, err := repo.Worktree()
	if err != nil {
		return "", err
	}
	wt.Excludes = append(wt.Excludes, infoExcludes(w.Dir)...)
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, errNotRegular) {
			return "", fmt.Errorf("%s in the workspace is not a regular file (a FIFO, socket or device), which git cannot commit: remove it and accept again: %w", pe.Path, err)
		}
		return "", fmt.Errorf("git add: %w", err)
	}
	sig := &object.Signature{Name: "alice", Email: "alice@local", When: time.Now()}
	h, err := wt.Commit(message, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		return "", fmt.Errorf("git commit: %w", err)
	}
	m.setDiffBase(w.ID, h.String())
	return h.String(), nil
}

// setDiffBase moves every session record of the workspace to base.
func (m *Manager) setDiffBase(wsID, base string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	recs := m.records[wsID]
	for i := range recs {
		recs[i].StartCommit = base
	}
	m.saveRecordsLocked(wsID)
}

// DiscardChanges puts the given paths (all changed paths when none are
// given) back to their content at the diff base: modified and deleted
// files are restored, added files removed. Paths must be in the current
// diff, so a caller cannot touch anything else.
func (m *Manager) DiscardChanges(wsID string, paths ...string) ([]string, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	d, err := m.Diff(w.ID)
	if err != nil {
		return nil, err
	}
	byPath := map[string]FileDiff{}
	for _, f := range d.Files {
		byPath[f.Path] = f
	}
	if len(paths) == 0 {
		for _, f := range d.Files {
			paths = append(paths, f.Path)
		}
	}
	for _, p := range paths {
		if _, ok := byPath[p]; !ok {
			return nil, fmt.Errorf("%s has no change to discard", p)
		}
	}
	repo, err := openWorkspaceRepo(w.Dir)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	base, err := repo.CommitObject(plumbing.NewHash(d.Base))
	if err != nil {
		return nil, err
	}
	tree, err := base.Tree()
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(w.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var done []string
	for _, p := range paths {
		if err := restore(root, tree, p, byPath[p].Change); err != nil {
			return done, fmt.Errorf("discard %s: %w", p, err)
		}
		done = append(done, p)
	}
	return done, nil
}

// restore writes one path back through root (which refuses to leave the
// workspace directory).
func restore(root *os.Root, tree *object.Tree, p, change string) error {
	rel := filepath.FromSlash(p)
	if change == ChangeAdded {
		err := root.Remove(rel)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	f, err := tree.File(p)
	if err != nil {
		return err
	}
	content, err := f.Contents()
	if err != nil {
		return err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	_ = root.Remove(rel) // replaces a symlink or a changed mode
	if f.Mode.IsFile() {
		perm := os.FileMode(0o644)
		if fm, err := f.Mode.ToOSFileMode(); err == nil {
			perm = fm.Perm()
		}
		return root.WriteFile(rel, []byte(content), perm)
	}
	return root.Symlink(content, rel)
}
