package inbox

import (
	"time"
)

// inboxCore is what the Inbox pane needs from alice.
type Core interface {
	Inbox(limit int) ([]InboxEntry, error)
	RenderInbox(id string, width int) ([]RenderedDoc, error)
	DeleteInbox(id string) error
}

// InboxEntry is one push from a workspace agent.
type InboxEntry struct {
	ID          string
	WorkspaceID string
	Workspace   string
	Docs        []string
	Comments    string
	Time        time.Time
}

// RenderedDoc is a live-rendered inbox document or its tombstone.
type RenderedDoc struct {
	Path      string
	Body      string
	Tombstone string
}
