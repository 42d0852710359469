package config

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch calls onChange whenever the file's bytes change (created, edited,
// replaced by an atomic rename, removed) until ctx ends. since is the
// version the caller already knows about; onChange runs on the watching
// goroutine.
//
// It is told by the OS (inotify, kqueue) about the file's directory — not
// the file, whose watch an editor's save-by-rename would end — and hashes
// the file only after it changed and its writes settled (watchSettle), so
// an idle core wakes for nothing. Where the OS cannot watch (no inotify instances left,
// an unsupported file system) it checks the file's hash every interval
// instead.
func (s *Store) Watch(ctx context.Context, name string, since Version, interval time.Duration, onChange func(Version)) {
	last := since
	check := func() {
		v, err := s.FileVersion(name)
		if err != nil || v == last {
			return
		}
		last = v
		onChange(v)
	}
	path := s.Path(name)
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if err = w.Add(filepath.Dir(path)); err != nil {
			_ = w.Close()
		}
	}
	if err != nil {
		s.poll(ctx, interval, check)
		return
	}
	defer w.Close()
	// The file is read once its events have been quiet for watchSettle: a
	// program writing in place truncates first (an empty file) and writes
	// after. The timer runs only while events are arriving, and once at
	// the start for a change between the caller reading since and the
	// watch starting.
	settle := time.NewTimer(watchSettle)
	defer settle.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == filepath.Clean(path) {
				settle.Reset(watchSettle)
			}
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
			// An overflow loses events: look at the file itself.
			settle.Reset(watchSettle)
		case <-settle.C:
			check()
		}
	}
}

// watchSettle is how long a watched file's events must be quiet before it
// is read.
const watchSettle = 100 * time.Millisecond

// poll runs check every interval until ctx ends (Watch without OS
// notifications).
func (s *Store) poll(ctx context.Context, interval time.Duration, check func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			check()
		}
	}
}
