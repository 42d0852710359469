// Package inbox is the workspace-to-user push channel: agents running in a
// workspace call inbox_push, an entry is appended to an append-only JSONL
// file, and the TUI's Inbox tab lists entries and renders the documents they
// point at live from the workspace (never snapshotted).
package inbox

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Doc points at a file inside the pushing workspace, relative to its root.
type Doc struct {
	Path string `json:"path"`
}

// Entry is one line of entries.jsonl. The field names match the reference
// implementation so files are interchangeable.
type Entry struct {
	WorkspaceID    string `json:"workspaceId"`
	WorkspaceLabel string `json:"workspaceLabel,omitempty"`
	Docs           []Doc  `json:"docs,omitempty"`
	// Comments is the agent's markdown commentary.
	Comments string `json:"comments,omitempty"`
	ID       string `json:"id"`
	// TS is the append time in epoch milliseconds.
	TS int64 `json:"ts"`
}

// ErrInvalidEntry wraps every validation failure so callers can tell bad
// input apart from I/O errors.
var ErrInvalidEntry = errors.New("invalid inbox entry")

// Validate applies the reference rules: a workspace id, and at least one
// non-empty doc or non-blank comments; every doc path must be a relative
// path that stays inside the workspace.
func (e Entry) Validate() error {
	if strings.TrimSpace(e.WorkspaceID) == "" {
		return fmt.Errorf("%w: workspaceId is required", ErrInvalidEntry)
	}
	if len(e.Docs) == 0 && strings.TrimSpace(e.Comments) == "" {
		return fmt.Errorf("%w: provide at least one doc or non-blank comments", ErrInvalidEntry)
	}
	for i, d := range e.Docs {
		if err := CheckDocPath(d.Path); err != nil {
			return fmt.Errorf("%w: docs[%d]: %v", ErrInvalidEntry, i, err)
		}
	}
	return nil
}

// CheckDocPath refuses empty, absolute and escaping paths. Whether the file
// exists is decided at render time, because docs are live pointers.
func CheckDocPath(p string) error {
	if strings.TrimSpace(p) == "" {
		return errors.New("path must be a non-empty string")
	}
	if strings.ContainsRune(p, 0) {
		return errors.New("path contains a NUL byte")
	}
	s := strings.ReplaceAll(p, `\`, "/")
	if strings.HasPrefix(s, "/") || (len(s) > 1 && s[1] == ':') {
		return fmt.Errorf("path %q must be relative to the workspace root", p)
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("path %q escapes the workspace", p)
	}
	if c == "." {
		return fmt.Errorf("path %q names the workspace root, not a file", p)
	}
	return nil
}
