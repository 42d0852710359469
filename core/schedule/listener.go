package schedule

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/alice-trading/alice/core/eventlog"
)

// Subscriber is the event-log subscription the Listener reads.
type Subscriber interface {
	Subscribe(ctx context.Context) <-chan eventlog.Entry
}

// Start runs the AgentWork listener until ctx ends or Close: every queued
// agent.work.requested event (the webhook's, or any producer that only
// records the event) is run through the agent, one goroutine per request
// so a slow cron turn does not hold up a task. Requests recorded by Run
// itself are not queued and are ignored here.
func (w *Worker) Start(ctx context.Context, sub Subscriber) {
	ctx, cancel := context.WithCancel(ctx)
	entries := sub.Subscribe(ctx)
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-entries:
				if !ok {
					return
				}
				req, ok := queuedRequest(e)
				if !ok {
					continue
				}
				w.wg.Add(1)
				go func() {
					defer w.wg.Done()
					out := w.Run(ctx, req)
					w.log.Info("Queued agent work finished", "source", req.Source, "seq", req.Seq, "outcome", out.String())
				}()
			}
		}
	}()
}

// Close stops the listener and waits for the requests it started.
func (w *Worker) Close() error {
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	w.wg.Wait()
	return nil
}

// queuedRequest turns a queued agent.work.requested entry into a Request.
func queuedRequest(e eventlog.Entry) (Request, bool) {
	if e.Type != "agent.work.requested" {
		return Request{}, false
	}
	var p requestPayload
	if json.Unmarshal(e.Payload, &p) != nil || !p.Queued || !p.Source.Valid() || strings.TrimSpace(p.Prompt) == "" {
		return Request{}, false
	}
	return Request{Source: p.Source, Prompt: p.Prompt, Metadata: p.Metadata, Seq: e.Seq}, true
}
