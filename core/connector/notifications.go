package connector

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// noteStore is sessions/notifications.jsonl: append-only, one write per
// line under a mutex with O_APPEND so concurrent notifiers never interleave.
type noteStore struct {
	path string
	mu   sync.Mutex
}

func (s *noteStore) append(n Notification) error {
	line, err := json.Marshal(n)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(s.path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	// A crash mid-write leaves a torn last line; start on a fresh line so
	// this record is not glued onto it.
	if torn, err := endsTorn(f); err != nil {
		return err
	} else if torn {
		line = append([]byte{'\n'}, line...)
	}
	_, err = f.Write(append(line, '\n'))
	return err
}

// endsTorn reports whether a non-empty file lacks a final newline.
func endsTorn(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return false, err
	}
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, st.Size()-1); err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return b[0] != '\n', nil
}

// recent reads the file, skipping lines that do not parse (a torn tail).
func (s *noteStore) recent(limit int) ([]Notification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Notification
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var n Notification
		if json.Unmarshal(sc.Bytes(), &n) != nil || n.ID == "" {
			continue
		}
		out = append(out, n)
		if limit > 0 && len(out) > limit {
			out = out[1:]
		}
	}
	return out, sc.Err()
}
