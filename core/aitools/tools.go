// Package aitools holds the agent's own tools: thinking (calculate),
// session history (listSessions, readSession) and notify_user, whose calls
// the heartbeat's output gate inspects.
package aitools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/session"
)

// Register adds the tools to reg.
func Register(reg core.ToolRegistry, sessions *session.Store) {
	reg.Register(
		core.Tool{
			Name: "calculate", Group: "thinking",
			Description: "Evaluate an arithmetic expression exactly (decimal, not float): numbers, + - * / and parentheses. Result rounded to 4 decimal places.",
			InputSchema: core.Schema(`{"type":"object","properties":{"expression":{"type":"string","description":"e.g. (150.25 * 10) / 3"}},"required":["expression"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var in struct {
					Expression string `json:"expression"`
				}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				v, err := Calculate(in.Expression)
				if err != nil {
					return nil, err
				}
				return map[string]string{"result": v.Round(4).String()}, nil
			},
		},
		core.Tool{
			Name: "listSessions", Group: "session",
			Description: "List conversation sessions (id, size, last modified), newest first, a page at a time: pass the previous page's nextCursor as cursor to get older ones.",
			InputSchema: core.Schema(`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":500,"default":50},"cursor":{"type":"string","description":"nextCursor from the previous page"},"prefix":{"type":"string","description":"only ids starting with this, e.g. tui/"}}}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				in := struct {
					Limit  int    `json:"limit"`
					Cursor string `json:"cursor"`
					Prefix string `json:"prefix"`
				}{Limit: 50}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				if in.Limit < 1 || in.Limit > 500 {
					return nil, errors.New("limit must be between 1 and 500")
				}
				return sessions.ListPage(session.ListOptions{Limit: in.Limit, Cursor: in.Cursor, Prefix: in.Prefix})
			},
		},
		core.Tool{
			Name: "readSession", Group: "session",
			Description: "Read messages of a session's active window, newest last. offset counts back from the end; hasMore says older messages exist (ask again with offset + limit).",
			InputSchema: core.Schema(`{"type":"object","properties":{"sessionId":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":500,"default":20},"offset":{"type":"integer","minimum":0,"default":0},"includeToolCalls":{"type":"boolean","default":true}},"required":["sessionId"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				in := struct {
					SessionID        string `json:"sessionId"`
					Limit            int    `json:"limit"`
					Offset           int    `json:"offset"`
					IncludeToolCalls *bool  `json:"includeToolCalls"`
				}{Limit: 20}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				if in.Limit < 1 || in.Limit > 500 || in.Offset < 0 {
					return nil, errors.New("limit must be between 1 and 500 and offset ≥ 0")
				}
				msgs, more, err := sessions.TextTail(in.SessionID, in.Limit, in.Offset, in.IncludeToolCalls == nil || *in.IncludeToolCalls)
				if err != nil {
					return nil, err
				}
				return map[string]any{"sessionId": in.SessionID, "messages": msgs, "hasMore": more}, nil
			},
		},
		core.Tool{
			Name: "notify_user", Group: "notify",
			Description: "Push a short plain-text notification to the user on their last-used channel. Use only when something genuinely deserves attention.",
			InputSchema: core.Schema(`{"type":"object","properties":{"text":{"type":"string","minLength":1,"maxLength":1000,"description":"under ~300 characters, plain text"},"urgency":{"type":"string","enum":["info","important"]}},"required":["text"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (any, error) {
				var in struct {
					Text    string `json:"text"`
					Urgency string `json:"urgency"`
				}
				if err := core.DecodeArgs(args, &in); err != nil {
					return nil, err
				}
				in.Text = strings.TrimSpace(in.Text)
				if in.Text == "" {
					return nil, errors.New("text must not be empty")
				}
				if utf8.RuneCountInString(in.Text) > 1000 {
					return nil, errors.New("text is too long (keep it under ~300 characters)")
				}
				switch in.Urgency {
				case "":
					in.Urgency = "info"
				case "info", "important":
				default:
					return nil, fmt.Errorf("urgency must be \"info\" or \"important\", got %q", in.Urgency)
				}
				return map[string]any{"acknowledged": true, "text": in.Text, "urgency": in.Urgency}, nil
			},
		},
	)
}
