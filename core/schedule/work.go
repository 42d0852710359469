// Package schedule decides when an AI call fires without a person asking:
// cron jobs, the heartbeat and webhook ingest. Each fires an
// agent.work.requested event; the Worker runs it through the agent,
// applies the source's output gate and routes the result through the
// connectors. Every step is recorded in the event log.
package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"alice/core/eventlog"
)

// ToolCall is one tool the agent called during a run.
type ToolCall struct {
	Name  string
	Input json.RawMessage
}

// Result is what the agent produced.
type Result struct {
	Text      string
	ToolCalls []ToolCall
}

// Agent runs one prompt on a session (core/agent adapted by core/app).
type Agent interface {
	AskWithSession(ctx context.Context, prompt, sessionID, preamble string) (Result, error)
}

// Notifier delivers to the user's last-used channel (connector.Center).
type Notifier interface {
	Notify(ctx context.Context, text, urgency, source string) (string, error)
}

// EventLog is the subset of eventlog.Log the scheduler uses.
type EventLog interface {
	Append(typ string, payload any) (eventlog.Entry, error)
	AppendCaused(typ string, payload any, causedBy int64) (eventlog.Entry, error)
}

// Source identifies what requested work.
type Source string

const (
	SourceHeartbeat Source = "heartbeat"
	SourceCron      Source = "cron"
	SourceTask      Source = "task"
	SourceManual    Source = "manual"
)

// Request is one unit of agent work.
type Request struct {
	Source   Source
	Prompt   string
	Metadata map[string]any
	CausedBy int64
}

// Worker runs work requests one at a time per source; a request arriving
// while the same source is busy is skipped (overlapping cron fires would
// otherwise pile up).
type Worker struct {
	agent  Agent
	notify Notifier
	events EventLog
	log    *slog.Logger
	now    func() time.Time

	mu      sync.Mutex
	busy    map[Source]bool
	lastMsg string
	lastAt  time.Time
}

// NewWorker builds a worker.
func NewWorker(agent Agent, notify Notifier, events EventLog, log *slog.Logger) *Worker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Worker{agent: agent, notify: notify, events: events, log: log, now: time.Now, busy: map[Source]bool{}}
}

func sessionFor(s Source) (session, preamble string) {
	switch s {
	case SourceHeartbeat:
		return "heartbeat", "You are operating in the heartbeat monitoring context (session: heartbeat). The following is the recent heartbeat conversation history."
	case SourceCron:
		return "cron/default", "You are operating in the cron job context (session: cron/default). This is an automated cron job execution."
	default:
		return "task/default", "You are handling an externally-triggered task (session: task/default). Follow the prompt and reply with what the caller needs."
	}
}

// Outcome is what a run ended with, for callers and tests.
type Outcome struct {
	Delivered bool
	Skip      string // ack | empty | duplicate | busy | outside-active-hours
	Channel   string
	Text      string
	Err       error
}

// Run executes one request synchronously.
func (w *Worker) Run(ctx context.Context, req Request) Outcome {
	req.Prompt = strings.TrimSpace(req.Prompt)
	reqEv, _ := w.events.AppendCaused("agent.work.requested", map[string]any{"source": req.Source, "prompt": req.Prompt, "metadata": req.Metadata}, req.CausedBy)
	w.mu.Lock()
	if w.busy[req.Source] {
		w.mu.Unlock()
		w.skip(req, reqEv.Seq, "busy")
		return Outcome{Skip: "busy"}
	}
	w.busy[req.Source] = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.busy[req.Source] = false
		w.mu.Unlock()
	}()

	start := w.now()
	session, preamble := sessionFor(req.Source)
	if name, ok := req.Metadata["jobName"].(string); ok {
		preamble = strings.Replace(preamble, "This is", "Job: "+name+". This is", 1)
	}
	res, err := w.agent.AskWithSession(ctx, req.Prompt, session, preamble)
	if err != nil {
		_, _ = w.events.AppendCaused("agent.work.error", map[string]any{"source": req.Source, "error": err.Error(), "durationMs": w.now().Sub(start).Milliseconds(), "metadata": req.Metadata}, reqEv.Seq)
		return Outcome{Err: err}
	}
	text, urgency, skip := w.gate(req.Source, res)
	if skip != "" {
		w.skip(req, reqEv.Seq, skip)
		return Outcome{Skip: skip, Text: res.Text}
	}
	ch, err := w.notify.Notify(ctx, text, urgency, string(req.Source))
	delivered := err == nil
	if err != nil {
		w.log.Warn("Notification not delivered", "source", req.Source, "err", err)
	}
	_, _ = w.events.AppendCaused("agent.work.done", map[string]any{"source": req.Source, "reply": text, "durationMs": w.now().Sub(start).Milliseconds(), "delivered": delivered, "channel": ch, "metadata": req.Metadata}, reqEv.Seq)
	return Outcome{Delivered: delivered, Channel: ch, Text: text, Err: err}
}

func (w *Worker) skip(req Request, cause int64, reason string) {
	_, _ = w.events.AppendCaused("agent.work.skip", map[string]any{"source": req.Source, "reason": reason, "metadata": req.Metadata}, cause)
}

// gate decides what reaches the user. The heartbeat speaks only through
// notify_user (no call = "ack"), never repeats itself within 24 h, and
// never sends empty text; other sources deliver their reply.
func (w *Worker) gate(src Source, res Result) (text, urgency, skip string) {
	if src != SourceHeartbeat {
		if strings.TrimSpace(res.Text) == "" {
			return "", "", "empty"
		}
		return res.Text, "info", ""
	}
	var call *ToolCall
	for i := range res.ToolCalls {
		if res.ToolCalls[i].Name == "notify_user" {
			call = &res.ToolCalls[i]
		}
	}
	if call == nil {
		return "", "", "ack"
	}
	var in struct {
		Text    string `json:"text"`
		Urgency string `json:"urgency"`
	}
	_ = json.Unmarshal(call.Input, &in)
	in.Text = strings.TrimSpace(in.Text)
	if in.Text == "" {
		return "", "", "empty"
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if in.Text == w.lastMsg && w.now().Sub(w.lastAt) < 24*time.Hour {
		return "", "", "duplicate"
	}
	w.lastMsg, w.lastAt = in.Text, w.now()
	if in.Urgency == "" {
		in.Urgency = "info"
	}
	return in.Text, in.Urgency, ""
}

// String helps logs.
func (o Outcome) String() string {
	switch {
	case o.Err != nil:
		return "error: " + o.Err.Error()
	case o.Skip != "":
		return "skipped: " + o.Skip
	default:
		return fmt.Sprintf("delivered to %s", o.Channel)
	}
}
