package connector

import (
	"encoding/json"
	"sync"

	"github.com/alice-trading/alice/core/jsonl"
)

// noteStore is sessions/notifications.jsonl on core/jsonl: one write per
// line (concurrent notifiers never interleave), a torn tail healed when
// the file is first used, recent notifications read from the end.
type noteStore struct {
	path string

	mu   sync.Mutex
	file *jsonl.File
}

// open returns the file, opening (and healing) it on first use.
func (s *noteStore) open() (*jsonl.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		f, err := jsonl.Open(s.path, jsonl.Options{})
		if err != nil {
			return nil, err
		}
		s.file = f
	}
	return s.file, nil
}

func (s *noteStore) append(n Notification) error {
	f, err := s.open()
	if err != nil {
		return err
	}
	return f.AppendJSON(n)
}

// recent returns up to limit of the newest notifications (limit <= 0:
// all), oldest first, skipping lines that do not parse.
func (s *noteStore) recent(limit int) ([]Notification, error) {
	lines, err := jsonl.Tail(s.path, limit, func(line []byte) bool {
		var n Notification
		return json.Unmarshal(line, &n) == nil && n.ID != ""
	})
	if err != nil {
		return nil, err
	}
	out := make([]Notification, 0, len(lines))
	for _, l := range lines {
		var n Notification
		_ = json.Unmarshal(l, &n)
		out = append(out, n)
	}
	return out, nil
}
