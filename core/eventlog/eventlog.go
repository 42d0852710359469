// Package eventlog is Alice's persistent, append-only event bus: trade
// submissions, heartbeat results, cron fires and errors are appended to a
// JSONL file and kept in an in-memory ring of the most recent entries.
// Writes go to disk first, then memory, then subscribers.
package eventlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

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
	path   string
	f      *os.File
	seq    int64
	ring   []Entry // circular, len ≤ RingSize
	start  int
	broker *pubsub.Broker[Entry]
	now    func() time.Time
}

// Open opens (creating if needed) the log at path and recovers the sequence
// and ring from the file. A torn last line (a crash mid-write) is skipped
// and truncated away so the next append starts on a clean line.
func Open(path string) (*Log, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	l := &Log{path: path, f: f, broker: pubsub.New[Entry](), now: time.Now}
	if err := l.recover(); err != nil {
		f.Close()
		return nil, fmt.Errorf("recover event log %s: %w", path, err)
	}
	return l, nil
}

func (l *Log) recover() error {
	data, err := io.ReadAll(l.f)
	if err != nil {
		return err
	}
	good := 0 // byte offset after the last complete, valid line
	off := 0
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		if nl < 0 {
			break // torn tail: no newline
		}
		line := data[off : off+nl]
		off += nl + 1
		var e Entry
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &e) != nil {
			good = off // keep corrupt middle lines on disk but skip them
			continue
		}
		good = off
		if e.Seq > l.seq {
			l.seq = e.Seq
		}
		l.push(e)
	}
	if good < len(data) {
		// Tail without newline: salvage it if it parses, else drop it.
		var e Entry
		if json.Unmarshal(bytes.TrimSpace(data[good:]), &e) == nil {
			if e.Seq > l.seq {
				l.seq = e.Seq
			}
			l.push(e)
			if _, err := l.f.Seek(0, io.SeekEnd); err != nil {
				return err
			}
			_, err := l.f.Write([]byte("\n"))
			return err
		}
		if err := l.f.Truncate(int64(good)); err != nil {
			return err
		}
	}
	_, err = l.f.Seek(0, io.SeekEnd)
	return err
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
	if l.f == nil {
		l.mu.Unlock()
		return Entry{}, errors.New("event log is closed")
	}
	e := Entry{Seq: l.seq + 1, TS: l.now().UnixMilli(), Type: typ, Payload: raw, CausedBy: causedBy}
	line, _ := json.Marshal(e)
	if _, err := l.f.Write(append(line, '\n')); err != nil {
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

// Read scans the file on disk (not just the ring), oldest first.
func (l *Log) Read(opts ReadOptions) ([]Entry, error) {
	f, err := os.Open(l.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Seq <= opts.AfterSeq || (opts.Type != "" && e.Type != opts.Type) {
			continue
		}
		out = append(out, e)
		if opts.Limit > 0 && len(out) >= opts.Limit {
			break
		}
	}
	return out, sc.Err()
}

// Subscribe streams new entries until ctx ends. Delivery is lossy for a
// subscriber that stops reading; Read recovers anything missed.
func (l *Log) Subscribe(ctx context.Context) <-chan Entry {
	return l.broker.Subscribe(ctx)
}

// Close flushes and closes the file; later appends fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	l.broker.Close()
	return err
}
