package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// A workspace directory belongs to the agents working in it: a session
// can put a symlink anywhere in it (a directory on the way to a file, the
// .git directory itself, .mcp.json), and alice's core, which is not
// sandboxed, must never follow one out of the workspace — a diff would
// show alice's operator key, a refresh of .mcp.json would overwrite
// accounts.json. So every file the core reads or writes in a workspace
// goes through an *os.Root (which resolves each path beneath the
// directory, symlinks included, without a race), and go-git gets rootFS,
// a billy.Filesystem over one.

// rootFS is a billy.Filesystem whose every path stays beneath one
// directory (an *os.Root).
type rootFS struct {
	root *os.Root
	dir  string // what Root reports

	mu   sync.Mutex
	subs []*rootFS // Chroot's, closed with this one
}

func openRootFS(dir string) (*rootFS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootFS{root: r, dir: dir}, nil
}

// Close releases the directory (and every Chroot of it).
func (f *rootFS) Close() error {
	f.mu.Lock()
	subs := f.subs
	f.subs = nil
	f.mu.Unlock()
	for _, s := range subs {
		_ = s.Close()
	}
	return f.root.Close()
}

// rel turns a name go-git passes (relative, or absolute beneath Root)
// into one for the root; any other absolute name stays absolute, which
// the root refuses.
func (f *rootFS) rel(name string) string {
	name = filepath.FromSlash(name)
	if filepath.IsAbs(name) {
		if r, err := filepath.Rel(f.dir, name); err == nil && filepath.IsLocal(r) {
			return r
		}
		if filepath.Clean(name) == filepath.Clean(f.dir) {
			return "."
		}
		return name
	}
	if name == "" {
		return "."
	}
	return filepath.Clean(name)
}

func (f *rootFS) mkParent(name string) error {
	if d := filepath.Dir(name); d != "." {
		return f.root.MkdirAll(d, 0o755)
	}
	return nil
}

func (f *rootFS) Create(name string) (billy.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (f *rootFS) Open(name string) (billy.File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name non-blocking and keeps it only if it is a regular
// file or a directory: a FIFO a session put in the workspace would
// otherwise hang the core (git add reading it) until someone wrote to it.
func (f *rootFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	r := f.rel(name)
	if flag&os.O_CREATE != 0 {
		if err := f.mkParent(r); err != nil {
			return nil, err
		}
	}
	file, err := f.root.OpenFile(r, flag|openNonblock, perm)
	if err != nil {
		return nil, err
	}
	if err := regularOrDir(file); err != nil {
		_ = file.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &rootFile{File: file, name: name}, nil
}

// errNotRegular refuses a FIFO, socket or device in a workspace.
var errNotRegular = errors.New("not a regular file")

func regularOrDir(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return errNotRegular
	}
	return nil
}

// readRegular reads name beneath root when it is a regular file, opening
// it non-blocking: a FIFO or device never blocks the core (errNotRegular).
// size is the file's size; past max nothing is read (b is nil) and the
// caller tells of a file too large by size > max.
func readRegular(root *os.Root, name string, max int64) (b []byte, size int64, err error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, &fs.PathError{Op: "read", Path: name, Err: errNotRegular}
	}
	if fi.Size() > max {
		return nil, fi.Size(), nil
	}
	b, err = io.ReadAll(io.LimitReader(f, max+1))
	if int64(len(b)) > max { // grew while read
		return nil, int64(len(b)), err
	}
	return b, int64(len(b)), err
}

func (f *rootFS) Stat(name string) (os.FileInfo, error)  { return f.root.Stat(f.rel(name)) }
func (f *rootFS) Lstat(name string) (os.FileInfo, error) { return f.root.Lstat(f.rel(name)) }

func (f *rootFS) Rename(from, to string) error {
	t := f.rel(to)
	if err := f.mkParent(t); err != nil {
		return err
	}
	return f.root.Rename(f.rel(from), t)
}

func (f *rootFS) Remove(name string) error { return f.root.Remove(f.rel(name)) }

func (f *rootFS) Join(elem ...string) string { return filepath.Join(elem...) }

func (f *rootFS) TempFile(dir, prefix string) (billy.File, error) {
	d := f.rel(dir)
	if err := f.root.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	for range 100 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		name := filepath.Join(d, prefix+hex.EncodeToString(b[:]))
		file, err := f.root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &rootFile{File: file, name: filepath.Join(dir, filepath.Base(name))}, nil
	}
	return nil, fmt.Errorf("temp file in %s: too many collisions", dir)
}

func (f *rootFS) ReadDir(name string) ([]os.FileInfo, error) {
	d, err := f.root.Open(f.rel(name))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]os.FileInfo, 0, len(entries))
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, fi)
	}
	slices.SortFunc(out, func(a, b os.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

func (f *rootFS) MkdirAll(name string, perm os.FileMode) error {
	return f.root.MkdirAll(f.rel(name), perm)
}

func (f *rootFS) Symlink(target, link string) error {
	l := f.rel(link)
	if err := f.mkParent(l); err != nil {
		return err
	}
	return f.root.Symlink(target, l)
}

func (f *rootFS) Readlink(name string) (string, error) { return f.root.Readlink(f.rel(name)) }

func (f *rootFS) Chroot(name string) (billy.Filesystem, error) {
	r := f.rel(name)
	sub, err := f.root.OpenRoot(r)
	if err != nil {
		return nil, err
	}
	s := &rootFS{root: sub, dir: filepath.Join(f.dir, r)}
	f.mu.Lock()
	f.subs = append(f.subs, s)
	f.mu.Unlock()
	return s, nil
}

func (f *rootFS) Root() string { return f.dir }

// rootFile is an open file of a rootFS; Name is the name it was opened by.
type rootFile struct {
	*os.File
	name string
}

func (r *rootFile) Name() string  { return r.name }
func (r *rootFile) Lock() error   { return lockFile(r.File) }
func (r *rootFile) Unlock() error { return unlockFile(r.File) }

// workspaceRepo is a workspace's git repository opened through rootFS: its
// work tree and its .git directory, which must be a directory of the
// workspace (not a symlink, nor a "gitdir:" file pointing elsewhere).
type workspaceRepo struct {
	*git.Repository
	fs *rootFS
}

// openRepo opens the repository at dir; Close it after use.
func openWorkspaceRepo(dir string) (*workspaceRepo, error) {
	wt, err := openRootFS(dir)
	if err != nil {
		return nil, err
	}
	fi, err := wt.root.Lstat(".git")
	if err != nil {
		_ = wt.Close()
		return nil, fmt.Errorf("%w: %v", git.ErrRepositoryNotExists, err)
	}
	if !fi.IsDir() {
		_ = wt.Close()
		return nil, fmt.Errorf("%w: .git is not a directory of the workspace", git.ErrRepositoryNotExists)
	}
	dotgit, err := wt.Chroot(".git")
	if err != nil {
		_ = wt.Close()
		return nil, err
	}
	repo, err := git.Open(filesystem.NewStorage(dotgit, cache.NewObjectLRUDefault()), wt)
	if err != nil {
		_ = wt.Close()
		return nil, err
	}
	return &workspaceRepo{Repository: repo, fs: wt}, nil
}

// Close releases the directories.
func (r *workspaceRepo) Close() error { return r.fs.Close() }
