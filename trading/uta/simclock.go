package uta

import (
	"fmt"
	"sync"
	"time"

	"github.com/alice-trading/alice/trading"
)

// EventSimClock records a simulator account's clock being advanced.
const EventSimClock trading.EventType = "simulator.clock"

// maxSimAdvance bounds one advance, so a typo cannot jump years ahead.
const maxSimAdvance = 30 * 24 * time.Hour

// simClocks holds how far each simulator account's market clock runs
// ahead of the manager's clock. Advancing moves the simulated prices that
// account sees (marks are a function of time) and lets resting orders
// meet them; trading history keeps the real time.
type simClocks struct {
	mu  sync.Mutex
	off map[string]time.Duration
}

func (c *simClocks) offset(id string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.off[id]
}

func (c *simClocks) add(id string, d time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off == nil {
		c.off = map[string]time.Duration{}
	}
	c.off[id] += d
	return c.off[id]
}

// simNow is the clock a simulator broker for account id runs on.
func (m *Manager) simNow(id string) func() time.Time {
	return func() time.Time { return m.now().Add(m.clocks.offset(id)) }
}

// SimAdvance moves a simulator account's clock forward by d, matches its
// resting orders against the new prices and returns the new clock time.
func (m *Manager) SimAdvance(id string, d time.Duration) (time.Time, error) {
	b, err := m.simulator(id)
	if err != nil {
		return time.Time{}, err
	}
	if d < time.Second || d > maxSimAdvance {
		return time.Time{}, fmt.Errorf("advance must be between 1s and %s, got %s", maxSimAdvance, d)
	}
	total := m.clocks.add(id, d)
	b.Tick()
	now := m.now().Add(total)
	m.publish(trading.Event{Type: EventSimClock, AccountID: id, Time: m.now(),
		Data: map[string]any{"advance": d.String(), "ahead": total.String(), "clock": now.UTC().Format(time.RFC3339)}}, false)
	return now, nil
}
