package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/alice-trading/alice/core"
)

// ReadToolName is the workspace-scoped tool that lists what a workspace
// pushed before, so an agent (or its next session) can pick up where it
// left off instead of pushing the same thing again.
const ReadToolName = "inbox_read"

const readSchema = `{
  "type": "object",
  "properties": {
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Entries per page, newest first (default 20)."},
    "before": {"type": "string", "description": "Entry id cursor from a previous page: only older entries are returned."}
  },
  "additionalProperties": false
}`

// Reader is the part of Store inbox_read needs.
type Reader interface {
	List(opts ListOptions) (Page, error)
	Get(id string) (Entry, error)
}

// ReadEntry is one entry as inbox_read returns it.
type ReadEntry struct {
	ID       string    `json:"id"`
	Time     time.Time `json:"time"`
	Docs     []Doc     `json:"docs,omitempty"`
	Comments string    `json:"comments,omitempty"`
}

// ReadResult is one page.
type ReadResult struct {
	Entries []ReadEntry `json:"entries"`
	HasMore bool        `json:"hasMore"`
	// Next is the cursor for the following page when HasMore.
	Next string `json:"next,omitempty"`
}

// ReadToolFactory builds inbox_read for core.WorkspaceToolCenter. Only the
// calling workspace's entries (from the /mcp/{wsId} URL) are visible.
func ReadToolFactory(store Reader) core.WorkspaceToolFactory {
	return core.WorkspaceToolFactory{
		Name: ReadToolName,
		Build: func(ws core.WorkspaceIdentity) core.Tool {
			return core.Tool{
				Name:  ReadToolName,
				Group: "workspace",
				Description: "Read what this workspace pushed to the user's inbox before (newest first): doc paths and comments. " +
					"Use it to continue earlier work or to avoid pushing the same note twice.",
				InputSchema: core.Schema(readSchema),
				Handler: func(_ context.Context, args json.RawMessage) (any, error) {
					return read(store, ws, args)
				},
			}
		},
	}
}

func read(store Reader, ws core.WorkspaceIdentity, args json.RawMessage) (any, error) {
	var in struct {
		Limit  *int   `json:"limit"`
		Before string `json:"before"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	if ws.ID == "" {
		return nil, errors.New("inbox_read is only available on a workspace MCP endpoint (/mcp/{wsId})")
	}
	limit := 20
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 100 {
			return nil, errors.New("invalid arguments: limit must be 1-100")
		}
		limit = *in.Limit
	}
	if in.Before != "" {
		// A cursor from another workspace is treated as unknown, so ids
		// of other workspaces' entries cannot be probed.
		if e, err := store.Get(in.Before); err != nil || e.WorkspaceID != ws.ID {
			return nil, fmt.Errorf("invalid arguments: before %q is not an entry of this workspace", in.Before)
		}
	}
	page, err := store.List(ListOptions{Limit: limit, Before: in.Before, WorkspaceID: ws.ID})
	if err != nil {
		return nil, err
	}
	res := ReadResult{Entries: make([]ReadEntry, 0, len(page.Entries)), HasMore: page.HasMore}
	for _, e := range page.Entries {
		res.Entries = append(res.Entries, ReadEntry{ID: e.ID, Time: time.UnixMilli(e.TS).UTC(), Docs: e.Docs, Comments: e.Comments})
	}
	if page.HasMore && len(res.Entries) > 0 {
		res.Next = res.Entries[len(res.Entries)-1].ID
	}
	return res, nil
}
