// Package eventlog is Alice's persistent, append-only event bus: trade
// submissions, heartbeat results, cron fires and errors are appended to a
// JSONL file (core/jsonl) and kept in an in-memory ring of the most recent
// entries. Writes go to disk first, then memory, then subscribers.
package eventlog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
	"github.com/alice-trading/alice/core/pubsub"
)

// RingSize is how many recent entries stay in memory.
const RingSize = 500

// Entry is one line of events.jsonl.
type Entry struct {
	Seq      int64           `json:"seq"`
	TS       int64           `json:"ts"` // epoch milliseconds
	Type     string          `json:"type"`
	Payload  json.RawMessage `json:"payload"`
	CausedBy int64           `json:"causedBy,omitempty"`
}

// Log is the event log. It is safe for concurrent use.
type Log struct {
	mu     sync.Mutex
	file   *jsonl.File
	closed bool
	seq    int64
	ring   []Entry // circular, len ≤ RingSize
	start  int
	broker *pubsub.Broker[Entry]
	now    func() time.Time
	healed jsonl.HealReport
}

// Open opens (creating if needed) the log at path and recovers the sequence
// and ring from the end of the file (read backwards: start-up does not
// grow with the log). A torn last line (a crash mid-write) is cut into
// "events.jsonl.torn" so the next append starts on a clean line; a
// complete last entry missing only its newline is kept.
func Open(path string) (*Log, error) {
	f, err := jsonl.Open(path, jsonl.Options{})
	if err != nil {
		return nil, err
	}
	l := &Log{file: f, broker: pubsub.New[Entry](), now: time.Now, healed: f.HealReport()}
	if err := l.recover(); err != nil {
		return nil, fmt.Errorf("recover event log %s: %w", path, err)
	}
	return l, nil
}

// Healed reports what Open repaired at the tail of the file.
func (l *Log) Healed() jsonl.HealReport { return l.healed }

func (l *Log) recover() error {
	lines, err := l.file.Tail(RingSize, func(line []byte) bool {
		var e Entry
		return json.Unmarshal(line, &e) == nil
	})
	if err != nil {
		return err
	}
	for _, line := range lines {
		var e Entry
		_ = json.Unmarshal(line, &e)
		if e.Seq > l.seq {
			l.seq = e.Seq
		}
		l.push(e)
	}
	return nil
}

func (l *Log) push(e Entry) {
	if len(l.ring) < RingSize {
		l.ring = append(l.ring, e)
		return
	}
	l.ring[l.start] = e
	l.start = (l.start + 1) % RingSize
}

// Append writes an event and returns it with its sequence number.
func (l *Log) Append(typ string, payload any) (Entry, error) {
	return l.AppendCaused(typ, payload, 0)
}

// AppendCaused writes an event caused by an earlier one.
func (l *Log) AppendCaused(typ string, payload any, causedBy int64) (Entry, error) {
	if typ == "" {
		return Entry{}, errors.New("event type is required")
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return Entry{}, fmt.Errorf("marshal %s payload: %w", typ, err)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return Entry{}, errors.New("event log is closed")
	}
	e := Entry{Seq: l.seq + 1, TS: l.now().UnixMilli(), Type: typ, Payload: raw, CausedBy: causedBy}
	if err := l.file.AppendJSON(e); err != nil {
		l.mu.Unlock()
		return Entry{}, fmt.Errorf("write event log: %w", err)
	}
	l.seq = e.Seq
	l.push(e)
	l.mu.Unlock()
	l.broker.Publish(e)
	return e, nil
}

// Recent returns the in-memory entries, oldest first.
func (l *Log) Recent() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Entry, 0, len(l.ring))
	out = append(out, l.ring[l.start:]...)
	out = append(out, l.ring[:l.start]...)
	return out
}

// LastSeq is the highest sequence number written.
func (l *Log) LastSeq() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// ReadOptions filters Read.
type ReadOptions struct {
	AfterSeq int64
	Limit    int    // 0 = no limit
	Type     string // "" = all types
}

// Read returns entries from the file on disk (not just the ring), oldest
// first. With AfterSeq it reads backwards from the end down to that
// sequence, so catching up on recent events costs what is returned;
// without it, it reads forwards from the start up to Limit.
func (l *Log) Read(opts ReadOptions) ([]Entry, error) {
	keep := func(e Entry) bool {
		return e.Seq > opts.AfterSeq && (opts.Type == "" || e.Type == opts.Type)
	}
	var out []Entry
	if opts.AfterSeq <= 0 {
		err := l.file.Forward(func(line []byte) bool {
			var e Entry
			if json.Unmarshal(line, &e) == nil && keep(e) {
				out = append(out, e)
			}
			return opts.Limit <= 0 || len(out) < opts.Limit
		})
		return out, err
	}
	var rev []Entry
	err := jsonl.Each(l.file.Path(), func(line []byte) bool {
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			return true
		}
		if e.Seq <= opts.AfterSeq {
			return false
		}
		if keep(e) {
			rev = append(rev, e)
		}
		return true
	})
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
		if opts.Limit > 0 && len(out) == opts.Limit {
			break
		}
	}
	return out, err
}

// Subscribe streams new entries until ctx ends. Delivery is lossy for a
// subscriber that stops reading; Read recovers anything missed.
func (l *Log) Subscribe(ctx context.Context) <-chan Entry {
	return l.broker.Subscribe(ctx)
}

// Close ends subscriptions; later appends fail. Every append is already
// on disk (one write each), so there is nothing to flush.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.broker.Close()
	return nil
}
