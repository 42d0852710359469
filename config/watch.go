package config

import (
	"context"
	"time"
)

// Watch calls onChange whenever the file's bytes change (created, edited,
// replaced by an atomic rename, removed), checking every interval until
// ctx ends. It polls a hash rather than using inotify: config files are
// tiny, editors replace them by rename (which breaks inotify watches on the
// file), and polling behaves the same on every OS. since is the version
// the caller already knows about; onChange runs on the watching goroutine.
func (s *Store) Watch(ctx context.Context, name string, since Version, interval time.Duration, onChange func(Version)) {
	last := since
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := s.FileVersion(name)
		if err != nil || v == last {
			continue
		}
		last = v
		onChange(v)
	}
}
