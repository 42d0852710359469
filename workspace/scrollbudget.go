package workspace

import (
	"sync"
	"sync/atomic"
)

// DefaultScrollbackBudget bounds the scrollback of all of a manager's
// sessions together when Options leave it unset (64 MiB).
const DefaultScrollbackBudget = 64 << 20

// ScrollBudget bounds the scrollback of every session of a manager
// together, beside each session's own line cap: when the lines held cost
// more than the limit (text, attribute runs and a slot each, and the
// styles of their runs that are in a style table), the oldest
// lines across all sessions are dropped first, down to 7/8 of the limit so
// that trimming is rare.
type ScrollBudget struct {
	limit int64
	used  atomic.Int64
	seq   atomic.Uint64 // order of pushed lines across rings

	mu    sync.Mutex // one trim at a time; taken before any terminal's lock
	terms map[*Terminal]struct{}
}

// NewScrollBudget returns a budget of limit bytes (≤ 0: the default).
func NewScrollBudget(limit int64) *ScrollBudget {
	if limit <= 0 {
		limit = DefaultScrollbackBudget
	}
	return &ScrollBudget{limit: limit, terms: map[*Terminal]struct{}{}}
}

// Used is what the lines held cost now.
func (b *ScrollBudget) Used() int64 { return b.used.Load() }

func (b *ScrollBudget) next() uint64 { return b.seq.Add(1) }
func (b *ScrollBudget) add(d int64)  { b.used.Add(d) }
func (b *ScrollBudget) over() bool   { return b.used.Load() > b.limit }

func (b *ScrollBudget) register(t *Terminal) {
	b.mu.Lock()
	b.terms[t] = struct{}{}
	b.mu.Unlock()
}

func (b *ScrollBudget) unregister(t *Terminal) {
	b.mu.Lock()
	delete(b.terms, t)
	b.mu.Unlock()
}

// trimBatch is how many lines one step drops from the oldest ring.
const trimBatch = 256

// enforce drops the oldest lines across every registered terminal until
// the budget is back under 7/8 of its limit. It locks one terminal at a
// time and must be called without any terminal's lock held.
func (b *ScrollBudget) enforce() {
	if !b.over() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	target := b.limit - b.limit/8
	for b.used.Load() > target {
		var victim *Terminal
		var oldest, runnerUp uint64
		for t := range b.terms {
			seq, ok := t.oldestScrollSeq()
			if !ok {
				continue
			}
			switch {
			case victim == nil || seq < oldest:
				if victim != nil {
					runnerUp = oldest
				}
				victim, oldest = t, seq
			case runnerUp == 0 || seq < runnerUp:
				runnerUp = seq
			}
		}
		if victim == nil || victim.trimScrollback(runnerUp, b.used.Load()-target) == 0 {
			return
		}
	}
}
