package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/alice-trading/alice/core/jsonl"
)

// Store is the sessions directory.
type Store struct {
	dir    string
	mu     sync.Mutex
	locks  map[string]*sessionLock
	files  map[string]*jsonl.File
	healed map[string]jsonl.HealReport
	now    func() time.Time
	// summaries caches each session's browser summary with the offset it
	// was read to (browse.go).
	summaries map[string]*summaryState
}

// sessionLock is a per-session mutex (a one-slot channel, so waiting can
// be abandoned), dropped from the map when unused so the map does not
// grow with every session ever touched.
type sessionLock struct {
	slot chan struct{}
	refs int
}

// NewStore opens (creating) the sessions directory and heals the torn
// tail of every session file in it (cheap: one small read per file), so
// a crash's fragment is gone from the file after a restart, kept in
// "<id>.jsonl.torn".
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	s := &Store{dir: dir, locks: map[string]*sessionLock{}, files: map[string]*jsonl.File{},
		healed: map[string]jsonl.HealReport{}, now: time.Now, summaries: map[string]*summaryState{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		rep, err := jsonl.Heal(p)
		if err != nil {
			return err
		}
		if rep.Healed() {
			rel, _ := filepath.Rel(dir, p)
			s.healed[filepath.ToSlash(strings.TrimSuffix(rel, ".jsonl"))] = rep
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sessions: heal %s: %w", dir, err)
	}
	return s, nil
}

// Dir is the sessions directory.
func (s *Store) Dir() string { return s.dir }

// Healed lists the files NewStore repaired (id → what was cut), for the
// start-up log.
func (s *Store) Healed() map[string]jsonl.HealReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]jsonl.HealReport, len(s.healed))
	for k, v := range s.healed {
		out[k] = v
	}
	return out
}

// Lock serialises a whole read-modify-append sequence on one session (the
// agent holds it for a turn so two turns never interleave). Call the
// returned func exactly once to release it.
func (s *Store) Lock(id string) (unlock func()) {
	unlock, _ = s.LockContext(context.Background(), id)
	return unlock
}

// LockContext is Lock that gives up when ctx ends (a turn cancelled while
// queued behind another one).
func (s *Store) LockContext(ctx context.Context, id string) (unlock func(), err error) {
	s.mu.Lock()
	l, ok := s.locks[id]
	if !ok {
		l = &sessionLock{slot: make(chan struct{}, 1)}
		s.locks[id] = l
	}
	l.refs++
	s.mu.Unlock()
	release := func() {
		s.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(s.locks, id)
		}
		s.mu.Unlock()
	}
	select {
	case l.slot <- struct{}{}:
		return func() { <-l.slot; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// Path returns the file of a session after validating its id and checking
// the cleaned path stays inside the directory.
func (s *Store) Path(id string) (string, error) {
	if err := ValidateID(id); err != nil {
		return "", err
	}
	p := filepath.Join(s.dir, filepath.FromSlash(id)+".jsonl")
	rel, err := filepath.Rel(s.dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w %q: escapes the sessions folder", ErrBadID, id)
	}
	return p, nil
}

// file returns the session's JSONL file for appending (healed on first
// use). Reads go through the path instead, so reading an unknown session
// creates nothing.
func (s *Store) file(id string) (*jsonl.File, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.files[id]; ok {
		return f, nil
	}
	f, err := jsonl.Open(p, jsonl.Options{})
	if err != nil {
		return nil, err
	}
	s.files[id] = f
	return f, nil
}

// Read returns every parseable line of a session (missing = empty). A
// corrupt line is skipped, never fatal. Prefer ReadActive or EachActive:
// this reads the whole file.
func (s *Store) Read(id string) ([]Entry, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, err
	}
	var out []Entry
	err = jsonl.Forward(p, func(line []byte) bool {
		var e Entry
		if json.Unmarshal(line, &e) == nil {
			out = append(out, e)
		}
		return true
	})
	return out, err
}

var boundaryMark = []byte("compact_boundary")

// isBoundary reports a compact boundary entry.
func isBoundary(e Entry) bool { return e.Type == "system" && e.Subtype == "compact_boundary" }

// isConversation is what the active window keeps.
func isConversation(e Entry) bool {
	return e.Type == "user" || e.Type == "assistant" || e.Type == "system"
}

// EachActive calls fn with the active window's entries (user, assistant,
// system) newest first, ending with the last compact boundary, until fn
// returns false. It reads the file backwards, so stopping early costs
// only what was read.
func (s *Store) EachActive(id string, fn func(Entry) bool) error {
	return s.eachBackward(id, true, fn)
}

// EachAll is EachActive across compact boundaries: every conversation
// entry of the session, newest first (what a person scrolls back through;
// the model sees only the active window).
func (s *Store) EachAll(id string, fn func(Entry) bool) error {
	return s.eachBackward(id, false, fn)
}

func (s *Store) eachBackward(id string, stopAtBoundary bool, fn func(Entry) bool) error {
	p, err := s.Path(id)
	if err != nil {
		return err
	}
	sc, err := jsonl.Backward(p)
	if err != nil {
		return err
	}
	defer sc.Close()
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Line(), &e) != nil || !isConversation(e) {
			continue
		}
		if !fn(e) || (stopAtBoundary && isBoundary(e)) {
			break
		}
	}
	return sc.Err()
}

// ReadActive returns the conversation entries (user/assistant/system) from
// the last compact boundary on, oldest first. It reads only that window.
func (s *Store) ReadActive(id string) ([]Entry, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, err
	}
	lines, err := jsonl.Since(p, func(line []byte) bool {
		if !bytes.Contains(line, boundaryMark) {
			return false
		}
		var e Entry
		return json.Unmarshal(line, &e) == nil && isBoundary(e)
	})
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(lines))
	for _, l := range lines {
		var e Entry
		if json.Unmarshal(l, &e) == nil && isConversation(e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// Active keeps user/assistant/system entries from the last boundary on.
func Active(all []Entry) []Entry {
	start := 0
	for i, e := range all {
		if isBoundary(e) {
			start = i
		}
	}
	var out []Entry
	for _, e := range all[start:] {
		if isConversation(e) {
			out = append(out, e)
		}
	}
	return out
}

// TextTail returns a page of the active window as text messages, oldest
// first: the newest `offset` messages are skipped and up to limit before
// them returned; more reports that older messages exist. It reads only as
// far back as the page needs.
func (s *Store) TextTail(id string, limit, offset int, includeTools bool) (msgs []TextMessage, more bool, err error) {
	want := offset + limit
	var rev []TextMessage
	err = s.EachActive(id, func(e Entry) bool {
		m := ToTextHistory([]Entry{e}, includeTools)
		if len(m) == 0 {
			return true
		}
		if len(rev) == want {
			more = true
			return false
		}
		rev = append(rev, m[0])
		return true
	})
	if err != nil {
		return nil, false, err
	}
	if len(rev) <= offset {
		return []TextMessage{}, more, nil
	}
	rev = rev[offset:]
	out := make([]TextMessage, len(rev))
	for i, m := range rev {
		out[len(rev)-1-i] = m
	}
	return out, more, nil
}

// Append writes entries to a session, chaining parentUuid from the last
// line and filling uuid/sessionId/timestamp/cwd when empty. The batch is
// one write, so its lines land together. Callers holding Lock(id) use
// AppendLocked instead.
func (s *Store) Append(id string, entries ...Entry) ([]Entry, error) {
	unlock := s.Lock(id)
	defer unlock()
	return s.AppendLocked(id, entries...)
}

// AppendLocked is Append for callers holding Lock(id).
func (s *Store) AppendLocked(id string, entries ...Entry) ([]Entry, error) {
	f, err := s.file(id)
	if err != nil {
		return nil, err
	}
	prev, err := lastUUID(f)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	lines := make([][]byte, 0, len(entries))
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if e.UUID == "" {
			e.UUID = uuid.NewString()
		}
		if e.ParentUUID == nil && prev != "" {
			p := prev
			e.ParentUUID = &p
		}
		e.SessionID = id
		if e.Timestamp == "" {
			e.Timestamp = s.now().UTC().Format(time.RFC3339Nano)
		}
		if e.Cwd == "" {
			e.Cwd = cwd
		}
		line, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
		prev = e.UUID
		out = append(out, e)
	}
	if err := f.Append(lines...); err != nil {
		return nil, err
	}
	return out, nil
}

// lastUUID is the uuid of the newest parseable line ("" for a new file),
// read from the end of the file.
func lastUUID(f *jsonl.File) (string, error) {
	sc, err := f.Backward()
	if err != nil {
		return "", err
	}
	defer sc.Close()
	for sc.Scan() {
		var e struct {
			UUID string `json:"uuid"`
		}
		if json.Unmarshal(sc.Line(), &e) == nil && e.UUID != "" {
			return e.UUID, nil
		}
	}
	return "", sc.Err()
}
