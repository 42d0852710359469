// Package jsonl is the one storage layer for alice's append-only JSONL
// files (sessions, inbox, event log, notifications, news archive, tool-call
// log). It exists so the rules every such store needs live in one place:
//
//   - Append writes a batch of lines with a single write(2) on an O_APPEND
//     descriptor under an in-process mutex, so concurrent goroutines never
//     interleave or split lines (the data-dir lock keeps other processes
//     out; see config.LockDataDir).
//   - Open heals a torn tail (a crash mid-write): the file is truncated to
//     its last complete line and the cut bytes are kept in "<file>.torn",
//     so nothing is silently lost and the next line never lands glued to a
//     fragment. A tail that is a complete JSON value missing only its
//     newline is salvaged instead (a newline is added).
//   - Readers go backwards from the end in blocks (Backward, Tail, Since),
//     so "the last 20 lines" or "everything since the last compaction
//     boundary" costs time proportional to what is returned, not to the
//     size of the file.
//
// A line that is not valid JSON in the middle of a file (hand-edited,
// disk corruption) is left where it is; readers decide to skip it.
package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/alice-trading/alice/config"
)

// TornSuffix names the side file that keeps bytes cut from a torn tail.
const TornSuffix = ".torn"

// Options tune a File.
type Options struct {
	// Sync fsyncs after every append (for stores where a lost line is
	// worse than a slower write, such as the inbox).
	Sync bool
	// Perm is the mode for a new file (default 0600: data is private).
	Perm os.FileMode
}

// File is one append-only JSONL file. It holds no descriptor between
// calls, so a store may keep one File per session without running out of
// descriptors; all methods are safe for concurrent use.
type File struct {
	path string
	opts Options

	mu    sync.Mutex
	dirty bool // a write failed: heal before the next append
	heal  HealReport
}

// HealReport says what Open did to the tail of the file.
type HealReport struct {
	// Cut is how many bytes were removed from the end (0: nothing torn).
	Cut int64
	// Salvaged is true when the tail was a complete JSON value without
	// its newline and was kept (a newline was added) instead of cut.
	Salvaged bool
	// TornPath is the side file the cut bytes were appended to.
	TornPath string
}

// Healed reports whether anything was repaired.
func (r HealReport) Healed() bool { return r.Cut > 0 || r.Salvaged }

// Open prepares the file at path: its directory is created, the file is
// created empty if missing, and a torn tail is healed.
func Open(path string, opts Options) (*File, error) {
	if opts.Perm == 0 {
		opts.Perm = 0o600
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("jsonl: %w", err)
	}
	f := &File{path: path, opts: opts}
	rep, err := Heal(path)
	if err != nil {
		return nil, err
	}
	f.heal = rep
	return f, nil
}

// Path is the file's path.
func (f *File) Path() string { return f.path }

// HealReport is what Open repaired (zero when the file was clean).
func (f *File) HealReport() HealReport {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.heal
}

// Size is the current length of the file (0 when missing).
func (f *File) Size() (int64, error) {
	st, err := os.Stat(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// ErrNewline is returned by Append for a line containing a newline: it
// would become two lines on disk.
var ErrNewline = errors.New("jsonl: line contains a newline")

// Append writes lines (each without its trailing newline) as one write.
// Either every line of the batch is on disk or, after a failed write, the
// partial bytes are cut (into the .torn file) before the next append.
// Keep one File per path in a process: healing assumes no other writer.
func (f *File) Append(lines ...[]byte) error {
	if len(lines) == 0 {
		return nil
	}
	n := 0
	for _, l := range lines {
		if bytes.IndexByte(l, '\n') >= 0 {
			return ErrNewline
		}
		n += len(l) + 1
	}
	buf := make([]byte, 0, n)
	for _, l := range lines {
		buf = append(buf, l...)
		buf = append(buf, '\n')
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	fd, err := os.OpenFile(f.path, os.O_CREATE|os.O_RDWR|os.O_APPEND, f.opts.Perm)
	if err != nil {
		return fmt.Errorf("jsonl: %w", err)
	}
	switch {
	case f.dirty:
		// Our own write failed part-way: cut its fragment into .torn.
		if _, err := Heal(f.path); err != nil {
			fd.Close()
			return err
		}
		f.dirty = false
	case endsTorn(fd):
		// Someone else's bytes end without a newline: a foreign writer
		// died mid-line, or is still writing (another File on this path,
		// whose write a reader can see half done). Truncating could cut
		// a live write, so only start our batch on a fresh line; the
		// fragment, if it stays one, is skipped by readers.
		buf = append([]byte{'\n'}, buf...)
	}
	_, werr := fd.Write(buf)
	if werr == nil && f.opts.Sync {
		werr = fd.Sync()
	}
	cerr := fd.Close()
	if werr != nil {
		f.dirty = true
		return fmt.Errorf("jsonl: write %s: %w", f.path, werr)
	}
	if cerr != nil {
		return fmt.Errorf("jsonl: %w", cerr)
	}
	return nil
}

// endsTorn reports whether a non-empty file lacks its final newline.
func endsTorn(fd *os.File) bool {
	st, err := fd.Stat()
	if err != nil || st.Size() == 0 {
		return false
	}
	b := make([]byte, 1)
	if _, err := fd.ReadAt(b, st.Size()-1); err != nil {
		return false
	}
	return b[0] != '\n'
}

// AppendJSON marshals each value onto its own line and appends them in one
// write.
func (f *File) AppendJSON(values ...any) error {
	lines := make([][]byte, 0, len(values))
	for _, v := range values {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("jsonl: encode: %w", err)
		}
		lines = append(lines, b)
	}
	return f.Append(lines...)
}

// Rewrite replaces the whole file atomically (temp file + rename) with
// the lines fn yields, holding the append lock so no line is lost in
// between. fn reads the current lines with Forward.
func (f *File) Rewrite(fn func(old *File) ([][]byte, error)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	lines, err := fn(f)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, l := range lines {
		if bytes.IndexByte(l, '\n') >= 0 {
			return ErrNewline
		}
		buf.Write(l)
		buf.WriteByte('\n')
	}
	if err := config.WriteFileAtomic(f.path, buf.Bytes(), f.opts.Perm); err != nil {
		return fmt.Errorf("jsonl: rewrite %s: %w", f.path, err)
	}
	f.dirty = false
	return nil
}

// Forward calls fn for every complete line, oldest first, until fn
// returns false. A trailing line without its newline (a write still in
// progress) is not passed. The slice is only valid during the call.
func (f *File) Forward(fn func(line []byte) bool) error {
	return Forward(f.path, fn)
}

// Forward is File.Forward for a path (missing file: no lines).
func Forward(path string, fn func(line []byte) bool) error {
	fd, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer fd.Close()
	const block = 64 << 10
	buf := make([]byte, 0, block)
	chunk := make([]byte, block)
	for {
		n, rerr := fd.Read(chunk)
		buf = append(buf, chunk[:n]...)
		start := 0
		for {
			i := bytes.IndexByte(buf[start:], '\n')
			if i < 0 {
				break
			}
			line := buf[start : start+i]
			start += i + 1
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			if !fn(line) {
				return nil
			}
		}
		buf = append(buf[:0], buf[start:]...)
		if errors.Is(rerr, io.EOF) {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}
