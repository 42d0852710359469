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
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/alice-trading/alice/config"
)

// Notification is one message for the user; it is also one line of
// sessions/notifications.jsonl.
type Notification struct {
	ID      string `json:"id"`
	TS      int64  `json:"ts"`
	Text    string `json:"text"`
	Urgency string `json:"urgency,omitempty"`
	Source  string `json:"source,omitempty"`
	Channel string `json:"channel,omitempty"`
	// To is the recipient on Channel (a Telegram chat id, an Ask session),
	// taken from the last interaction when it was on that channel.
	To string `json:"to,omitempty"`
	// Plain: Text is plain text, not Markdown; a surface that renders
	// Markdown shows it literally (core.MarkdownLines).
	Plain bool `json:"plain,omitempty"`
}

// Capabilities says what a connector can do, for listConnectors and for
// callers deciding whether a push reaches a person at once.
type Capabilities struct {
	// Push is true when Send reaches the user now; false for pull-only
	// channels (the Ask connector) where notifications wait in the store.
	Push bool `json:"push"`
	// Markdown is true when the channel renders Markdown.
	Markdown bool `json:"markdown"`
	// Human is true when a person reads the channel (TUI, Telegram);
	// false for agent connectors such as the Ask port. Approval requests
	// and other needs-you alerts go to human channels only (NotifyHumans).
	Human bool `json:"human"`
}

// Liveness is implemented by connectors that can be registered yet down
// (a TUI nobody is attached to, a Telegram bot that failed to start);
// connectors without it count as up.
type Liveness interface {
	Up() bool
}

// Connector delivers notifications on one channel.
type Connector interface {
	Channel() string
	Send(ctx context.Context, n Notification) error
	Capabilities() Capabilities
}

// Interaction is the last time the user talked to Alice somewhere.
type Interaction struct {
	Channel string    `json:"channel"`
	To      string    `json:"to"`
	Time    time.Time `json:"time"`
}

// Info describes one registered connector (the listConnectors shape).
type Info struct {
	Channel      string       `json:"channel"`
	To           string       `json:"to,omitempty"`
	Capabilities Capabilities `json:"capabilities"`
}

// Center is the ConnectorCenter.
type Center struct {
	lastPath string
	notes    *noteStore
	now      func() time.Time
	log      *slog.Logger

	mu         sync.Mutex
	connectors []Connector
	last       *Interaction
	lastTo     map[string]string // channel → last recipient there (this run)
}

// Option customises a Center.
type Option func(*Center)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *Center) { c.log = l } }

// WithClock sets the clock (tests).
func WithClock(now func() time.Time) Option { return func(c *Center) { c.now = now } }

// New loads the last interaction from <dataDir>/connectors and appends
// notifications to <dataDir>/sessions/notifications.jsonl.
func New(dataDir string, opts ...Option) (*Center, error) {
	c := &Center{
		lastPath: filepath.Join(dataDir, "connectors", "last-interaction.json"),
		notes:    &noteStore{path: filepath.Join(dataDir, "sessions", "notifications.jsonl")},
		now:      time.Now,
		log:      slog.New(slog.DiscardHandler),
	}
	for _, o := range opts {
		o(c)
	}
	b, err := os.ReadFile(c.lastPath)
	switch {
	case err == nil:
		var li Interaction
		if json.Unmarshal(b, &li) == nil && li.Channel != "" {
			c.last = &li
		} else {
			// A corrupt routing hint is not worth refusing to start over.
			c.log.Warn("Ignoring unreadable last-interaction file", "path", c.lastPath)
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("read %s: %w", c.lastPath, err)
	}
	return c, nil
}

// Register adds a connector; the first registered is the fallback. A
// connector registered again under the same channel replaces the old one.
func (c *Center) Register(conn Connector) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range c.connectors {
		if k.Channel() == conn.Channel() {
			c.connectors[i] = conn
			return
		}
	}
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

// Connectors describes the registered connectors; To is filled for the
// channel of the last interaction.
func (c *Center) Connectors() []Info {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Info, 0, len(c.connectors))
	for _, k := range c.connectors {
		in := Info{Channel: k.Channel(), Capabilities: k.Capabilities()}
		if c.last != nil && c.last.Channel == in.Channel {
			in.To = c.last.To
		}
		out = append(out, in)
	}
	return out
}

// Touch records an interaction. It is persisted so routing survives
// restarts; a failed write is logged, not returned, because the caller is
// in the middle of answering the user.
func (c *Center) Touch(channel, to string) {
	c.mu.Lock()
	li := Interaction{Channel: channel, To: to, Time: c.now()}
	c.last = &li
	if c.lastTo == nil {
		c.lastTo = map[string]string{}
	}
	c.lastTo[channel] = to
	b, _ := json.Marshal(li)
	err := os.MkdirAll(filepath.Dir(c.lastPath), 0o700)
	if err == nil {
		err = config.WriteFileAtomic(c.lastPath, b, 0o600)
	}
	c.mu.Unlock()
	if err != nil {
		c.log.Warn("Persisting last interaction failed", "err", err)
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
// channel (else the first connector). It returns the channel used. The
// notification is stored before delivery so a failed send loses nothing.
func (c *Center) Notify(ctx context.Context, text, urgency, source string) (string, error) {
	c.mu.Lock()
	var target Connector
	to := ""
	if c.last != nil {
		for _, k := range c.connectors {
			if k.Channel() == c.last.Channel {
				target, to = k, c.last.To
			}
		}
	}
	if target == nil && len(c.connectors) > 0 {
		target = c.connectors[0]
	}
	c.mu.Unlock()
	n := Notification{ID: uuid.NewString(), TS: c.now().UnixMilli(), Text: text, Urgency: urgency, Source: source, To: to}
	if target != nil {
		n.Channel = target.Channel()
	}
	if err := c.notes.append(n); err != nil {
		return "", fmt.Errorf("record notification: %w", err)
	}
	if target == nil {
		return "", ErrNoConnector
	}
	if err := target.Send(ctx, n); err != nil {
		return n.Channel, fmt.Errorf("deliver to %s: %w", n.Channel, err)
	}
	return n.Channel, nil
}

// Recent returns up to limit of the newest stored notifications, oldest
// first (limit ≤ 0 means all).
func (c *Center) Recent(limit int) ([]Notification, error) {
	return c.notes.recent(limit)
}
