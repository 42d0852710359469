// Package watchlist keeps the Market pane's watchlist: an ordered list of
// symbols (with their asset class) persisted in <data>/market/watchlist.json.
// Every change is written (temp file + fsync + rename) before it is
// reported, so an acknowledged add or remove survives a crash.
package watchlist

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/alice-trading/alice/config"
)

// Item is one watched instrument.
type Item struct {
	Symbol string `json:"symbol"`
	Class  string `json:"class,omitempty"` // equity (default) | crypto | currency | commodity
}

// file is the on-disk shape.
type file struct {
	Items []Item `json:"items"`
}

// MaxItems bounds the list (each item is quoted while the pane is open).
const MaxItems = 50

var symbolRe = regexp.MustCompile(`^[A-Z0-9][A-Z0-9.\-/=^:]{0,23}$`)

var classes = []string{"equity", "crypto", "currency", "commodity"}

// Normalize upper-cases and checks a symbol.
func Normalize(symbol string) (string, error) {
	s := strings.ToUpper(strings.TrimSpace(symbol))
	if !symbolRe.MatchString(s) {
		return "", fmt.Errorf("%q is not a symbol (letters, digits and . - / = ^ :, at most 24)", symbol)
	}
	return s, nil
}

// Store is the watchlist file.
type Store struct {
	path string
	mu   sync.Mutex
}

// Open uses <dataDir>/market/watchlist.json (created on the first change).
func Open(dataDir string) *Store {
	return &Store{path: filepath.Join(dataDir, "market", "watchlist.json")}
}

// Path is the file's location.
func (s *Store) Path() string { return s.path }

// List returns the items in order (empty when the file does not exist).
func (s *Store) List() ([]Item, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read()
}

func (s *Store) read() ([]Item, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return []Item{}, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("watchlist %s: %w", s.path, err)
	}
	if f.Items == nil {
		f.Items = []Item{}
	}
	return f.Items, nil
}

func (s *Store) write(items []Item) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(file{Items: items}, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(s.path, append(data, '\n'), 0o600)
}

// Add appends a symbol (class "" means equity); adding one already there
// is a no-op. It returns the new list.
func (s *Store) Add(symbol, class string) ([]Item, error) {
	sym, err := Normalize(symbol)
	if err != nil {
		return nil, err
	}
	if class == "" {
		class = "equity"
	}
	if !slices.Contains(classes, class) {
		return nil, fmt.Errorf("unknown asset class %q (one of %s)", class, strings.Join(classes, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	items, err := s.read()
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(items, func(it Item) bool { return it.Symbol == sym }) {
		return items, nil
	}
	if len(items) >= MaxItems {
		return nil, fmt.Errorf("the watchlist holds at most %d symbols", MaxItems)
	}
	items = append(items, Item{Symbol: sym, Class: class})
	if err := s.write(items); err != nil {
		return nil, err
	}
	return items, nil
}

// Remove drops a symbol; removing one not there is a no-op.
func (s *Store) Remove(symbol string) ([]Item, error) {
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	s.mu.Lock()
	defer s.mu.Unlock()
	items, err := s.read()
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(slices.Clone(items), func(it Item) bool { return it.Symbol == sym })
	if len(out) == len(items) {
		return items, nil
	}
	if err := s.write(out); err != nil {
		return nil, err
	}
	return out, nil
}
