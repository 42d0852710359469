package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/alice-trading/alice/core"
)

// PushToolName is the workspace-scoped tool agents call to reach the user.
const PushToolName = "inbox_push"

const pushSchema = `{
  "type": "object",
  "properties": {
    "docs": {
      "type": "array",
      "description": "Files in this workspace to show the user, by path relative to the workspace root. They are rendered live when viewed, so keep them up to date rather than pushing again.",
      "items": {
        "type": "object",
        "properties": {"path": {"type": "string", "minLength": 1, "description": "Path relative to the workspace root, e.g. reports/btc.md"}},
        "required": ["path"],
        "additionalProperties": false
      }
    },
    "comments": {"type": "string", "description": "Markdown commentary for the user: what you found and what you want them to look at."}
  },
  "additionalProperties": false
}`

// PushResult is what inbox_push returns to the agent.
type PushResult struct {
	OK      bool   `json:"ok"`
	EntryID string `json:"entryId"`
	TS      int64  `json:"ts"`
	// Warnings flag docs that do not exist yet; the entry is still stored
	// because docs are live pointers the agent may create afterwards.
	Warnings []string `json:"warnings,omitempty"`
}

// Appender is the part of Store the tool needs.
type Appender interface {
	Append(e Entry) (Entry, error)
}

// PushToolFactory builds inbox_push for core.WorkspaceToolCenter. The
// workspace id and label come from the identity (the /mcp/{wsId} URL),
// never from the model, so an agent cannot push as another workspace.
func PushToolFactory(store Appender) core.WorkspaceToolFactory {
	return core.WorkspaceToolFactory{
		Name: PushToolName,
		Build: func(ws core.WorkspaceIdentity) core.Tool {
			return core.Tool{
				Name:  PushToolName,
				Group: "workspace",
				Description: "Push a note to the user's Alice inbox: pointers to documents in this workspace " +
					"(rendered live from the file) and/or markdown comments. Use it when you have results the user should read.",
				InputSchema: core.Schema(pushSchema),
				Handler: func(_ context.Context, args json.RawMessage) (any, error) {
					return push(store, ws, args)
				},
			}
		},
	}
}

func push(store Appender, ws core.WorkspaceIdentity, args json.RawMessage) (any, error) {
	var in struct {
		Docs     []Doc  `json:"docs"`
		Comments string `json:"comments"`
	}
	if err := core.DecodeArgs(args, &in); err != nil {
		return nil, err
	}
	if ws.ID == "" {
		return nil, errors.New("inbox_push is only available on a workspace MCP endpoint (/mcp/{wsId})")
	}
	e, err := store.Append(Entry{WorkspaceID: ws.ID, WorkspaceLabel: ws.Label, Docs: in.Docs, Comments: in.Comments})
	if err != nil {
		return nil, err
	}
	res := PushResult{OK: true, EntryID: e.ID, TS: e.TS}
	if ws.Dir != "" {
		// Through an os.Root: a symlink in the workspace does not make
		// this an oracle for files outside it.
		root, err := os.OpenRoot(ws.Dir)
		for i, d := range in.Docs {
			if err != nil {
				break
			}
			if _, err := root.Stat(filepath.FromSlash(d.Path)); err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("docs[%d] %q does not exist yet; the user will see a placeholder until it does", i, d.Path))
			}
		}
		if root != nil {
			_ = root.Close()
		}
	}
	return res, nil
}
