//go:build !linux

package proctree

import (
	"log/slog"
	"time"
)

// Reaper does nothing outside Linux: there is no child subreaper, and
// orphans go to init.
type Reaper struct{}

// StartReaper returns an idle Reaper.
func StartReaper(*slog.Logger) *Reaper { return &Reaper{} }

// Close does nothing and returns 0.
func (r *Reaper) Close(time.Duration) int { return 0 }
