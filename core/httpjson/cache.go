package httpjson

import (
	"sync"
	"time"
)

// cache keeps successful answers for ttl, evicting the oldest stored entry
// when full.
type cache struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	seq     uint64
	entries map[string]cacheEntry
}

type cacheEntry struct {
	resp Response
	at   time.Time
	seq  uint64 // insertion order, for eviction
}

func newCache(ttl time.Duration, entries int, now func() time.Time) *cache {
	if entries <= 0 {
		entries = 256
	}
	return &cache{ttl: ttl, max: entries, now: now, entries: map[string]cacheEntry{}}
}

// get returns a copy, so a caller cannot change what the next one reads.
func (c *cache) get(key string) (*Response, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	if c.now().Sub(e.at) > c.ttl {
		delete(c.entries, key)
		return nil, false
	}
	r := e.resp
	r.Body = append([]byte(nil), e.resp.Body...)
	r.Header = e.resp.Header.Clone()
	r.Cached = true
	return &r, true
}

func (c *cache) put(key string, r *Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		var oldest string
		var seq uint64
		for k, e := range c.entries {
			if oldest == "" || e.seq < seq {
				oldest, seq = k, e.seq
			}
		}
		delete(c.entries, oldest)
	}
	stored := *r
	stored.Body = append([]byte(nil), r.Body...)
	stored.Header = r.Header.Clone()
	c.seq++
	c.entries[key] = cacheEntry{resp: stored, at: c.now(), seq: c.seq}
}
