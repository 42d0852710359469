package app

import (
	"context"
	"fmt"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/pubsub"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/uta"
)

// buildScheduling creates the ConnectorCenter, the agent-work worker, the
// cron engine (and its tools), the heartbeat and the webhook route.
func (a *App) buildScheduling() error {
	o := a.opts
	conns, err := connector.New(o.Paths.Data)
	if err != nil {
		return err
	}
	a.connectors = conns
	a.notes = pubsub.New[connector.Notification]()
	conns.Register(connector.NewBroadcast("tui", a.notes))
	if a.ask != nil {
		conns.Register(connector.NewQueue(mcp.AskChannel))
	}
	log := a.log.With("component", "schedule")
	a.worker, err = schedule.NewWorker(scheduleAgent{a}, conns, a.events, log, schedule.WorkerOptions{DataDir: o.Paths.Data, Runner: workRunner{a}})
	if err != nil {
		return fmt.Errorf("work queue: %w", err)
	}
	schedule.RegisterWorkTools(a.tools, a.worker)
	eng, err := schedule.NewEngine(o.Paths.Data, a.worker, a.events, log, nil, schedule.WithMarketCalendar(marketCalendar{a}))
	if err != nil {
		return fmt.Errorf("cron: %w", err)
	}
	a.cron = eng
	schedule.RegisterTools(a.tools, eng)
	a.heartbeat = schedule.NewHeartbeat(o.Store, a.worker, a.events, log)
	a.heartbeat.SetMarketCalendar(marketCalendar{a})
	a.automation = schedule.NewAutomation(eng, a.heartbeat)
	connector.RegisterTools(a.tools, conns)
	// Accepted webhook requests are tasks of the durable queue, on disk
	// before the caller hears 201.
	a.mcp.Handle("/api/events/ingest", schedule.NewWebhook(o.Store, a.worker))
	return nil
}

// Automation is the automation use case: cron jobs and the heartbeat.
func (a *App) Automation() *schedule.Automation { return a.automation }

// startScheduling starts the cron and heartbeat loops.
func (a *App) startScheduling(ctx context.Context) error {
	a.worker.Start(ctx)
	a.onClose("agent work", func(context.Context) error { return a.worker.Close() })
	a.cron.Start(ctx)
	a.onClose("cron", func(context.Context) error { return a.cron.Close() })
	a.goLoop("heartbeat", func() { a.heartbeat.Run(ctx) })
	a.goLoop("approval notices", func() { a.forwardApprovals(ctx) })
	a.startTelegram(ctx)
	return nil
}

// forwardApprovals tells the people — every human channel that is up
// (TUI, Telegram), never an agent connector, whatever channel was used
// last — when a commit waits for approval, naming its hash and operations.
//
// Receiving and sending are decoupled: a slow channel (Telegram over a bad
// network) must never hold up the trading subscription, or later events
// would be dropped by the bus's delivery timeout.
func (a *App) forwardApprovals(ctx context.Context) {
	queue := make(chan trading.Event, 256)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for ev := range queue {
			text := approvalText(ev)
			if res, ok := ev.Data.(git.PushResult); ok {
				text = "On " + ev.AccountID + ": " + pushSummary(res)
			}
			if _, err := a.connectors.NotifyHumansPlain(ctx, text, "important", "trading"); err != nil {
				a.log.Warn("Approval notice not delivered", "err", err)
			}
		}
	}()
	for ev := range a.trading.Subscribe(ctx) {
		switch ev.Type {
		case trading.EventApprovalRequest:
			if p, ok := ev.Data.(uta.PendingApproval); ok {
				// the evidence is read now, while the quote is the one the
				// person will judge by
				if e, err := a.trading.Evidence(ctx, p.AccountID, p.Hash); err == nil {
					ev.Data = approvalWithEvidence{p, e}
				}
			}
		case trading.EventPushed:
			// a guard that stops an approved operation must reach the
			// person as a notification that stays, not a fading line
			if res, ok := ev.Data.(git.PushResult); !ok || len(res.Rejected) == 0 {
				continue
			}
		default:
			continue
		}
		select {
		case queue <- ev:
		default:
			a.log.Error("Approval notice dropped: 256 notices already waiting to be sent", "account", ev.AccountID, "hash", ev.Hash)
		}
	}
	close(queue)
	<-sent
}

// approvalText names the commit (hash, message, operations) so what the
// person reads is what an approval would execute. The notice is plain text
// (NotifyHumansPlain: Markdown surfaces show it literally) and everything
// an agent or a broker supplied is one plain line (core.PlainLine), so no
// fake "•" lines, links or emphasis come out of it. The operations come
// first, in full; the agent's message last.
func approvalText(ev trading.Event) string {
	text := "A trading commit is waiting for your approval"
	if ev.AccountID != "" {
		text += " on " + ev.AccountID
	}
	if pe, ok := ev.Data.(approvalWithEvidence); ok {
		text += fmt.Sprintf(": %s\n%s\nMessage: %s\n", pe.p.Hash, core.PlainLines(pe.e.Text()), git.DisplayMessage(pe.p.Message))
	} else if p, ok := ev.Data.(uta.PendingApproval); ok {
		text += ": " + p.Hash
		for _, op := range p.Operations {
			text += "\n• " + core.PlainLine(op.Describe(), 0)
		}
		text += "\nMessage: " + git.DisplayMessage(p.Message) + "\n"
	} else {
		text += " "
	}
	return text + "(Portfolio pane, or /trading in Telegram)."
}

// approvalWithEvidence is an approval request with the evidence read when
// it was announced.
type approvalWithEvidence struct {
	p uta.PendingApproval
	e uta.Evidence
}

// pushSummary says what a push did, naming every operation a guard or the
// broker refused and why, in plain text: the symbol and the refusal (a
// broker's own words) on one plain line each.
func pushSummary(res git.PushResult) string {
	s := fmt.Sprintf("Pushed %s: %d submitted, %d rejected.", res.Hash, len(res.Submitted), len(res.Rejected))
	for _, r := range res.Rejected {
		s += fmt.Sprintf("\n✗ %s %s: %s", r.Action, core.PlainLine(r.Symbol, 0), core.PlainLine(r.Error, 500))
	}
	return s
}

// scheduleAgent adapts the AgentCenter for scheduled work.
type scheduleAgent struct{ a *App }

func (s scheduleAgent) AskWithSession(ctx context.Context, prompt, sessionID, preamble string) (schedule.Result, error) {
	st, err := s.a.agent.AskWithSession(ctx, prompt, sessionID, agent.Options{Channel: sessionID, Preamble: preamble})
	if err != nil {
		return schedule.Result{}, err
	}
	res, err := st.Wait()
	out := schedule.Result{Text: res.Text}
	for _, tc := range res.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, schedule.ToolCall{Name: tc.Name, Input: tc.Input})
	}
	return out, err
}

// RetryWork queues a failed or abandoned task again (the Activity pane's
// retry; MCP has workRetry) and returns the new task's id.
func (a *App) RetryWork(id string) (string, error) {
	t, err := a.worker.Retry(id)
	return t.ID, err
}
