package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
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
	// NextCursor is the Before value for the next (older) page; empty on
	// the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// Store is the append-only inbox file (core/jsonl): one fsynced write per
// entry, a torn tail healed on open, pages read backwards from the end so
// showing the newest entries costs what is shown, not the whole file.
// Delete rewrites the file atomically under the append lock.
type Store struct {
	file   *jsonl.File
	events *pubsub.Broker[Event]
	now    func() time.Time
	log    *slog.Logger
}

// Open prepares a store at path (e.g. <data>/inbox/entries.jsonl), creating
// its directory and healing a torn last line. The file itself is created on
// first append.
func Open(path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.Default()
	}
	f, err := jsonl.Open(path, jsonl.Options{Sync: true})
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	if rep := f.HealReport(); rep.Healed() {
		logger.Warn("inbox: healed a torn last line", "file", path, "cutBytes", rep.Cut, "keptIn", rep.TornPath, "salvaged", rep.Salvaged)
	}
	return &Store{file: f, events: pubsub.New[Event](), now: time.Now, log: logger}, nil
}

// Path returns the JSONL file path.
func (s *Store) Path() string { return s.file.Path() }

// Close ends all subscriptions.
func (s *Store) Close() error {
	s.events.Close()
	return nil
}

// Subscribe streams appended/removed events until ctx ends or Close.
func (s *Store) Subscribe(ctx context.Context) <-chan Event { return s.events.Subscribe(ctx) }

// Append validates e, assigns id and ts, and appends it. The stored entry is
// returned.
func (s *Store) Append(e Entry) (Entry, error) {
	if err := e.Validate(); err != nil {
		return Entry{}, err
	}
	e.ID = uuid.NewString()
	e.TS = s.now().UnixMilli()
	if err := s.file.AppendJSON(e); err != nil {
		return Entry{}, fmt.Errorf("inbox: append: %w", err)
	}
	s.events.PublishMustDeliver(Event{Kind: EventAppended, ID: e.ID, Entry: e})
	return e, nil
}

// parse decodes one line; ok is false for lines that are not entries.
func parse(raw []byte) (Entry, bool) {
	var e Entry
	if json.Unmarshal(raw, &e) != nil || e.ID == "" {
		return Entry{}, false
	}
	return e, true
}

// List returns a page of entries, newest first, reading backwards from the
// end of the file until the page is full (and one more entry, to know
// whether there are older ones).
func (s *Store) List(opts ListOptions) (Page, error) {
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	page := Page{Entries: []Entry{}}
	found := opts.Before == ""
	bad := 0
	err := jsonl.Each(s.file.Path(), func(raw []byte) bool {
		e, ok := parse(raw)
		if !ok {
			bad++
			return true
		}
		if !found {
			found = e.ID == opts.Before
			return true
		}
		if opts.WorkspaceID != "" && e.WorkspaceID != opts.WorkspaceID {
			return true
		}
		if len(page.Entries) == limit {
			page.HasMore = true
			return false
		}
		page.Entries = append(page.Entries, e)
		return true
	})
	if err != nil {
		return Page{}, fmt.Errorf("inbox: read: %w", err)
	}
	if bad > 0 {
		s.log.Warn("inbox: skipped unparseable lines", "file", s.file.Path(), "count", bad)
	}
	if !found {
		return Page{}, fmt.Errorf("%w: cursor %q", ErrNotFound, opts.Before)
	}
	if page.HasMore {
		page.NextCursor = page.Entries[len(page.Entries)-1].ID
	}
	return page, nil
}

// Get returns one entry by id, searching from the newest.
func (s *Store) Get(id string) (Entry, error) {
	var out Entry
	found := false
	err := jsonl.Each(s.file.Path(), func(raw []byte) bool {
		if e, ok := parse(raw); ok && e.ID == id {
			out, found = e, true
			return false
		}
		return true
	})
	if err != nil {
		return Entry{}, fmt.Errorf("inbox: read: %w", err)
	}
	if !found {
		return Entry{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return out, nil
}

// Delete removes an entry by atomically rewriting the file. Lines that do
// not parse are kept verbatim: deleting one entry must never lose data.
func (s *Store) Delete(id string) error {
	found := false
	err := s.file.Rewrite(func(old *jsonl.File) ([][]byte, error) {
		var keep [][]byte
		err := old.Forward(func(raw []byte) bool {
			if e, ok := parse(raw); ok && e.ID == id {
				found = true
				return true
			}
			keep = append(keep, append([]byte(nil), raw...))
			return true
		})
		if err == nil && !found {
			err = errNothingToDelete
		}
		return keep, err
	})
	if errors.Is(err, errNothingToDelete) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("inbox: delete: %w", err)
	}
	s.events.PublishMustDeliver(Event{Kind: EventRemoved, ID: id})
	return nil
}

// errNothingToDelete aborts a rewrite that would change nothing.
var errNothingToDelete = errors.New("nothing to delete")
