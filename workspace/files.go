package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/inbox"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MaxReadFile is the largest file ReadFile returns (the reference's 1 MiB).
const MaxReadFile = 1 << 20

// File view errors, matching the reference's workspace_not_found,
// file_not_found, file_too_large and invalid_path.
var (
	ErrInvalidPath  = errors.New("invalid path")
	ErrFileNotFound = fmt.Errorf("file not found: %w", fs.ErrNotExist)
)

// FileTooLargeError is returned by ReadFile for files over MaxReadFile.
type FileTooLargeError struct {
	Path string
	Size int64
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("%s is too large (%d KB, limit %d KB)", e.Path, (e.Size+1023)/1024, MaxReadFile/1024)
}

// FileInfo is a directory listing row.
type FileInfo struct {
	Name    string    `json:"name"`
	Path    string    `json:"path"` // relative to the workspace root, slash-separated
	IsDir   bool      `json:"isDir"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
}

// cleanRel validates a caller-supplied relative path; "" and "." mean the
// root. Absolute and escaping paths are refused; symlinks escaping the
// workspace are refused later by os.Root.
func cleanRel(rel string) (string, error) {
	if strings.ContainsRune(rel, 0) || strings.Contains(rel, `\`) {
		return "", fmt.Errorf("%w: %q", ErrInvalidPath, rel)
	}
	if rel == "" {
		return ".", nil
	}
	if path.IsAbs(rel) {
		return "", fmt.Errorf("%w: %q must be relative", ErrInvalidPath, rel)
	}
	c := path.Clean(rel)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%w: %q escapes the workspace", ErrInvalidPath, rel)
	}
	return c, nil
}

func (m *Manager) openRoot(wsID string) (*os.Root, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	r, err := os.OpenRoot(w.Dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrWorkspaceNotFound, wsID, err)
	}
	return r, nil
}

// mapFSErr turns os.Root errors into the view errors.
func mapFSErr(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s", ErrFileNotFound, rel)
	case strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes"):
		return fmt.Errorf("%w: %q leaves the workspace", ErrInvalidPath, rel)
	}
	return err
}

// Files lists a directory of a workspace (directories first, then by
// name). The .git directory is hidden.
func (m *Manager) Files(wsID, rel string) ([]FileInfo, error) {
	c, err := cleanRel(rel)
	if err != nil {
		return nil, err
	}
	root, err := m.openRoot(wsID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(c)
	if err != nil {
		return nil, mapFSErr(rel, err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is not a directory", ErrInvalidPath, rel)
	}
	out := make([]FileInfo, 0, len(entries))
	for _, e := range entries {
		if c == "." && e.Name() == ".git" {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, FileInfo{Name: e.Name(), Path: path.Join(c, e.Name()), IsDir: e.IsDir(), Size: info.Size(), ModTime: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b FileInfo) int {
		if a.IsDir != b.IsDir {
			if a.IsDir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// ReadFile reads a workspace file of at most MaxReadFile bytes. Paths that
// escape the workspace, directly or through a symlink, are refused.
func (m *Manager) ReadFile(wsID, rel string) ([]byte, error) {
	c, err := cleanRel(rel)
	if err != nil {
		return nil, err
	}
	if c == "." || c == ".git" || strings.HasPrefix(c, ".git/") {
		return nil, fmt.Errorf("%w: %q", ErrInvalidPath, rel)
	}
	root, err := m.openRoot(wsID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	b, size, err := readRegular(root, c, MaxReadFile) // a FIFO does not block the viewer
	switch {
	case errors.Is(err, errNotRegular):
		if fi, serr := root.Stat(c); serr == nil && fi.IsDir() {
			return nil, fmt.Errorf("%w: %q is a directory", ErrInvalidPath, rel)
		}
		return nil, fmt.Errorf("%w: %q is not a regular file", ErrInvalidPath, rel)
	case err != nil:
		return nil, mapFSErr(rel, err)
	case size > MaxReadFile:
		return nil, &FileTooLargeError{Path: c, Size: size}
	}
	return b, nil
}

// DocReader adapts the manager for inbox.RenderDocs, translating errors
// into the inbox's tombstone kinds.
func (m *Manager) DocReader() inbox.DocReader { return docReader{m} }

type docReader struct{ m *Manager }

func (d docReader) ReadDoc(wsID, rel string) ([]byte, error) {
	b, err := d.m.ReadFile(wsID, rel)
	var tl *FileTooLargeError
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, ErrWorkspaceNotFound):
		return nil, inbox.ErrWorkspaceGone
	case errors.As(err, &tl):
		return nil, &inbox.DocTooLargeError{Size: tl.Size}
	case errors.Is(err, ErrInvalidPath):
		return nil, inbox.ErrDocPath
	}
	return nil, err
}

// Commit is a git log row.
type Commit struct {
	Hash    string    `json:"hash"` // abbreviated
	Author  string    `json:"author"`
	When    time.Time `json:"when"`
	Subject string    `json:"subject"`
}

// MaxGitLog caps GitLog (the reference's N ≤ 500).
const MaxGitLog = 500

// openRepo opens a workspace's repository (openWorkspaceRepo: nothing is
// read or written outside the workspace); Close it after use.
func (m *Manager) openRepo(wsID string) (*workspaceRepo, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	repo, err := openWorkspaceRepo(w.Dir)
	if err != nil {
		return nil, fmt.Errorf("open git repository of %s: %w", w.Tag, err)
	}
	return repo, nil
}

// GitLog returns up to n commits from HEAD, newest first.
func (m *Manager) GitLog(wsID string, n int) ([]Commit, error) {
	if n <= 0 || n > MaxGitLog {
		n = min(max(n, 50), MaxGitLog)
	}
	repo, err := m.openRepo(wsID)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	it, err := repo.Log(&git.LogOptions{})
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	defer it.Close()
	var out []Commit
	for len(out) < n {
		c, err := it.Next()
		if err != nil {
			break
		}
		out = append(out, commitRow(c))
	}
	return out, nil
}

func commitRow(c *object.Commit) Commit {
	subject, _, _ := strings.Cut(c.Message, "\n")
	return Commit{Hash: c.Hash.String()[:7], Author: c.Author.Name, When: c.Author.When, Subject: subject}
}

// FileStatus is one changed path, with porcelain-v1 style status letters.
type FileStatus struct {
	Path     string `json:"path"`
	Staging  string `json:"staging"`
	Worktree string `json:"worktree"`
}

// GitStatus is the branch and changed files of a workspace.
type GitStatus struct {
	Branch string       `json:"branch"`
	Clean  bool         `json:"clean"`
	Files  []FileStatus `json:"files"`
}

// GitStatus reports the current branch and `status --porcelain` rows.
func (m *Manager) GitStatus(wsID string) (GitStatus, error) {
	repo, err := m.openRepo(wsID)
	if err != nil {
		return GitStatus{}, err
	}
	defer repo.Close()
	var gs GitStatus
	if head, err := repo.Head(); err == nil && head.Name().IsBranch() {
		gs.Branch = head.Name().Short()
	}
	wt, err := repo.Worktree()
	if err != nil {
		return GitStatus{}, err
	}
	w, _ := m.Get(wsID)
	wt.Excludes = append(wt.Excludes, infoExcludes(w.Dir)...)
	st, err := wt.Status()
	if err != nil {
		return GitStatus{}, fmt.Errorf("git status: %w", err)
	}
	for p, s := range st {
		if s.Staging == git.Unmodified && s.Worktree == git.Unmodified {
			continue
		}
		gs.Files = append(gs.Files, FileStatus{Path: p, Staging: string(s.Staging), Worktree: string(s.Worktree)})
	}
	slices.SortFunc(gs.Files, func(a, b FileStatus) int { return strings.Compare(a.Path, b.Path) })
	gs.Clean = len(gs.Files) == 0
	return gs, nil
}
