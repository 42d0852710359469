// Package schedule decides when an AI call fires without a person asking:
// cron jobs, the heartbeat and webhook ingest. Each becomes an
// agent.work.requested event; the Worker runs it through the agent on the
// source's own session (heartbeat, cron/default, task/default), applies
// the source's output gate and routes the result through the connectors.
// Producers that need the outcome (cron state, RunNow) call Worker.Run;
// producers that only record the event mark it queued and the Worker's
// listener (Start) runs it. Every step is recorded in the event log.
package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/eventlog"
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

// Agent runs one prompt on a session (core/agent adapted by app).
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

// Valid reports whether s is a known source.
func (s Source) Valid() bool {
	switch s {
	case SourceHeartbeat, SourceCron, SourceTask, SourceManual:
		return true
	}
	return false
}

// Request is one unit of agent work.
type Request struct {
	Source   Source
	Prompt   string
	Metadata map[string]any
	// CausedBy is the event that led to this request (cron.fire, …).
	CausedBy int64
	// Seq is set when the agent.work.requested event is already recorded
	// (the webhook records it before answering 201); Run then does not
	// record another one.
	Seq int64
}

// requestPayload is agent.work.requested's payload. Queued marks a request
// recorded for the Listener to pick up; requests run by Run directly are
// recorded without it so they are never handled twice.
type requestPayload struct {
	Source   Source         `json:"source"`
	Prompt   string         `json:"prompt"`
	Metadata map[string]any `json:"metadata,omitempty"`
	Queued   bool           `json:"queued,omitempty"`
}

// Worker runs work requests one at a time per source. A heartbeat or cron
// run arriving while the previous one of its source still runs is skipped
// ("busy": overlapping fires would otherwise pile up); task and manual
// requests wait their turn instead, because each one is somebody's request.
type Worker struct {
	agent  Agent
	notify Notifier
	events EventLog
	log    *slog.Logger
	now    func() time.Time

	lanes map[Source]chan struct{} // one-slot semaphores, fixed at construction

	mu      sync.Mutex
	lastMsg string
	lastAt  time.Time

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewWorker builds a worker.
func NewWorker(agent Agent, notify Notifier, events EventLog, log *slog.Logger) *Worker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	lanes := map[Source]chan struct{}{}
	for _, src := range []Source{SourceHeartbeat, SourceCron, SourceTask, SourceManual} {
		lanes[src] = make(chan struct{}, 1)
	}
	return &Worker{agent: agent, notify: notify, events: events, log: log, now: time.Now, lanes: lanes}
}

// sessionFor picks the session and history preamble for a source; each
// source keeps its own conversation so a cron job never sees the chat.
func sessionFor(req Request) (session, preamble string) {
	switch req.Source {
	case SourceHeartbeat:
		return "heartbeat", "You are operating in the heartbeat monitoring context (session: heartbeat). The following is the recent heartbeat conversation history."
	case SourceCron:
		job := ""
		if name, ok := req.Metadata["jobName"].(string); ok && name != "" {
			job = ", job: " + name
		}
		return "cron/default", "You are operating in the cron job context (session: cron/default" + job + "). This is an automated cron job execution."
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
	if req.Seq == 0 {
		reqEv, err := w.events.AppendCaused("agent.work.requested", requestPayload{Source: req.Source, Prompt: req.Prompt, Metadata: req.Metadata}, req.CausedBy)
		if err != nil {
			w.log.Error("Recording agent.work.requested failed", "source", req.Source, "err", err)
		}
		req.Seq = reqEv.Seq
	}
	lane, ok := w.lanes[req.Source]
	if !ok {
		err := fmt.Errorf("unknown work source %q", req.Source)
		_, _ = w.events.AppendCaused("agent.work.error", map[string]any{"source": req.Source, "error": err.Error(), "durationMs": 0, "metadata": req.Metadata}, req.Seq)
		return Outcome{Err: err}
	}
	if req.Source == SourceHeartbeat || req.Source == SourceCron {
		select {
		case lane <- struct{}{}:
		default:
			w.skip(req, req.Seq, "busy")
			return Outcome{Skip: "busy"}
		}
	} else {
		select {
		case lane <- struct{}{}:
		case <-ctx.Done():
			_, _ = w.events.AppendCaused("agent.work.error", map[string]any{"source": req.Source, "error": ctx.Err().Error(), "durationMs": 0, "metadata": req.Metadata}, req.Seq)
			return Outcome{Err: ctx.Err()}
		}
	}
	defer func() { <-lane }()

	start := w.now()
	session, preamble := sessionFor(req)
	res, err := w.agent.AskWithSession(ctx, req.Prompt, session, preamble)
	if err != nil {
		_, _ = w.events.AppendCaused("agent.work.error", map[string]any{"source": req.Source, "error": err.Error(), "durationMs": w.now().Sub(start).Milliseconds(), "metadata": req.Metadata}, req.Seq)
		return Outcome{Err: err}
	}
	text, urgency, skip := w.gate(req.Source, res)
	if skip != "" {
		w.skip(req, req.Seq, skip)
		return Outcome{Skip: skip, Text: res.Text}
	}
	ch, err := w.notify.Notify(ctx, text, urgency, string(req.Source))
	delivered := err == nil
	if delivered {
		w.delivered(req.Source, text)
	} else {
		w.log.Warn("Notification not delivered", "source", req.Source, "err", err)
	}
	_, _ = w.events.AppendCaused("agent.work.done", map[string]any{"source": req.Source, "reply": text, "durationMs": w.now().Sub(start).Milliseconds(), "delivered": delivered, "channel": ch, "metadata": req.Metadata}, req.Seq)
	return Outcome{Delivered: delivered, Channel: ch, Text: text, Err: err}
}

func (w *Worker) skip(req Request, cause int64, reason string) {
	_, _ = w.events.AppendCaused("agent.work.skip", map[string]any{"source": req.Source, "reason": reason, "metadata": req.Metadata}, cause)
}

// notifyCall is the last notify_user call's input, if any.
func notifyCall(res Result) (text, urgency string, ok bool) {
	var call *ToolCall
	for i := range res.ToolCalls {
		if res.ToolCalls[i].Name == "notify_user" {
			call = &res.ToolCalls[i]
		}
	}
	if call == nil {
		return "", "", false
	}
	var in struct {
		Text    string `json:"text"`
		Urgency string `json:"urgency"`
	}
	_ = json.Unmarshal(call.Input, &in) // malformed input reads as empty text
	if in.Urgency == "" {
		in.Urgency = "info"
	}
	return strings.TrimSpace(in.Text), in.Urgency, true
}

// gate decides what reaches the user. The heartbeat speaks only through
// notify_user (no call = "ack"), never repeats itself within 24 h, and
// never sends empty text. Cron and tasks deliver the agent's reply, or,
// when it ended silently, what it passed to notify_user.
func (w *Worker) gate(src Source, res Result) (text, urgency, skip string) {
	nText, nUrgency, called := notifyCall(res)
	if src != SourceHeartbeat {
		if reply := strings.TrimSpace(res.Text); reply != "" {
			return reply, "info", ""
		}
		if called && nText != "" {
			return nText, nUrgency, ""
		}
		return "", "", "empty"
	}
	if !called {
		return "", "", "ack"
	}
	in := struct{ Text, Urgency string }{nText, nUrgency}
	if in.Text == "" {
		return "", "", "empty"
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if in.Text == w.lastMsg && w.now().Sub(w.lastAt) < dedupWindow {
		return "", "", "duplicate"
	}
	return in.Text, in.Urgency, ""
}

// dedupWindow is how long the heartbeat stays quiet about a message it
// already delivered.
const dedupWindow = 24 * time.Hour

// delivered remembers the heartbeat's last delivered text for the
// duplicate gate; a failed delivery is not remembered, so it is retried.
func (w *Worker) delivered(src Source, text string) {
	if src != SourceHeartbeat {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lastMsg, w.lastAt = text, w.now()
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
