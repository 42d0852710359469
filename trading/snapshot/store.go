// Package snapshot records point-in-time account snapshots (on a timer and
// after every push or reject) so the portfolio pane can plot equity over
// time. Storage follows the reference layout: snapshots/index.json plus
// chunk-0001.jsonl, … with 50 snapshots per chunk.
package snapshot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/alice-trading/alice/trading"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"

	"github.com/shopspring/decimal"
)

// ChunkSize is how many snapshots one chunk file holds.
const ChunkSize = 50

// Trigger says why a snapshot was taken.
type Trigger string

const (
	Scheduled  Trigger = "scheduled"
	PostPush   Trigger = "post-push"
	PostReject Trigger = "post-reject"
	Manual     Trigger = "manual"
)

// Account is the account part of a snapshot: the broker's summary as is.
type Account = trading.AccountInfo

// Position is one holding in a snapshot.
type Position struct {
	AliceID       string          `json:"aliceId"`
	Currency      string          `json:"currency"`
	Side          string          `json:"side"`
	Quantity      decimal.Decimal `json:"quantity"`
	AvgCost       decimal.Decimal `json:"avgCost"`
	MarketPrice   decimal.Decimal `json:"marketPrice"`
	MarketValue   decimal.Decimal `json:"marketValue"`
	UnrealizedPnL decimal.Decimal `json:"unrealizedPnL"`
	RealizedPnL   decimal.Decimal `json:"realizedPnL"`
	SecType       string          `json:"secType,omitempty"`
	Multiplier    string          `json:"multiplier,omitempty"`
}

// Order is one open order in a snapshot.
type Order struct {
	OrderID       string          `json:"orderId"`
	AliceID       string          `json:"aliceId"`
	Action        string          `json:"action"`
	OrderType     string          `json:"orderType"`
	TotalQuantity decimal.Decimal `json:"totalQuantity"`
	LimitPrice    decimal.Decimal `json:"limitPrice,omitzero"`
	Status        string          `json:"status"`
	AvgFillPrice  decimal.Decimal `json:"avgFillPrice,omitzero"`
}

// Snapshot is one UTASnapshot.
type Snapshot struct {
	AccountID      string     `json:"accountId"`
	Timestamp      time.Time  `json:"timestamp"`
	Trigger        Trigger    `json:"trigger"`
	Account        Account    `json:"account"`
	Positions      []Position `json:"positions"`
	OpenOrders     []Order    `json:"openOrders"`
	Health         string     `json:"health"`
	HeadCommit     string     `json:"headCommit,omitempty"`
	PendingCommits []string   `json:"pendingCommits"`
}

type chunk struct {
	File      string    `json:"file"`
	Count     int       `json:"count"`
	StartTime time.Time `json:"startTime"`
	EndTime   time.Time `json:"endTime"`
}

type index struct {
	Version int     `json:"version"`
	Chunks  []chunk `json:"chunks"`
}

// Store is one account's snapshot directory. Safe for concurrent use.
type Store struct {
	mu  sync.Mutex
	dir string
	idx index
}

// Open loads (or starts) the store in dir. The last chunk is recounted so
// a crash between writing a line and updating the index loses nothing.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir, idx: index{Version: 1}}
	data, err := os.ReadFile(filepath.Join(dir, "index.json"))
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &s.idx); err != nil {
			return nil, fmt.Errorf("snapshot index %s: %w", dir, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	if n := len(s.idx.Chunks); n > 0 {
		last := &s.idx.Chunks[n-1]
		if err := trimTorn(filepath.Join(dir, last.File)); err != nil {
			return nil, err
		}
		snaps, err := s.readChunk(last.File)
		if err != nil {
			return nil, err
		}
		last.Count = len(snaps)
		if len(snaps) > 0 {
			last.StartTime, last.EndTime = snaps[0].Timestamp, snaps[len(snaps)-1].Timestamp
		}
	}
	return s, nil
}

// trimTorn truncates a partial last line (a crash mid-write) so the next
// append starts on a clean line.
func trimTorn(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && (len(data) == 0 || data[len(data)-1] == '\n')) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Truncate(path, int64(bytes.LastIndexByte(data, '\n')+1))
}

// Append stores a snapshot: one write of one line, then the index.
func (s *Store) Append(snap Snapshot) error {
	line, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	n := len(s.idx.Chunks)
	if n == 0 || s.idx.Chunks[n-1].Count >= ChunkSize {
		s.idx.Chunks = append(s.idx.Chunks, chunk{File: fmt.Sprintf("chunk-%04d.jsonl", n+1), StartTime: snap.Timestamp})
		n++
	}
	c := &s.idx.Chunks[n-1]
	f, err := os.OpenFile(filepath.Join(s.dir, c.File), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return errors.Join(werr, cerr)
	}
	c.Count++
	c.EndTime = snap.Timestamp
	data, err := json.MarshalIndent(&s.idx, "", " ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(filepath.Join(s.dir, "index.json"), data, 0o600)
}

// readChunk parses a chunk, skipping a torn or corrupt line.
func (s *Store) readChunk(name string) ([]Snapshot, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Snapshot
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var snap Snapshot
		if json.Unmarshal(sc.Bytes(), &snap) == nil {
			out = append(out, snap)
		}
	}
	return out, sc.Err()
}

// List returns snapshots at or after since (zero = all), oldest first,
// keeping only the newest limit when limit > 0.
func (s *Store) List(since time.Time, limit int) ([]Snapshot, error) {
	s.mu.Lock()
	chunks := append([]chunk(nil), s.idx.Chunks...)
	s.mu.Unlock()
	var out []Snapshot
	for _, c := range chunks {
		if !since.IsZero() && c.EndTime.Before(since) {
			continue
		}
		snaps, err := s.readChunk(c.File)
		if err != nil {
			return nil, err
		}
		for _, sn := range snaps {
			if since.IsZero() || !sn.Timestamp.Before(since) {
				out = append(out, sn)
			}
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

// Point is one equity-curve sample.
type Point struct {
	Time   time.Time       `json:"time"`
	Equity decimal.Decimal `json:"equity"`
}

// EquityCurve is net liquidation over time since since.
func (s *Store) EquityCurve(since time.Time) ([]Point, error) {
	snaps, err := s.List(since, 0)
	if err != nil {
		return nil, err
	}
	out := make([]Point, 0, len(snaps))
	for _, sn := range snaps {
		out = append(out, Point{Time: sn.Timestamp, Equity: sn.Account.NetLiquidation})
	}
	return out, nil
}

// Count is the number of stored snapshots.
func (s *Store) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.idx.Chunks {
		n += c.Count
	}
	return n
}
