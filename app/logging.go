package app

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"gopkg.in/natefinch/lumberjack.v2"
)

// Log rotation defaults: alice.log is rotated by lumberjack when a write
// would take it past LogMaxMB megabytes; the rotated file is renamed
// alice-<UTC time>.log and at most LogKeep of them are kept, so the logs
// never hold much more than (LogKeep+1)×LogMaxMB.
const (
	LogMaxMB = 10
	LogKeep  = 3
	LogName  = "alice.log"
)

// OpenLog opens logs/alice.log with size-based rotation and returns a JSON
// slog logger on it. The TUI owns the terminal, so logs never go to stdout
// or stderr.
func OpenLog(dir string, level slog.Level) (*slog.Logger, io.Closer, error) {
	w, err := OpenRotating(filepath.Join(dir, LogName), LogMaxMB, LogKeep)
	if err != nil {
		return nil, nil, err
	}
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, AddSource: level <= slog.LevelDebug})
	return slog.New(h), w, nil
}

// OpenRotating returns an append-only writer on path that rotates by size
// (maxMB megabytes, keeping keep old files). Each Write lands whole in one
// file (slog writes one record per call), so no record is split across
// files. lumberjack starts one goroutine per writer to delete old files; it
// has no way to stop it, so alice opens its log once per process.
func OpenRotating(path string, maxMB, keep int) (*lumberjack.Logger, error) {
	// lumberjack would create the folder world-readable; logs may quote
	// account ids and prompts.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	w := &lumberjack.Logger{Filename: path, MaxSize: max(maxMB, 1), MaxBackups: max(keep, 1)}
	// An empty write opens (creating) the file now, so a bad path fails
	// here and `alice logs -f` finds the file from the start.
	if _, err := w.Write(nil); err != nil {
		return nil, err
	}
	return w, nil
}
