package provider

import (
	"context"
	"errors"
	"strings"
	"time"
)

// ProbePrompt is the one-line prompt Probe sends.
const ProbePrompt = "Reply with the single word: pong"

// ProbeResult is what a provider test reports to a person.
type ProbeResult struct {
	Profile string
	Label   string        // "profile (backend model)"
	Latency time.Duration // request start to the end of the reply
	Reply   string        // the model's text, trimmed
}

// Probe sends ProbePrompt through the named profile ("" = what the channel
// would use) and returns the latency and reply, or the backend's exact
// error. It writes nothing to any session: it is the Settings pane's
// "test" button.
func (r *Router) Probe(ctx context.Context, profile, channel string) (ProbeResult, error) {
	res, err := r.Resolve(profile, channel)
	if err != nil {
		return ProbeResult{Profile: profile}, err
	}
	out := ProbeResult{Profile: res.Profile, Label: res.Label()}
	start := time.Now()
	var text strings.Builder
	for ev := range res.Provider.Stream(ctx, Request{Model: res.Model, MaxTokens: 32,
		Messages: []Message{{Role: RoleUser, Text: ProbePrompt}}}) {
		switch ev.Kind {
		case EventText:
			text.WriteString(ev.Text)
		case EventDone:
			if text.Len() == 0 {
				text.WriteString(ev.Text)
			}
		case EventError:
			out.Latency = time.Since(start)
			if ev.Err == nil {
				ev.Err = errors.New("the provider reported an error without a message")
			}
			return out, ev.Err
		}
	}
	out.Latency = time.Since(start)
	if err := ctx.Err(); err != nil {
		return out, err
	}
	out.Reply = strings.TrimSpace(text.String())
	return out, nil
}
