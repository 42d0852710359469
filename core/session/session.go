// Package session stores conversations as one JSONL file per session in the
// Claude-Code-compatible line format the reference system uses, so its
// session files load here unchanged. The active window starts at the last
// compact boundary; writers to one session are serialised, a torn last
// line (a crash mid-write) is healed when the store opens (core/jsonl), and
// reads of the recent part of a session go backwards from the end, so they
// cost what they return, not the length of the session.
package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Entry is one line of a session file.
type Entry struct {
	Type             string          `json:"type"` // user | assistant | system | meta
	Message          Message         `json:"message"`
	UUID             string          `json:"uuid"`
	ParentUUID       *string         `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	Timestamp        string          `json:"timestamp"`
	Provider         string          `json:"provider,omitempty"`
	Cwd              string          `json:"cwd,omitempty"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Subtype          string          `json:"subtype,omitempty"`
	CompactMetadata  *CompactMeta    `json:"compactMetadata,omitempty"`
	IsCompactSummary bool            `json:"isCompactSummary,omitempty"`
}

// CompactMeta records why and when a session was compacted.
type CompactMeta struct {
	Trigger   string `json:"trigger"` // auto | manual
	PreTokens int    `json:"preTokens"`
}

// Message is the role plus content: a string or content blocks.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Block is one content block.
type Block struct {
	Type      string          `json:"type"` // text | image | tool_use | tool_result
	Text      string          `json:"text,omitempty"`
	URL       string          `json:"url,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// Content is either a plain string or blocks; both JSON shapes load.
type Content struct {
	Text   string
	Blocks []Block
}

// MarshalJSON writes a string when there are no blocks.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Blocks == nil {
		return json.Marshal(c.Text)
	}
	return json.Marshal(c.Blocks)
}

// UnmarshalJSON accepts a string or an array of blocks.
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, &c.Blocks)
}

// PlainText joins the text blocks (or returns the string content).
func (c Content) PlainText() string {
	if c.Blocks == nil {
		return c.Text
	}
	var parts []string
	for _, b := range c.Blocks {
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ErrBadID is returned for a session id that could escape the folder.
var ErrBadID = errors.New("invalid session id")

// ValidateID checks a session id: relative, slash-separated segments of
// printable characters, each holding at least one letter or digit (so "."
// "..", " " and "-" are refused), no backslashes.
func ValidateID(id string) error {
	if id == "" || len(id) > 200 {
		return fmt.Errorf("%w: must be 1..200 characters", ErrBadID)
	}
	if strings.HasPrefix(id, "/") || strings.Contains(id, "\\") {
		return fmt.Errorf("%w %q: must be a relative path without backslashes", ErrBadID, id)
	}
	for _, r := range id {
		if r == 0 || unicode.IsControl(r) {
			return fmt.Errorf("%w %q: control characters are not allowed", ErrBadID, id)
		}
	}
	for _, seg := range strings.Split(id, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%w %q: empty, \".\" and \"..\" segments are not allowed", ErrBadID, id)
		}
		if !strings.ContainsFunc(seg, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return fmt.Errorf("%w %q: each part must contain a letter or digit", ErrBadID, id)
		}
	}
	return nil
}
