package session

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

// Summary describes a session for a browser: its title (set by hand, else
// the first message), when it was last active, how many messages it has
// and a preview of the newest one.
type Summary struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// TitleSet is true when the title was set by hand (SetTitle).
	TitleSet     bool      `json:"titleSet,omitempty"`
	LastActivity time.Time `json:"lastActivity"`
	// Messages counts user and assistant messages with text (tool calls,
	// tool results and compaction summaries are not messages).
	Messages int `json:"messages"`
	// Preview is the newest message's first line, cut with an ellipsis.
	Preview     string `json:"preview"`
	PreviewRole string `json:"previewRole,omitempty"`
	SizeBytes   int64  `json:"sizeBytes"`
	// Match is the message that matched a search (empty when the title,
	// id or preview matched, or without a query).
	Match string `json:"match,omitempty"`
}

// Title lengths: an automatic title is the first message's first line cut
// to TitleMax runes; previews are cut to PreviewMax.
const (
	TitleMax   = 60
	PreviewMax = 120
)

// summaryState is the cached, incrementally updated summary of one file:
// only lines after offset are read on the next call.
type summaryState struct {
	offset   int64
	sum      Summary
	autoName string
}

// metaTitle is the metadata of a "meta" line that names a session.
type metaTitle struct {
	Title *string `json:"title"`
}

// SetTitle names a session by hand (title "" goes back to the automatic
// title). The name is a "meta" line appended to the session itself, so it
// is persisted with the conversation and removed with it; the line has no
// uuid and never joins the message chain.
func (s *Store) SetTitle(id, title string) error {
	title = strings.TrimSpace(oneLine(title))
	if len([]rune(title)) > 200 {
		return fmt.Errorf("a title is at most 200 characters")
	}
	meta, err := json.Marshal(metaTitle{Title: &title})
	if err != nil {
		return err
	}
	unlock := s.Lock(id)
	defer unlock()
	f, err := s.file(id)
	if err != nil {
		return err
	}
	line, err := json.Marshal(map[string]any{"type": "meta", "subtype": "title", "sessionId": id,
		"timestamp": s.now().UTC().Format(time.RFC3339Nano), "metadata": json.RawMessage(meta)})
	if err != nil {
		return err
	}
	return f.Append(line)
}

// ErrNoSession is returned when deleting a session that does not exist.
var ErrNoSession = errors.New("no such session")

// Delete removes a session's file (and its .torn side file). It waits for
// a running turn on the session to finish first.
func (s *Store) Delete(id string) error {
	p, err := s.Path(id)
	if err != nil {
		return err
	}
	unlock := s.Lock(id)
	defer unlock()
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w %q", ErrNoSession, id)
		}
		return err
	}
	_ = os.Remove(p + ".torn")
	s.mu.Lock()
	delete(s.files, id)
	delete(s.summaries, id)
	s.mu.Unlock()
	return nil
}

// Summaries describes sessions, most recently active first. prefix keeps
// ids starting with it; query (case-insensitive) keeps sessions whose id,
// title or any message text contains it, and for a message match fills
// Match with that message.
func (s *Store) Summaries(prefix, query string) ([]Summary, error) {
	infos, err := s.ListPage(ListOptions{Prefix: prefix})
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(strings.TrimSpace(query))
	out := make([]Summary, 0, len(infos.Sessions))
	for _, in := range infos.Sessions {
		sum, err := s.Summary(in.ID)
		if err != nil {
			return nil, err
		}
		if q != "" {
			if !strings.Contains(strings.ToLower(sum.ID+"\n"+sum.Title+"\n"+sum.Preview), q) {
				m, err := s.firstMatch(in.ID, q)
				if err != nil {
					return nil, err
				}
				if m == "" {
					continue
				}
				sum.Match = m
			}
		}
		out = append(out, sum)
	}
	sortSummaries(out)
	return out, nil
}

func sortSummaries(list []Summary) {
	less := func(a, b Summary) bool {
		if !a.LastActivity.Equal(b.LastActivity) {
			return a.LastActivity.After(b.LastActivity)
		}
		return a.ID < b.ID
	}
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && less(list[j], list[j-1]); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
}

// Summary describes one session, reading only what was appended since
// the last call (a rewritten or shorter file is read again from the
// start).
func (s *Store) Summary(id string) (Summary, error) {
	p, err := s.Path(id)
	if err != nil {
		return Summary{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Summary{}, fmt.Errorf("%w %q", ErrNoSession, id)
		}
		return Summary{}, err
	}
	s.mu.Lock()
	cur, ok := s.summaries[id]
	var state summaryState
	if ok {
		state = *cur
	}
	s.mu.Unlock()
	if !ok || st.Size() < state.offset {
		state = summaryState{sum: Summary{ID: id}}
	}
	if st.Size() > state.offset {
		if err := state.advance(p); err != nil {
			return Summary{}, err
		}
	}
	state.sum.SizeBytes = st.Size()
	if state.sum.LastActivity.IsZero() {
		state.sum.LastActivity = st.ModTime()
	}
	s.mu.Lock()
	s.summaries[id] = &state
	s.mu.Unlock()
	out := state.sum
	if !out.TitleSet {
		out.Title = state.autoName
	}
	if out.Title == "" {
		out.Title = id
	}
	return out, nil
}

// advance reads the complete lines after st.offset.
func (st *summaryState) advance(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(st.offset, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			// A line without its newline is still being written (or is a
			// torn tail): read it next time.
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		st.offset += int64(len(line))
		st.apply(line)
	}
}

// apply folds one line into the summary.
func (st *summaryState) apply(line []byte) {
	var e Entry
	if json.Unmarshal(line, &e) != nil {
		return
	}
	if ts, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil && ts.After(st.sum.LastActivity) {
		st.sum.LastActivity = ts
	}
	if e.Type == "meta" && e.Subtype == "title" {
		var m metaTitle
		if json.Unmarshal(e.Metadata, &m) == nil && m.Title != nil {
			st.sum.Title, st.sum.TitleSet = *m.Title, *m.Title != ""
		}
		return
	}
	text, ok := messageText(e)
	if !ok {
		return
	}
	st.sum.Messages++
	if st.autoName == "" && e.Type == "user" {
		st.autoName = clipRunes(oneLine(text), TitleMax)
	}
	st.sum.Preview, st.sum.PreviewRole = clipRunes(oneLine(text), PreviewMax), e.Type
}

// messageText is the text of a user or assistant message; ok is false for
// anything that is not one (tool results, compaction lines, meta).
func messageText(e Entry) (string, bool) {
	if (e.Type != "user" && e.Type != "assistant") || e.IsCompactSummary || e.Provider == "compaction" {
		return "", false
	}
	text := strings.TrimSpace(e.Message.Content.PlainText())
	return text, text != ""
}

// clipRunes cuts s to n runes, the last being "…" when anything was cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// oneLine is the first non-empty line of s, trimmed.
func oneLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// firstMatch returns the first message whose text contains q (already
// lower-case), cut around the match, or "".
func (s *Store) firstMatch(id, q string) (string, error) {
	p, err := s.Path(id)
	if err != nil {
		return "", err
	}
	found := ""
	// JSON escapes only these (and control characters): without them in
	// the query, a raw line that lacks it cannot hold it.
	rawComparable := !strings.ContainsAny(q, "\"\\<>&")
	err = forwardLines(p, func(line []byte) bool {
		if rawComparable && !strings.Contains(strings.ToLower(string(line)), q) {
			return true
		}
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			return true
		}
		text, ok := messageText(e)
		if !ok {
			return true
		}
		lower := strings.ToLower(text)
		i := strings.Index(lower, q)
		if i < 0 {
			return true
		}
		found = snippet(text, i, len(q))
		return false
	})
	return found, err
}

// snippet cuts text around [i, i+n) to about PreviewMax runes on one line,
// marking cut ends with "…".
func snippet(text string, i, n int) string {
	flat := strings.Join(strings.Fields(text), " ")
	// Positions shift when whitespace is collapsed; find again in flat.
	if j := strings.Index(strings.ToLower(flat), strings.ToLower(text[i:i+n])); j >= 0 {
		i = j
	} else {
		i = 0
	}
	r := []rune(flat)
	start := len([]rune(flat[:i])) - PreviewMax/3
	if start < 0 {
		start = 0
	}
	end := start + PreviewMax
	if end > len(r) {
		end = len(r)
	}
	out := string(r[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(r) {
		out += "…"
	}
	return out
}

// forwardLines calls fn for each complete line of the file until it
// returns false.
func forwardLines(path string, fn func([]byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if !fn(line) {
			return nil
		}
	}
}
