package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// Lock file names inside the data dir. The lock file only carries the
// flock; the owner's details live in a separate file that is replaced
// atomically (renaming over the locked file would break the lock).
const (
	LockFile      = "alice.lock"
	LockOwnerFile = "alice.lock.json"
)

// LockOwner describes the process holding a data dir, so a second alice
// can say who to stop.
type LockOwner struct {
	PID       int            `json:"pid"`
	Command   string         `json:"command"` // "alice", "alice serve"
	Started   time.Time      `json:"started"`
	Listeners []LockListener `json:"listeners,omitempty"`
}

// LockListener is one endpoint the owner serves.
type LockListener struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// LockedError is returned when another process owns the data dir.
type LockedError struct {
	Dir   string
	Owner *LockOwner // nil when its details could not be read yet
}

func (e *LockedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is already in use by another alice", e.Dir)
	if o := e.Owner; o != nil {
		fmt.Fprintf(&b, " (pid %d, %q, started %s", o.PID, o.Command, o.Started.UTC().Format(time.RFC3339))
		if len(o.Listeners) > 0 {
			parts := make([]string, 0, len(o.Listeners))
			for _, l := range o.Listeners {
				parts = append(parts, l.Name+" "+l.URL)
			}
			fmt.Fprintf(&b, "; listening: %s", strings.Join(parts, ", "))
		}
		b.WriteString(")")
	} else {
		b.WriteString(" (its pid is not recorded yet)")
	}
	b.WriteString(". One data dir has one owner: stop that process first, or use another --home")
	return b.String()
}

// DataLock is exclusive ownership of a data dir for the life of the
// process (an flock: the kernel drops it if the process dies, so a crash
// never leaves a stale lock).
type DataLock struct {
	dir   string
	fl    *flock.Flock
	owner LockOwner
}

// LockDataDir creates dir if needed and takes its lock without waiting.
// If another process holds it, the error is a *LockedError naming that
// process. command is recorded for the other side's message.
func LockDataDir(dir, command string) (*DataLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	fl := flock.New(filepath.Join(dir, LockFile))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if !ok {
		le := &LockedError{Dir: dir}
		if o, err := ReadLockOwner(dir); err == nil {
			le.Owner = &o
		}
		return nil, le
	}
	l := &DataLock{dir: dir, fl: fl, owner: LockOwner{PID: os.Getpid(), Command: command, Started: time.Now().UTC()}}
	if err := l.writeOwner(); err != nil {
		_ = fl.Unlock()
		return nil, err
	}
	return l, nil
}

// ReadLockOwner reads the owner details of a data dir (they may be stale
// when nobody holds the lock).
func ReadLockOwner(dir string) (LockOwner, error) {
	var o LockOwner
	b, err := os.ReadFile(filepath.Join(dir, LockOwnerFile))
	if err != nil {
		return o, err
	}
	return o, json.Unmarshal(b, &o)
}

// SetListeners records the bound endpoints once they are up.
func (l *DataLock) SetListeners(ls []LockListener) error {
	l.owner.Listeners = ls
	return l.writeOwner()
}

func (l *DataLock) writeOwner() error {
	b, err := json.MarshalIndent(l.owner, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(l.dir, LockOwnerFile), append(b, '\n'), 0o600)
}

// Release removes the owner file and drops the lock.
func (l *DataLock) Release() error {
	if l == nil || l.fl == nil {
		return nil
	}
	rmErr := os.Remove(filepath.Join(l.dir, LockOwnerFile))
	if errors.Is(rmErr, os.ErrNotExist) {
		rmErr = nil
	}
	err := errors.Join(rmErr, l.fl.Unlock())
	l.fl = nil
	return err
}

// LockHeld reports whether a process holds dir's lock. It probes with a
// shared lock for an instant and writes nothing (LockDataDir would
// rewrite the owner file).
func LockHeld(dir string) (bool, error) {
	path := filepath.Join(dir, LockFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	fl := flock.New(path)
	ok, err := fl.TryRLock()
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", dir, err)
	}
	if ok {
		_ = fl.Unlock()
	}
	return !ok, nil
}
