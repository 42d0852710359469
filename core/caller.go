package core

import "context"

// Caller is who is calling a tool: the agent session, the channel the
// request came through (tui, telegram, mcp, mcp-ask, cron, …) and the
// agent or client behind it (a provider label, an MCP client's name).
// Empty fields are unknown. Tools that record provenance (trading's
// staging) read it with CallerFrom.
type Caller struct {
	Session string `json:"session,omitempty"`
	Channel string `json:"channel,omitempty"`
	Agent   string `json:"agent,omitempty"`
	// Person is set only by a surface acting on a person's direct input
	// (the Market pane's ticket, a Telegram command), never for a model:
	// with AI trading off, only such calls may stage orders.
	Person bool `json:"person,omitempty"`
}

type callerKey struct{}

// WithCaller returns ctx carrying c; fields c leaves empty keep the value
// an outer caller set (an MCP session inside a channel, say).
func WithCaller(ctx context.Context, c Caller) context.Context {
	if old, ok := CallerFrom(ctx); ok {
		if c.Session == "" {
			c.Session = old.Session
		}
		if c.Channel == "" {
			c.Channel = old.Channel
		}
		if c.Agent == "" {
			c.Agent = old.Agent
		}
	}
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller ctx carries.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}
