package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alice-trading/alice/core"

	"github.com/mark3labs/mcp-go/server"
)

// Ask connector identity: sessions live at sessions/mcp-ask__{id}.jsonl
// and interactions are recorded on the "mcp-ask" channel.
const (
	AskChannel       = "mcp-ask"
	AskSessionPrefix = "mcp-ask__"
	// MaxAskSessionIDLen bounds caller-supplied session ids.
	MaxAskSessionIDLen = 128
	// DefaultHistoryLimit is getSessionHistory's default page.
	DefaultHistoryLimit = 50
	maxHistoryLimit     = 1000
)

// Asker runs one turn through the AgentCenter pipeline (the same one the
// TUI and Telegram use) in the given session, creating it on first use.
// sessionID is the full id, e.g. "mcp-ask__daily-review".
type Asker interface {
	AskWithSession(ctx context.Context, message, sessionID string) (string, error)
}

// Message is one history entry as the Ask connector returns it.
type Message struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// AskSessions reads the session store. ListSessions returns full session
// ids starting with prefix; History returns the active window's text
// history (last limit messages) of one session.
type AskSessions interface {
	ListSessions(prefix string) ([]string, error)
	History(sessionID string, limit int) ([]Message, error)
}

// InteractionRecorder records the last channel a user talked on, for
// delivery routing (the connector registry's touchInteraction).
type InteractionRecorder interface {
	Touch(channel, to string)
}

// AskOptions wires the Ask connector.
type AskOptions struct {
	Listen   Listen
	Asker    Asker
	Sessions AskSessions
	// Recorder may be nil.
	Recorder InteractionRecorder
	Logger   *slog.Logger
	Version  string
}

// ErrBadSessionID is wrapped by AskSessionID for refused ids.
var ErrBadSessionID = errors.New("invalid sessionId")

// AskSessionID maps a caller's session id to the stored session id,
// refusing anything that could escape the sessions folder or is unwieldy
// as a file name.
func AskSessionID(id string) (string, error) {
	switch {
	case id == "":
		return "", fmt.Errorf("%w: must not be empty", ErrBadSessionID)
	case len(id) > MaxAskSessionIDLen:
		return "", fmt.Errorf("%w: longer than %d characters", ErrBadSessionID, MaxAskSessionIDLen)
	case !utf8.ValidString(id):
		return "", fmt.Errorf("%w: not valid UTF-8", ErrBadSessionID)
	case strings.ContainsAny(id, `/\`):
		return "", fmt.Errorf("%w: %q must not contain / or \\", ErrBadSessionID, id)
	case strings.Contains(id, ".."):
		return "", fmt.Errorf("%w: %q must not contain ..", ErrBadSessionID, id)
	case strings.IndexFunc(id, unicode.IsControl) >= 0:
		return "", fmt.Errorf("%w: must not contain control characters", ErrBadSessionID)
	case strings.IndexFunc(id, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0:
		return "", fmt.Errorf("%w: %q must contain a letter or digit", ErrBadSessionID, id)
	}
	return AskSessionPrefix + id, nil
}

// AskTools returns the connector's three tools. They are deliberately
// never registered in ToolCenter: the agent must not be able to ask itself.
func AskTools(o AskOptions) []core.Tool {
	return []core.Tool{
		{
			Name:  "askWithSession",
			Group: "mcp-ask",
			Description: "Send a message to Alice, an autonomous trading agent, and get her reply. " +
				"Conversation history persists per sessionId (choose any id; reuse it to continue, use a new one to start fresh).",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"message":{"type":"string","description":"The message to send to Alice"},
				"sessionId":{"type":"string","description":"Session identifier chosen by the caller (max 128 characters, no / \\ or ..)"}},
				"required":["message","sessionId"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Message   string `json:"message"`
					SessionID string `json:"sessionId"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				if strings.TrimSpace(a.Message) == "" {
					return nil, errors.New("invalid arguments: message must not be empty")
				}
				sid, err := AskSessionID(a.SessionID)
				if err != nil {
					return nil, err
				}
				if o.Asker == nil {
					return nil, errors.New("the agent is not available")
				}
				if o.Recorder != nil {
					o.Recorder.Touch(AskChannel, sid)
				}
				text, err := o.Asker.AskWithSession(ctx, a.Message, sid)
				if err != nil {
					return nil, err
				}
				return map[string]string{"text": text, "sessionId": a.SessionID}, nil
			},
		},
		{
			Name:        "listSessions",
			Group:       "mcp-ask",
			Description: "List the sessions created through this connector, by id; pass nextCursor back as cursor for the next page.",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"limit":{"type":"integer","minimum":1,"maximum":1000,"description":"sessions per page (default 100)"},
				"cursor":{"type":"string","description":"nextCursor from the previous page"}},"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				var a struct {
					Limit  *int   `json:"limit"`
					Cursor string `json:"cursor"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				limit := 100
				if a.Limit != nil {
					if *a.Limit < 1 || *a.Limit > 1000 {
						return nil, fmt.Errorf("limit must be 1..1000, got %d", *a.Limit)
					}
					limit = *a.Limit
				}
				type row struct {
					SessionID string `json:"sessionId"`
				}
				out := struct {
					Sessions   []row  `json:"sessions"`
					NextCursor string `json:"nextCursor,omitempty"`
				}{Sessions: []row{}}
				if o.Sessions == nil {
					return out, nil
				}
				ids, err := o.Sessions.ListSessions(AskSessionPrefix)
				if err != nil {
					return nil, fmt.Errorf("listing sessions: %w", err)
				}
				sort.Strings(ids)
				for _, id := range ids {
					rest, ok := strings.CutPrefix(id, AskSessionPrefix)
					if !ok || rest == "" || (a.Cursor != "" && rest <= a.Cursor) {
						continue
					}
					if len(out.Sessions) == limit {
						out.NextCursor = out.Sessions[limit-1].SessionID
						break
					}
					out.Sessions = append(out.Sessions, row{SessionID: rest})
				}
				return out, nil
			},
		},
		{
			Name:        "getSessionHistory",
			Group:       "mcp-ask",
			Description: "Read the conversation history of one session (most recent messages, default 50).",
			InputSchema: core.Schema(`{"type":"object","properties":{
				"sessionId":{"type":"string","description":"Session identifier"},
				"limit":{"type":"integer","minimum":1,"maximum":1000,"description":"Max messages to return (default 50)"}},
				"required":["sessionId"],"additionalProperties":false}`),
			Handler: func(ctx context.Context, args json.RawMessage) (any, error) {
				var a struct {
					SessionID string `json:"sessionId"`
					Limit     *int   `json:"limit"`
				}
				if err := core.DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				sid, err := AskSessionID(a.SessionID)
				if err != nil {
					return nil, err
				}
				limit := DefaultHistoryLimit
				if a.Limit != nil {
					if *a.Limit < 1 || *a.Limit > maxHistoryLimit {
						return nil, fmt.Errorf("invalid arguments: limit must be between 1 and %d, got %d", maxHistoryLimit, *a.Limit)
					}
					limit = *a.Limit
				}
				msgs := []Message{}
				if o.Sessions != nil {
					got, err := o.Sessions.History(sid, limit)
					if err != nil {
						return nil, fmt.Errorf("reading session %q: %w", a.SessionID, err)
					}
					if len(got) > limit {
						got = got[len(got)-limit:]
					}
					msgs = append(msgs, got...)
				}
				return struct {
					Messages []Message `json:"messages"`
				}{msgs}, nil
			},
		},
	}
}

// NewAsk builds the Ask connector listener (one endpoint, /mcp). Start it
// only when AskEnabled(config) is true.
func NewAsk(o AskOptions) *Server {
	s := newServer("ask", o.Listen, o.Logger)
	version := o.Version
	if version == "" {
		version = "dev"
	}
	ms := newMCPServer(AskServerName, version,
		server.WithInstructions("Converse with Alice, an autonomous trading agent. Use askWithSession; she keeps the history per sessionId."),
	)
	ms.AddTools(adaptTools(AskTools(o))...)
	s.mountMCP("/mcp", newTransport(ms, s.log, s.sessions))
	return s
}
