// Package snapshot records point-in-time account snapshots (on a timer and
// after every push or reject) so the portfolio pane can plot equity over
// time. Storage follows the reference layout: snapshots/index.json plus
// chunk-0001.jsonl, … with 50 snapshots per chunk.
package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/alice-trading/alice/trading"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/jsonl"

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
	cur *jsonl.File // the chunk appends go to
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
		// Opening heals a line torn by a crash mid-write (the cut bytes go
		// to a .torn side file) so the next append starts on a clean line.
		if s.cur, err = jsonl.Open(filepath.Join(dir, last.File), jsonl.Options{}); err != nil {
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

// Append stores a snapshot: one write of one line, then the index.
func (s *Store) Append(snap Snapshot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	n := len(s.idx.Chunks)
	if n == 0 || s.idx.Chunks[n-1].Count >= ChunkSize || s.cur == nil {
		if n == 0 || s.idx.Chunks[n-1].Count >= ChunkSize {
			s.idx.Chunks = append(s.idx.Chunks, chunk{File: fmt.Sprintf("chunk-%04d.jsonl", n+1), StartTime: snap.Timestamp})
			n++
		}
		f, err := jsonl.Open(filepath.Join(s.dir, s.idx.Chunks[n-1].File), jsonl.Options{})
		if err != nil {
			return err
		}
		s.cur = f
	}
	c := &s.idx.Chunks[n-1]
	if err := s.cur.AppendJSON(snap); err != nil {
		return err
	}
	c.Count++
	c.EndTime = snap.Timestamp
	data, err := json.MarshalIndent(&s.idx, "", " ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(filepath.Join(s.dir, "index.json"), data, 0o600)
}

// readChunk parses a chunk, skipping a corrupt line.
func (s *Store) readChunk(name string) ([]Snapshot, error) {
	var out []Snapshot
	err := jsonl.Forward(filepath.Join(s.dir, name), func(line []byte) bool {
		var snap Snapshot
		if json.Unmarshal(line, &snap) == nil {
			out = append(out, snap)
		}
		return true
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return out, err
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
