package inbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/pubsub"

	"github.com/google/uuid"
)

// DefaultLimit is the page size List uses when none is given.
const DefaultLimit = 100

// MaxLimit caps a page so a caller cannot ask for the whole file at once.
const MaxLimit = 1000

// ErrNotFound is returned by Delete and Get for an unknown id.
var ErrNotFound = errors.New("inbox entry not found")

// EventKind says what happened to the inbox.
type EventKind string

// Event kinds published to subscribers.
const (
	EventAppended EventKind = "appended"
	EventRemoved  EventKind = "removed"
)

// Event is a live update for the Inbox tab. Entry is set for appends; ID is
// always set.
type Event struct {
	Kind  EventKind
	ID    string
	Entry Entry
}

// ListOptions selects a page of entries, newest first.
type ListOptions struct {
	Limit int // 0 means DefaultLimit
	// Before is an entry id cursor: only entries older than it are returned.
	Before string
	// WorkspaceID filters to one workspace when non-empty.
	WorkspaceID string
}

// Page is one List result.
type Page struct {
	Entries []Entry `json:"entries"`
	HasMore bool    `json:"hasMore"`
}

// Store is the append-only inbox file. Appends are one write per line with
// O_APPEND under a mutex and an flock on a sibling lock file, so concurrent
// goroutines and processes never interleave lines; Delete rewrites the file
// atomically under the same lock.
type Store struct {
	path   string
	lock   string
	mu     sync.Mutex
	events *pubsub.Broker[Event]
	now    func() time.Time
	log    *slog.Logger
}

// Open prepares a store at path (e.g. <data>/inbox/entries.jsonl), creating
// its directory. The file itself is created on first append.
func Open(path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.Default()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	return &Store{
		path:   path,
		lock:   path + ".lock",
		events: pubsub.New[Event](),
		now:    time.Now,
		log:    logger,
	}, nil
}

// Path returns the JSONL file path.
func (s *Store) Path() string { return s.path }

// Close ends all subscriptions.
func (s *Store) Close() error {
	s.events.Close()
	return nil
}

// Subscribe streams appended/removed events until ctx ends or Close.
func (s *Store) Subscribe(ctx context.Context) <-chan Event { return s.events.Subscribe(ctx) }

// withLock runs fn holding the in-process mutex and an exclusive flock.
func (s *Store) withLock(fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	lf, err := os.OpenFile(s.lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("inbox: lock: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("inbox: lock: %w", err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN) //nolint:errcheck
	return fn()
}

// Append validates e, assigns id and ts, and appends it. The stored entry is
// returned.
func (s *Store) Append(e Entry) (Entry, error) {
	if err := e.Validate(); err != nil {
		return Entry{}, err
	}
	e.ID = uuid.NewString()
	e.TS = s.now().UnixMilli()
	line, err := json.Marshal(e)
	if err != nil {
		return Entry{}, fmt.Errorf("inbox: encode: %w", err)
	}
	line = append(line, '\n')
	err = s.withLock(func() error {
		f, err := os.OpenFile(s.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		if torn, err := endsTorn(s.path); err != nil {
			return err
		} else if torn {
			// A crash left a partial last line: terminate it so the new
			// entry is not glued to garbage.
			line = append([]byte{'\n'}, line...)
		}
		if _, err := f.Write(line); err != nil {
			return err
		}
		return f.Sync()
	})
	if err != nil {
		return Entry{}, fmt.Errorf("inbox: append: %w", err)
	}
	s.events.PublishMustDeliver(Event{Kind: EventAppended, ID: e.ID, Entry: e})
	return e, nil
}

// endsTorn reports whether a non-empty file lacks a trailing newline.
func endsTorn(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil {
		return false, err
	}
	return b[0] != '\n', nil
}

// line is one raw line of the file plus its parsed entry, if it parsed.
type line struct {
	raw   []byte
	entry Entry
	ok    bool
}

func (s *Store) readLines() ([]line, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []line
	r := bufio.NewReaderSize(f, 64*1024)
	for n := 1; ; n++ {
		raw, err := r.ReadBytes('\n')
		if len(raw) > 0 {
			l := line{raw: bytes.TrimRight(raw, "\r\n")}
			if len(bytes.TrimSpace(l.raw)) > 0 {
				if jerr := json.Unmarshal(l.raw, &l.entry); jerr == nil && l.entry.ID != "" {
					l.ok = true
				} else {
					s.log.Warn("inbox: skipping unparseable line", "file", s.path, "line", n)
				}
				out = append(out, l)
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// List returns a page of entries, newest first.
func (s *Store) List(opts ListOptions) (Page, error) {
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	s.mu.Lock()
	lines, err := s.readLines()
	s.mu.Unlock()
	if err != nil {
		return Page{}, fmt.Errorf("inbox: read: %w", err)
	}
	start := len(lines) - 1
	if opts.Before != "" {
		start = -2
		for i := len(lines) - 1; i >= 0; i-- {
			if lines[i].ok && lines[i].entry.ID == opts.Before {
				start = i - 1
				break
			}
		}
		if start == -2 {
			return Page{}, fmt.Errorf("%w: cursor %q", ErrNotFound, opts.Before)
		}
	}
	page := Page{Entries: []Entry{}}
	for i := start; i >= 0; i-- {
		l := lines[i]
		if !l.ok || (opts.WorkspaceID != "" && l.entry.WorkspaceID != opts.WorkspaceID) {
			continue
		}
		if len(page.Entries) == limit {
			page.HasMore = true
			break
		}
		page.Entries = append(page.Entries, l.entry)
	}
	return page, nil
}

// Get returns one entry by id.
func (s *Store) Get(id string) (Entry, error) {
	s.mu.Lock()
	lines, err := s.readLines()
	s.mu.Unlock()
	if err != nil {
		return Entry{}, fmt.Errorf("inbox: read: %w", err)
	}
	for _, l := range lines {
		if l.ok && l.entry.ID == id {
			return l.entry, nil
		}
	}
	return Entry{}, fmt.Errorf("%w: %s", ErrNotFound, id)
}

// Delete removes an entry by atomically rewriting the file. Lines that do
// not parse are kept verbatim: deleting one entry must never lose data.
func (s *Store) Delete(id string) error {
	found := false
	err := s.withLock(func() error {
		lines, err := s.readLines()
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		for _, l := range lines {
			if l.ok && l.entry.ID == id {
				found = true
				continue
			}
			buf.Write(l.raw)
			buf.WriteByte('\n')
		}
		if !found {
			return nil
		}
		return config.WriteFileAtomic(s.path, buf.Bytes(), 0o600)
	})
	if err != nil {
		return fmt.Errorf("inbox: delete: %w", err)
	}
	if !found {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	s.events.PublishMustDeliver(Event{Kind: EventRemoved, ID: id})
	return nil
}
