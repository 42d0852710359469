package news

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
)

// Archive is the persistent news store: an append-only JSONL file plus an
// in-memory window of the newest items. Appends are one write(2) per line
// on an O_APPEND descriptor under a mutex, so lines never interleave; a torn
// last line (crash mid-write) is skipped on load.
type Archive struct {
	path string
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
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("news archive: %w", err)
	}
	a := &Archive{path: path, max: maxInMemory, log: logger, seen: map[string]struct{}{}}
	items, err := a.readFile()
	if err != nil {
		return nil, err
	}
	a.reset(items)
	return a, nil
}

// Path is the archive file.
func (a *Archive) Path() string { return a.path }

// readFile parses every line, skipping malformed ones. If the file does not
// end in a newline (torn write) one is added so later appends start clean.
func (a *Archive) readFile() ([]Item, error) {
	data, err := os.ReadFile(a.path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("news archive: %w", err)
	}
	var items []Item
	bad := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var it Item
		if err := json.Unmarshal(line, &it); err != nil || it.Title == "" {
			bad++
			continue
		}
		items = append(items, it)
	}
	if bad > 0 {
		a.log.Warn("news archive: skipped malformed lines", "path", a.path, "count", bad)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		if err := a.appendRaw([]byte("\n")); err != nil {
			return nil, err
		}
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

func (a *Archive) appendRaw(b []byte) error {
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("news archive: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("news archive: %w", werr)
	}
	return cerr
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
		line, err := json.Marshal(it)
		if err != nil {
			return added, fmt.Errorf("news archive: %w", err)
		}
		if err := a.appendRaw(append(line, '\n')); err != nil {
			return added, err
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
	var buf bytes.Buffer
	kept := items[:0]
	for _, it := range items {
		if it.Time.Before(cutoff) {
			continue
		}
		line, err := json.Marshal(it)
		if err != nil {
			return 0, err
		}
		buf.Write(line)
		buf.WriteByte('\n')
		kept = append(kept, it)
	}
	dropped := len(items) - len(kept)
	if dropped > 0 || buf.Len() != fileSize(a.path) {
		if err := config.WriteFileAtomic(a.path, buf.Bytes(), 0o600); err != nil {
			return 0, fmt.Errorf("news archive compact: %w", err)
		}
	}
	a.reset(kept)
	return dropped, nil
}

func fileSize(path string) int {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return int(st.Size())
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
