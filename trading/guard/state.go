package guard

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/jsonl"

	"github.com/shopspring/decimal"
)

// StateFile is the name of an account's guard memory in its data dir
// (<data>/trading/<accountId>/guard-state.jsonl).
const StateFile = "guard-state.jsonl"

// State is what guards remember between operations (the cooldown's last
// execution per symbol, the daily-loss guard's own day-start equity).
// With a file it is an append-only JSONL log, one record per change,
// written (and fsynced) before the change is used, so it survives a
// restart, a crash (a torn last line is healed on open) and a config
// reload (one State per file per process, shared by every pipeline
// built for the account). Without a file it is memory only (alice check,
// tests). Safe for concurrent use.
type State struct {
	mu   sync.Mutex
	f    *jsonl.File
	recs map[stateKey]stateRecord
}

type stateKey struct{ guard, key string }

// stateRecord is one line: the guard type, its key (a symbol, a day), the
// time it refers to and, for daily-loss, the equity.
type stateRecord struct {
	Guard string          `json:"guard"`
	Key   string          `json:"key"`
	Time  time.Time       `json:"time"`
	Value decimal.Decimal `json:"value,omitzero"`
}

// NewMemoryState is a State that is not persisted.
func NewMemoryState() *State { return &State{recs: map[stateKey]stateRecord{}} }

var (
	statesMu sync.Mutex
	states   = map[string]*State{}
)

// OpenState loads the state at path (created when missing). The same path
// gives the same State for the life of the process, so a rebuilt account
// (accounts.json reload) keeps what its guards remembered in memory too.
func OpenState(path string) (*State, error) {
	statesMu.Lock()
	defer statesMu.Unlock()
	if s, ok := states[path]; ok {
		return s, nil
	}
	s, err := loadState(path)
	if err != nil {
		return nil, err
	}
	states[path] = s
	return s, nil
}

// loadState reads the file at path into a new State (what a new process
// does; OpenState shares it within one).
func loadState(path string) (*State, error) {
	f, err := jsonl.Open(path, jsonl.Options{Sync: true})
	if err != nil {
		return nil, fmt.Errorf("guard state: %w", err)
	}
	s := &State{f: f, recs: map[stateKey]stateRecord{}}
	lines := 0
	err = f.Forward(func(line []byte) bool {
		lines++
		var r stateRecord
		if json.Unmarshal(line, &r) != nil || r.Guard == "" {
			return true // a hand-edited or corrupt line: skipped
		}
		k := stateKey{r.Guard, r.Key}
		if old, ok := s.recs[k]; !ok || !r.Time.Before(old.Time) {
			s.recs[k] = r
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("guard state %s: %w", path, err)
	}
	if lines > 2*len(s.recs)+64 {
		if err := s.compact(time.Now()); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// compact rewrites the file with the latest record per key, dropping
// records too old to matter (longer ago than the longest cooldown, or a
// day-start equity of an earlier day).
func (s *State) compact(now time.Time) error {
	cutoff := now.Add(-time.Duration(maxCooldownMs)*time.Millisecond - 24*time.Hour)
	var keep []stateRecord
	for k, r := range s.recs {
		if r.Time.Before(cutoff) {
			delete(s.recs, k)
			continue
		}
		keep = append(keep, r)
	}
	sort.Slice(keep, func(i, j int) bool { return keep[i].Time.Before(keep[j].Time) })
	return s.f.Rewrite(func(*jsonl.File) ([][]byte, error) {
		out := make([][]byte, 0, len(keep))
		for _, r := range keep {
			b, err := json.Marshal(r)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
		return out, nil
	})
}

func (s *State) get(guard, key string) (stateRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[stateKey{guard, key}]
	return r, ok
}

// put persists the record first, then remembers it. A record that could
// not be written is still remembered (the guard stays armed for this
// process) and the error returned for the caller to report.
func (s *State) put(r stateRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.f != nil {
		err = s.f.AppendJSON(r)
	}
	s.recs[stateKey{r.Guard, r.Key}] = r
	return err
}

// putIfAbsent is put for a key not yet set; it returns the record kept.
func (s *State) putIfAbsent(r stateRecord) (stateRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.recs[stateKey{r.Guard, r.Key}]; ok {
		return old, nil
	}
	var err error
	if s.f != nil {
		err = s.f.AppendJSON(r)
	}
	s.recs[stateKey{r.Guard, r.Key}] = r
	return r, err
}
