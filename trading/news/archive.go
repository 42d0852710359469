package news

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
)

// Archive is the persistent news store: an append-only JSONL file
// (core/jsonl: one write per batch, a torn last line healed on open) plus
// an in-memory window of the newest items. Loading reads the whole file
// once, because de-duplication needs every key ever stored.
type Archive struct {
	file *jsonl.File
	max  int
	log  *slog.Logger

	mu    sync.Mutex
	items []Item              // sorted by Time ascending, at most max
	seen  map[string]struct{} // keys of every item in the file
}

// OpenArchive loads path (creating its directory); maxInMemory bounds the
// in-memory window (values < 1 mean 2000). logger may be nil.
func OpenArchive(path string, maxInMemory int, logger *slog.Logger) (*Archive, error) {
	if maxInMemory < 1 {
		maxInMemory = 2000
	}
	if logger == nil {
		logger = slog.Default()
	}
	f, err := jsonl.Open(path, jsonl.Options{})
	if err != nil {
		return nil, fmt.Errorf("news archive: %w", err)
	}
	if rep := f.HealReport(); rep.Healed() {
		logger.Warn("news archive: healed a torn last line", "path", path, "cutBytes", rep.Cut, "keptIn", rep.TornPath)
	}
	a := &Archive{file: f, max: maxInMemory, log: logger, seen: map[string]struct{}{}}
	items, err := a.readFile()
	if err != nil {
		return nil, err
	}
	a.reset(items)
	return a, nil
}

// Path is the archive file.
func (a *Archive) Path() string { return a.file.Path() }

// readFile parses every line, skipping malformed ones.
func (a *Archive) readFile() ([]Item, error) {
	var items []Item
	bad := 0
	err := a.file.Forward(func(line []byte) bool {
		var it Item
		if err := json.Unmarshal(line, &it); err != nil || it.Title == "" {
			bad++
			return true
		}
		items = append(items, it)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("news archive: %w", err)
	}
	if bad > 0 {
		a.log.Warn("news archive: skipped malformed lines", "path", a.Path(), "count", bad)
	}
	return items, nil
}

// reset replaces the in-memory state. Callers hold mu (or own a).
func (a *Archive) reset(items []Item) {
	a.seen = make(map[string]struct{}, len(items))
	uniq := items[:0:0]
	for _, it := range items {
		if _, dup := a.seen[it.Key()]; dup {
			continue
		}
		a.seen[it.Key()] = struct{}{}
		uniq = append(uniq, it)
	}
	sort.SliceStable(uniq, func(i, j int) bool { return uniq[i].Time.Before(uniq[j].Time) })
	if len(uniq) > a.max {
		uniq = uniq[len(uniq)-a.max:]
	}
	a.items = uniq
}

// Add appends the items not seen before and returns how many were new.
func (a *Archive) Add(items []Item) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	added := 0
	for _, it := range items {
		k := it.Key()
		if _, dup := a.seen[k]; dup || it.Title == "" {
			continue
		}
		if err := a.file.AppendJSON(it); err != nil {
			return added, fmt.Errorf("news archive: %w", err)
		}
		a.seen[k] = struct{}{}
		// Insert keeping time order; feeds mostly deliver newest items, so
		// search from the end.
		i := sort.Search(len(a.items), func(i int) bool { return a.items[i].Time.After(it.Time) })
		a.items = append(a.items, Item{})
		copy(a.items[i+1:], a.items[i:])
		a.items[i] = it
		added++
	}
	if len(a.items) > a.max {
		a.items = append([]Item(nil), a.items[len(a.items)-a.max:]...)
	}
	return added, nil
}

// Compact rewrites the file keeping only items newer than now-retention
// and returns how many were dropped. The rewrite is atomic (temp + rename).
func (a *Archive) Compact(retention time.Duration, now time.Time) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	items, err := a.readFile()
	if err != nil {
		return 0, err
	}
	cutoff := now.Add(-retention)
	kept := items[:0]
	var lines [][]byte
	for _, it := range items {
		if it.Time.Before(cutoff) {
			continue
		}
		line, err := json.Marshal(it)
		if err != nil {
			return 0, err
		}
		lines = append(lines, line)
		kept = append(kept, it)
	}
	dropped := len(items) - len(kept)
	if dropped > 0 {
		if err := a.file.Rewrite(func(*jsonl.File) ([][]byte, error) { return lines, nil }); err != nil {
			return 0, fmt.Errorf("news archive compact: %w", err)
		}
	}
	a.reset(kept)
	return dropped, nil
}

// Len is the number of items in memory.
func (a *Archive) Len() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.items)
}

// Recent returns up to limit items with Time >= since (zero since: all),
// newest first.
func (a *Archive) Recent(since time.Time, limit int) []Item {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Item
	for i := len(a.items) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		if a.items[i].Time.Before(since) {
			break
		}
		out = append(out, a.items[i])
	}
	return out
}
