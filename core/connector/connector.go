// Package connector routes outbound messages. Alice is single-tenant and
// multi-channel: the center remembers which channel the user last
// interacted through and delivers notifications (heartbeat, cron) there,
// falling back to the first registered connector.
package connector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"alice/config"
	"alice/core/pubsub"
)

// Notification is one message for the user.
type Notification struct {
	ID      string `json:"id"`
	TS      int64  `json:"ts"`
	Text    string `json:"text"`
	Urgency string `json:"urgency,omitempty"`
	Source  string `json:"source,omitempty"`
	Channel string `json:"channel,omitempty"`
}

// Connector delivers notifications on one channel.
type Connector interface {
	Channel() string
	Send(ctx context.Context, n Notification) error
}

// Interaction is the last time the user talked to Alice somewhere.
type Interaction struct {
	Channel string    `json:"channel"`
	To      string    `json:"to"`
	Time    time.Time `json:"time"`
}

// Center is the ConnectorCenter.
type Center struct {
	mu         sync.Mutex
	connectors []Connector
	last       *Interaction
	lastPath   string
	notesPath  string
	now        func() time.Time
}

// New loads the last interaction from dataDir/connectors.
func New(dataDir string) (*Center, error) {
	c := &Center{
		lastPath:  filepath.Join(dataDir, "connectors", "last-interaction.json"),
		notesPath: filepath.Join(dataDir, "sessions", "notifications.jsonl"),
		now:       time.Now,
	}
	if b, err := os.ReadFile(c.lastPath); err == nil {
		var li Interaction
		if json.Unmarshal(b, &li) == nil && li.Channel != "" {
			c.last = &li
		}
	}
	return c, nil
}

// Register adds a connector; the first registered is the fallback.
func (c *Center) Register(conn Connector) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.connectors = append(c.connectors, conn)
}

// Channels lists registered channels in order.
func (c *Center) Channels() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.connectors))
	for _, k := range c.connectors {
		out = append(out, k.Channel())
	}
	return out
}

// Touch records an interaction (persisted so routing survives restarts).
func (c *Center) Touch(channel, to string) {
	c.mu.Lock()
	li := Interaction{Channel: channel, To: to, Time: c.now()}
	c.last = &li
	c.mu.Unlock()
	if b, err := json.Marshal(li); err == nil {
		_ = os.MkdirAll(filepath.Dir(c.lastPath), 0o700)
		_ = config.WriteFileAtomic(c.lastPath, b, 0o600)
	}
}

// Last returns the last interaction.
func (c *Center) Last() (Interaction, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		return Interaction{}, false
	}
	return *c.last, true
}

// ErrNoConnector means nothing is registered to deliver to.
var ErrNoConnector = errors.New("no connector registered")

// Notify records the notification and delivers it to the last-interacted
// channel (else the first connector). It returns the channel used.
func (c *Center) Notify(ctx context.Context, text, urgency, source string) (string, error) {
	c.mu.Lock()
	var target Connector
	if c.last != nil {
		for _, k := range c.connectors {
			if k.Channel() == c.last.Channel {
				target = k
			}
		}
	}
	if target == nil && len(c.connectors) > 0 {
		target = c.connectors[0]
	}
	c.mu.Unlock()
	n := Notification{ID: uuid.NewString(), TS: c.now().UnixMilli(), Text: text, Urgency: urgency, Source: source}
	if target != nil {
		n.Channel = target.Channel()
	}
	if err := c.record(n); err != nil {
		return "", err
	}
	if target == nil {
		return "", ErrNoConnector
	}
	if err := target.Send(ctx, n); err != nil {
		return n.Channel, fmt.Errorf("deliver to %s: %w", n.Channel, err)
	}
	return n.Channel, nil
}

func (c *Center) record(n Notification) error {
	if err := os.MkdirAll(filepath.Dir(c.notesPath), 0o700); err != nil {
		return err
	}
	line, _ := json.Marshal(n)
	f, err := os.OpenFile(c.notesPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(line, '\n'))
	return err
}

// Broadcast is an in-process connector that publishes notifications on a
// broker (the TUI subscribes to it).
type Broadcast struct {
	channel string
	bus     *pubsub.Broker[Notification]
}

// NewBroadcast builds a broker-backed connector for channel.
func NewBroadcast(channel string, bus *pubsub.Broker[Notification]) *Broadcast {
	return &Broadcast{channel: channel, bus: bus}
}

func (b *Broadcast) Channel() string { return b.channel }

// Send publishes with must-deliver semantics: a person should see it.
func (b *Broadcast) Send(_ context.Context, n Notification) error {
	b.bus.PublishMustDeliver(n)
	return nil
}

// Queue is a connector that keeps notifications in the store only (the
// Ask connector: callers pull, Alice cannot push to them).
type Queue struct{ channel string }

// NewQueue builds a store-only connector.
func NewQueue(channel string) Queue { return Queue{channel} }

func (q Queue) Channel() string                          { return q.channel }
func (q Queue) Send(context.Context, Notification) error { return nil }
