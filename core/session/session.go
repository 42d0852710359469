// Package session stores conversations as one JSONL file per session in the
// Claude-Code-compatible line format the reference system uses, so its
// session files load here unchanged. The active window starts at the last
// compact boundary; writers to one session are serialised and a torn last
// line (a crash mid-write) is skipped on read and healed on the next append.
package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// Entry is one line of a session file.
type Entry struct {
	Type             string          `json:"type"` // user | assistant | system | meta
	Message          Message         `json:"message"`
	UUID             string          `json:"uuid"`
	ParentUUID       *string         `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	Timestamp        string          `json:"timestamp"`
	Provider         string          `json:"provider,omitempty"`
	Cwd              string          `json:"cwd,omitempty"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Subtype          string          `json:"subtype,omitempty"`
	CompactMetadata  *CompactMeta    `json:"compactMetadata,omitempty"`
	IsCompactSummary bool            `json:"isCompactSummary,omitempty"`
}

// CompactMeta records why and when a session was compacted.
type CompactMeta struct {
	Trigger   string `json:"trigger"` // auto | manual
	PreTokens int    `json:"preTokens"`
}

// Message is the role plus content: a string or content blocks.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Block is one content block.
type Block struct {
	Type      string          `json:"type"` // text | image | tool_use | tool_result
	Text      string          `json:"text,omitempty"`
	URL       string          `json:"url,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// Content is either a plain string or blocks; both JSON shapes load.
type Content struct {
	Text   string
	Blocks []Block
}

// MarshalJSON writes a string when there are no blocks.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Blocks == nil {
		return json.Marshal(c.Text)
	}
	return json.Marshal(c.Blocks)
}

// UnmarshalJSON accepts a string or an array of blocks.
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &c.Blocks)
}

// PlainText joins the text blocks (or returns the string content).
func (c Content) PlainText() string {
	if c.Blocks == nil {
		return c.Text
	}
	var parts []string
	for _, b := range c.Blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ErrBadID is returned for a session id that could escape the folder.
var ErrBadID = errors.New("invalid session id")

// ValidateID checks a session id: relative, slash-separated segments of
// printable characters, no "." or ".." segments, no backslashes.
func ValidateID(id string) error {
	if id == "" || len(id) > 200 {
		return fmt.Errorf("%w: must be 1..200 characters", ErrBadID)
	}
	if strings.HasPrefix(id, "/") || strings.Contains(id, "\\") {
		return fmt.Errorf("%w %q: must be a relative path without backslashes", ErrBadID, id)
	}
	for _, r := range id {
		if r == 0 || unicode.IsControl(r) {
			return fmt.Errorf("%w %q: control characters are not allowed", ErrBadID, id)
		}
	}
	for _, seg := range strings.Split(id, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%w %q: empty, \".\" and \"..\" segments are not allowed", ErrBadID, id)
		}
	}
	return nil
}

// Store is the sessions directory.
type Store struct {
	dir   string
	mu    sync.Mutex
	locks map[string]*sessionLock
	now   func() time.Time
}

// sessionLock is a per-session mutex (a one-slot channel, so waiting can
// be abandoned), dropped from the map when unused so the map does not
// grow with every session ever touched.
type sessionLock struct {
	slot chan struct{}
	refs int
}

// NewStore opens (creating) the sessions directory.
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Store{dir: dir, locks: map[string]*sessionLock{}, now: time.Now}, nil
}

// Dir is the sessions directory.
func (s *Store) Dir() string { return s.dir }

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

// Read returns every parseable line of a session (missing = empty). A torn
// or corrupt line is skipped, never fatal.
func (s *Store) Read(id string) ([]Entry, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		var e Entry
		if len(bytes.TrimSpace(sc.Bytes())) == 0 || json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// ReadActive returns the conversation entries (user/assistant/system) from
// the last compact boundary on.
func (s *Store) ReadActive(id string) ([]Entry, error) {
	all, err := s.Read(id)
	if err != nil {
		return nil, err
	}
	return Active(all), nil
}

// Active keeps user/assistant/system entries from the last boundary on.
func Active(all []Entry) []Entry {
	start := 0
	for i, e := range all {
		if e.Type == "system" && e.Subtype == "compact_boundary" {
			start = i
		}
	}
	var out []Entry
	for _, e := range all[start:] {
		if e.Type == "user" || e.Type == "assistant" || e.Type == "system" {
			out = append(out, e)
		}
	}
	return out
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
	p, err := s.Path(id)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	prev, err := s.lastUUID(p)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := healTail(p, f); err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	var buf bytes.Buffer
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
		buf.Write(line)
		buf.WriteByte('\n')
		prev = e.UUID
		out = append(out, e)
	}
	// One write for the batch keeps lines whole under O_APPEND.
	if _, err := f.Write(buf.Bytes()); err != nil {
		return nil, err
	}
	return out, nil
}

// lastUUID finds the uuid of the last parseable line, reading the file
// backwards in growing windows so appends to a long session stay cheap.
func (s *Store) lastUUID(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := info.Size()
	for window := int64(64 * 1024); ; window *= 4 {
		off := max(0, size-window)
		buf := make([]byte, size-off)
		if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		lines := bytes.Split(buf, []byte("\n"))
		first := 0
		if off > 0 {
			first = 1 // the first piece may be the tail of a longer line
		}
		for i := len(lines) - 1; i >= first; i-- {
			var e struct {
				UUID string `json:"uuid"`
			}
			if json.Unmarshal(lines[i], &e) == nil && e.UUID != "" {
				return e.UUID, nil
			}
		}
		if off == 0 {
			return "", nil
		}
	}
}

// healTail ends a torn last line with a newline so new lines start clean.
func healTail(path string, f *os.File) error {
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	b := make([]byte, 1)
	if _, err := r.ReadAt(b, info.Size()-1); err != nil {
		return err
	}
	if b[0] != '\n' {
		_, err = f.Write([]byte("\n"))
	}
	return err
}

// Info describes one session file.
type Info struct {
	ID           string    `json:"id"`
	SizeBytes    int64     `json:"sizeBytes"`
	LastModified time.Time `json:"lastModified"`
}

// List returns every session (recursively), newest first.
func (s *Store) List() ([]Info, error) {
	var out []Info
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		id := filepath.ToSlash(strings.TrimSuffix(rel, ".jsonl"))
		if id == "notifications" || ValidateID(id) != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		out = append(out, Info{ID: id, SizeBytes: info.Size(), LastModified: info.ModTime()})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].LastModified.After(out[j].LastModified) })
	return out, err
}
