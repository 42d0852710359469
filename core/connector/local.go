package connector

import (
	"context"

	"github.com/alice-trading/alice/core/pubsub"
)

// Broadcast is an in-process connector that publishes notifications on a
// broker; the TUI subscribes to it and shows them.
type Broadcast struct {
	channel string
	bus     *pubsub.Broker[Notification]
}

// NewBroadcast builds a broker-backed connector for channel (e.g. "tui").
func NewBroadcast(channel string, bus *pubsub.Broker[Notification]) *Broadcast {
	return &Broadcast{channel: channel, bus: bus}
}

// Channel implements Connector.
func (b *Broadcast) Channel() string { return b.channel }

// Capabilities implements Connector: a person reads the TUI, which shows
// Markdown at once.
func (b *Broadcast) Capabilities() Capabilities {
	return Capabilities{Push: true, Markdown: true, Human: true}
}

// Up implements Liveness: someone (a TUI) is subscribed.
func (b *Broadcast) Up() bool { return b.bus.Len() > 0 }

// Send publishes with must-deliver semantics: a person should see it.
func (b *Broadcast) Send(_ context.Context, n Notification) error {
	b.bus.PublishMustDeliver(n)
	return nil
}

// Queue is a connector that keeps notifications in the store only (the
// Ask connector: callers pull, Alice cannot push to them). The Ask server
// calls Center.Touch("mcp-ask", sessionID) on every ask.
type Queue struct{ channel string }

// NewQueue builds a store-only connector.
func NewQueue(channel string) Queue { return Queue{channel} }

// Channel implements Connector.
func (q Queue) Channel() string { return q.channel }

// Capabilities implements Connector: nothing is pushed, and the reader is
// another agent, not a person.
func (q Queue) Capabilities() Capabilities { return Capabilities{} }

// Send is a no-op: Notify already stored the notification.
func (q Queue) Send(context.Context, Notification) error { return nil }
