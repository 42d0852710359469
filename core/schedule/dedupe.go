package schedule

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
)

// dedupWindow is how long the heartbeat stays quiet about a message it
// already delivered.
const dedupWindow = 24 * time.Hour

// sentFile keeps the heartbeat's delivered texts (as hashes) with when
// they were sent: {"sent":[{"hash","atMs"}]}.
const sentFile = "schedule/heartbeat-sent.json"

type sentEntry struct {
	Hash string `json:"hash"`
	AtMs int64  `json:"atMs"`
}

// sentStore is the heartbeat's duplicate memory over the 24 h window. It
// lives on disk so a restart does not make the heartbeat repeat an alert
// the user already has; only hashes are kept (the texts are in the event
// log and the notification log).
type sentStore struct {
	path string

	mu      sync.Mutex
	entries []sentEntry
}

func openSentStore(dataDir string) (*sentStore, error) {
	s := &sentStore{path: filepath.Join(dataDir, sentFile)}
	removeStaleTemps(s.path)
	b, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	var f struct {
		Sent []sentEntry `json:"sent"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		// A damaged memory must not stop alice: at worst one alert repeats.
		return s, nil
	}
	s.entries = f.Sent
	return s, nil
}

func textHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// seen reports whether text was delivered within the window before now.
func (s *sentStore) seen(text string, now time.Time) bool {
	h := textHash(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.entries {
		if e.Hash == h && now.Sub(time.UnixMilli(e.AtMs)) < dedupWindow {
			return true
		}
	}
	return false
}

// record remembers text as delivered at now and forgets entries older
// than the window; the file is replaced atomically.
func (s *sentStore) record(text string, now time.Time) error {
	h := textHash(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.entries[:0:0]
	for _, e := range s.entries {
		if e.Hash != h && now.Sub(time.UnixMilli(e.AtMs)) < dedupWindow {
			kept = append(kept, e)
		}
	}
	s.entries = append(kept, sentEntry{Hash: h, AtMs: now.UnixMilli()})
	b, err := json.Marshal(map[string]any{"sent": s.entries})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	if err := config.WriteFileAtomic(s.path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}
