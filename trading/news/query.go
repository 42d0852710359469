package news

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// PoolSize is how many of the most recent items a query searches; indices
// returned by globNews/grepNews address this pool (0 = newest).
const PoolSize = 500

// maxPattern bounds regex size; Go's RE2 is linear-time, so length is the
// only cost to guard.
const maxPattern = 1000

// ParseLookback reads "30m", "1h", "12h", "1d", "7d", "2w"; "" means no
// limit (zero duration).
func ParseLookback(s string) (time.Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return 0, nil
	}
	unit := s[len(s)-1]
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 1 || n > 100000 {
		return 0, fmt.Errorf("invalid lookback %q (want e.g. 1h, 12h, 1d, 7d)", s)
	}
	switch unit {
	case 'm':
		return time.Duration(n) * time.Minute, nil
	case 'h':
		return time.Duration(n) * time.Hour, nil
	case 'd':
		return time.Duration(n) * 24 * time.Hour, nil
	case 'w':
		return time.Duration(n) * 7 * 24 * time.Hour, nil
	}
	return 0, fmt.Errorf("invalid lookback %q (want e.g. 1h, 12h, 1d, 7d)", s)
}

// Query is the shared part of glob/grep/read arguments.
type Query struct {
	Lookback       string            `json:"lookback,omitempty"`
	MetadataFilter map[string]string `json:"metadataFilter,omitempty"`
}

// Searcher answers news queries against an archive.
type Searcher struct {
	archive *Archive
	now     func() time.Time
}

// NewSearcher builds a searcher; now may be nil (time.Now).
func NewSearcher(a *Archive, now func() time.Time) *Searcher {
	if now == nil {
		now = time.Now
	}
	return &Searcher{archive: a, now: now}
}

// pool is the most recent PoolSize items within lookback, newest first.
func (s *Searcher) pool(lookback string) ([]Item, error) {
	d, err := ParseLookback(lookback)
	if err != nil {
		return nil, err
	}
	var since time.Time
	if d > 0 {
		since = s.now().Add(-d)
	}
	return s.archive.Recent(since, PoolSize), nil
}

func compile(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, fmt.Errorf("pattern is required (use \".\" to match everything)")
	}
	if len(pattern) > maxPattern {
		return nil, fmt.Errorf("pattern is longer than %d characters", maxPattern)
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid pattern %q: %v", pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

func checkFilter(f map[string]string) error {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch strings.ToLower(k) {
		case "source", "feed", "category", "categories":
		default:
			return fmt.Errorf("unknown metadataFilter key %q (want one of %s)", k, strings.Join(metadataKeys, ", "))
		}
	}
	return nil
}

func matchesFilter(it Item, f map[string]string) bool {
	for k, v := range f {
		if !it.Metadata.matches(k, v) {
			return false
		}
	}
	return true
}

// metaSummary is the metadata as compact JSON cut to 40 characters, to
// keep listing results small.
func metaSummary(m Metadata) string {
	b, _ := json.Marshal(m)
	return truncate(string(b), 40)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// GlobHit is one globNews row.
type GlobHit struct {
	Index         int    `json:"index"`
	Title         string `json:"title"`
	Time          string `json:"time"`
	ContentLength int    `json:"contentLength"`
	Metadata      string `json:"metadata"`
}

// DefaultLimit is how many rows glob/grep return when no limit is given.
const DefaultLimit = 50

func clampLimit(limit int) int {
	switch {
	case limit <= 0:
		return DefaultLimit
	case limit > PoolSize:
		return PoolSize
	}
	return limit
}

// Glob matches pattern against titles.
func (s *Searcher) Glob(pattern string, q Query, limit int) ([]GlobHit, error) {
	re, err := compile(pattern)
	if err != nil {
		return nil, err
	}
	if err := checkFilter(q.MetadataFilter); err != nil {
		return nil, err
	}
	pool, err := s.pool(q.Lookback)
	if err != nil {
		return nil, err
	}
	out := []GlobHit{}
	for i, it := range pool {
		if len(out) >= clampLimit(limit) {
			break
		}
		if matchesFilter(it, q.MetadataFilter) && re.MatchString(it.Title) {
			out = append(out, GlobHit{Index: i, Title: it.Title, Time: it.Time.Format(time.RFC3339),
				ContentLength: len(it.Content), Metadata: metaSummary(it.Metadata)})
		}
	}
	return out, nil
}

// GrepHit is one grepNews row.
type GrepHit struct {
	Index         int    `json:"index"`
	Title         string `json:"title"`
	MatchedText   string `json:"matchedText"`
	ContentLength int    `json:"contentLength"`
	Metadata      string `json:"metadata"`
}

// Grep matches pattern against title + "\n" + content and returns the
// first match with contextChars of context on each side.
func (s *Searcher) Grep(pattern string, q Query, contextChars, limit int) ([]GrepHit, error) {
	re, err := compile(pattern)
	if err != nil {
		return nil, err
	}
	if err := checkFilter(q.MetadataFilter); err != nil {
		return nil, err
	}
	if contextChars < 0 || contextChars > 2000 {
		return nil, fmt.Errorf("contextChars must be 0..2000, got %d", contextChars)
	}
	pool, err := s.pool(q.Lookback)
	if err != nil {
		return nil, err
	}
	out := []GrepHit{}
	for i, it := range pool {
		if len(out) >= clampLimit(limit) {
			break
		}
		if !matchesFilter(it, q.MetadataFilter) {
			continue
		}
		text := it.Title + "\n" + it.Content
		loc := re.FindStringIndex(text)
		if loc == nil {
			continue
		}
		out = append(out, GrepHit{Index: i, Title: it.Title, MatchedText: excerpt(text, loc[0], loc[1], contextChars),
			ContentLength: len(it.Content), Metadata: metaSummary(it.Metadata)})
	}
	return out, nil
}

// excerpt cuts text[start:end] plus ctx runes either side, marking cuts
// with "...".
func excerpt(text string, start, end, ctx int) string {
	from := start
	for n := 0; n < ctx && from > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	to := end
	for n := 0; n < ctx && to < len(text); n++ {
		_, size := utf8.DecodeRuneInString(text[to:])
		to += size
	}
	s := strings.ReplaceAll(text[from:to], "\n", " ")
	if from > 0 {
		s = "..." + s
	}
	if to < len(text) {
		s += "..."
	}
	return s
}

// Read returns the pool item at index.
func (s *Searcher) Read(index int, lookback string) (Item, error) {
	pool, err := s.pool(lookback)
	if err != nil {
		return Item{}, err
	}
	if index < 0 || index >= len(pool) {
		return Item{}, fmt.Errorf("index %d out of range: %d items within lookback %q (use the same lookback as the globNews/grepNews call)", index, len(pool), lookback)
	}
	return pool[index], nil
}

var errIndexRequired = fmt.Errorf("index is required")
