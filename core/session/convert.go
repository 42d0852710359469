package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// NewText builds a user/assistant entry with plain text content.
func NewText(role, text, provider string) Entry {
	return Entry{Type: role, Message: Message{Role: role, Content: Content{Text: text}}, Provider: provider}
}

// NewBlocks builds an entry with content blocks.
func NewBlocks(role string, blocks []Block, provider string) Entry {
	return Entry{Type: role, Message: Message{Role: role, Content: Content{Blocks: blocks}}, Provider: provider}
}

// TextMessage is a role and flattened text, for text-only consumers.
type TextMessage struct {
	Role      string `json:"role"`
	Text      string `json:"text"`
	Timestamp string `json:"timestamp,omitempty"`
}

// ToTextHistory flattens entries for text providers and history tools:
// tool calls become "[Tool: name {json}]" and results "[Result: …]", both
// cut to 200 characters.
func ToTextHistory(entries []Entry, includeTools bool) []TextMessage {
	var out []TextMessage
	for _, e := range entries {
		if e.Subtype == "compact_boundary" {
			continue
		}
		var parts []string
		if e.Message.Content.Blocks == nil {
			parts = append(parts, e.Message.Content.Text)
		}
		for _, b := range e.Message.Content.Blocks {
			switch b.Type {
			case "text":
				parts = append(parts, b.Text)
			case "tool_use":
				if includeTools {
					parts = append(parts, fmt.Sprintf("[Tool: %s %s]", b.Name, Clip(string(b.Input), 200)))
				}
			case "tool_result":
				if includeTools {
					parts = append(parts, fmt.Sprintf("[Result: %s]", Clip(b.Content, 200)))
				}
			case "image":
				parts = append(parts, "[Image]")
			}
		}
		text := strings.TrimSpace(strings.Join(parts, "\n"))
		if text == "" {
			continue
		}
		out = append(out, TextMessage{Role: e.Message.Role, Text: text, Timestamp: e.Timestamp})
	}
	return out
}

// ChatItem is one UI row: a message, or a tool call paired with its result.
type ChatItem struct {
	Kind      string `json:"kind"` // user | assistant | tool | system | compaction | image (Text: where it is)
	Text      string `json:"text,omitempty"`
	Tool      string `json:"tool,omitempty"`   // tool rows: name without the mcp__server__ prefix
	Input     string `json:"input,omitempty"`  // tool rows: JSON arguments
	Output    string `json:"output,omitempty"` // tool rows: the result, once known
	IsError   bool   `json:"isError,omitempty"`
	Summary   string `json:"summary,omitempty"` // compaction rows: the summary that replaced earlier messages
	Timestamp string `json:"timestamp"`
	UUID      string `json:"uuid"` // entry uuid: a stable cursor
}

// ToChatItems pairs tool_use blocks with the tool_result that answers them
// and strips the mcp__server__ prefix from tool names.
func ToChatItems(entries []Entry) []ChatItem {
	var out []ChatItem
	byID := map[string]int{}
	for _, e := range entries {
		if e.Subtype == "compact_boundary" {
			out = append(out, ChatItem{Kind: "compaction", Text: "— conversation compacted —", Timestamp: e.Timestamp, UUID: e.UUID})
			continue
		}
		if e.IsCompactSummary {
			// Shown collapsed on the boundary row, not as a user message.
			if n := len(out); n > 0 && out[n-1].Kind == "compaction" {
				out[n-1].Summary = compactSummaryText(e.Message.Content.PlainText())
			}
			continue
		}
		if e.Message.Content.Blocks == nil {
			if t := strings.TrimSpace(e.Message.Content.Text); t != "" {
				out = append(out, ChatItem{Kind: e.Message.Role, Text: t, Timestamp: e.Timestamp, UUID: e.UUID})
			}
			continue
		}
		for _, b := range e.Message.Content.Blocks {
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) != "" {
					out = append(out, ChatItem{Kind: e.Message.Role, Text: b.Text, Timestamp: e.Timestamp, UUID: e.UUID})
				}
			case "tool_use":
				name := b.Name
				if strings.HasPrefix(name, "mcp__") {
					if parts := strings.SplitN(name, "__", 3); len(parts) == 3 {
						name = parts[2]
					}
				}
				byID[b.ID] = len(out)
				out = append(out, ChatItem{Kind: "tool", Tool: name, Input: string(b.Input), Timestamp: e.Timestamp, UUID: e.UUID})
			case "tool_result":
				if i, ok := byID[b.ToolUseID]; ok {
					out[i].Output, out[i].IsError = b.Content, b.IsError
				}
			case "image":
				// Text is where the image is: a data-relative path or URL.
				out = append(out, ChatItem{Kind: "image", Text: b.URL, Timestamp: e.Timestamp, UUID: e.UUID})
			}
		}
	}
	return out
}

// EstimateTokens is the reference's heuristic: characters / 3.5.
func EstimateTokens(entries []Entry) int {
	chars := 0
	for _, e := range entries {
		chars += len(e.Message.Content.Text)
		for _, b := range e.Message.Content.Blocks {
			chars += len(b.Text) + len(b.Content) + len(b.Name) + len(b.Input)
		}
	}
	return int(float64(chars)/3.5 + 0.999)
}

// Clip cuts s to at most n bytes (on a rune boundary) and marks the cut
// with "…". The agent uses it for tool output and logs too.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// MarshalInput returns compact JSON for a tool input.
func MarshalInput(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// compactSummaryText drops the preface the summary entry carries for the
// model ("This session is being continued…") and keeps the summary.
func compactSummaryText(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "This session is being continued") {
		if _, rest, ok := strings.Cut(s, "\n\n"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return s
}
