package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
)

// maxLogBytes is the size at which alice.log is rotated on start-up.
const maxLogBytes = 20 << 20

// OpenLog opens logs/alice.log (rotating one generation when it is large)
// and returns a JSON slog logger on it. The TUI owns the terminal, so logs
// never go to stdout or stderr.
func OpenLog(dir string, level slog.Level) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, "alice.log")
	if info, err := os.Stat(path); err == nil && info.Size() > maxLogBytes {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log %s: %w", path, err)
	}
	h := slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level, AddSource: level <= slog.LevelDebug})
	return slog.New(h), f, nil
}
