package trading

import "time"

// EventType names a domain event the UI and connectors react to.
type EventType string

const (
	EventCommitPrepared  EventType = "trade.commit"
	EventApprovalRequest EventType = "trade.approval-requested"
	EventPushed          EventType = "trade.push"
	EventRejected        EventType = "trade.reject"
	EventSynced          EventType = "trade.sync"
	EventOrderFilled     EventType = "trade.fill"
	// EventExternalOrders: orders placed outside alice (the venue's own
	// app, another tool) were found at the broker and recorded.
	EventExternalOrders EventType = "trade.external"
	EventHalted         EventType = "trade.halt"
	EventResumed        EventType = "trade.resume"
	// EventVenueData is a venue answer alice could not parse strictly (a
	// field that would otherwise have become zero).
	EventVenueData       EventType = "trade.venue-data"
	EventSnapshotTaken   EventType = "snapshot.taken"
	EventSnapshotError   EventType = "snapshot.error"
	EventAccountsChanged EventType = "trade.accounts"
)

// Event is published on the trading event bus.
type Event struct {
	Type      EventType `json:"type"`
	AccountID string    `json:"accountId"`
	Hash      string    `json:"hash,omitempty"`
	Time      time.Time `json:"time"`
	Data      any       `json:"data,omitempty"`
}
