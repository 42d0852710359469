package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Log rotation defaults: alice.log is rotated when a write would take it
// past LogMaxBytes, keeping LogKeep older generations (alice.log.1 is the
// newest), so the log never holds more than about (LogKeep+1)×LogMaxBytes.
const (
	LogMaxBytes = 10 << 20
	LogKeep     = 3
	LogName     = "alice.log"
)

// OpenLog opens logs/alice.log with size-based rotation and returns a JSON
// slog logger on it. The TUI owns the terminal, so logs never go to stdout
// or stderr.
func OpenLog(dir string, level slog.Level) (*slog.Logger, io.Closer, error) {
	w, err := OpenRotating(filepath.Join(dir, LogName), LogMaxBytes, LogKeep)
	if err != nil {
		return nil, nil, err
	}
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, AddSource: level <= slog.LevelDebug})
	return slog.New(h), w, nil
}

// RotatingFile is an append-only file that rotates itself by size. Each
// Write lands whole in one generation (slog writes one record per call),
// so no record is split across files.
type RotatingFile struct {
	path     string
	maxBytes int64
	keep     int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenRotating opens (creating) path for appending.
func OpenRotating(path string, maxBytes int64, keep int) (*RotatingFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	r := &RotatingFile{path: path, maxBytes: maxBytes, keep: max(keep, 1)}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *RotatingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open log %s: %w", r.path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("open log %s: %w", r.path, err)
	}
	r.f, r.size = f, info.Size()
	return nil
}

// Write appends p, rotating first when p would take the file past the limit.
func (r *RotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	if r.size > 0 && r.size+int64(len(p)) > r.maxBytes {
		if err := r.rotate(); err != nil {
			// Keep logging into the current file rather than losing lines.
			fmt.Fprintf(r.f, `{"level":"ERROR","msg":"log rotation failed","err":%q}`+"\n", err.Error())
		}
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// rotate shifts alice.log.N-1 → .N … alice.log → .1 and reopens.
func (r *RotatingFile) rotate() error {
	if err := r.f.Close(); err != nil {
		return err
	}
	r.f = nil
	_ = os.Remove(r.path + "." + strconv.Itoa(r.keep))
	for i := r.keep - 1; i >= 1; i-- {
		from := r.path + "." + strconv.Itoa(i)
		if _, err := os.Stat(from); err == nil {
			if err := os.Rename(from, r.path+"."+strconv.Itoa(i+1)); err != nil {
				_ = r.open()
				return err
			}
		}
	}
	renameErr := os.Rename(r.path, r.path+".1")
	if err := r.open(); err != nil {
		return err
	}
	return renameErr
}

// Close closes the current file.
func (r *RotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
