package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/connector/telegram"
)

// startTelegram starts the bot when connectors.json enables it. A bad token
// is a start-up problem shown in the UI, not a crash: the rest of alice
// works without Telegram.
func (a *App) startTelegram(ctx context.Context) {
	cfg, err := a.opts.Store.Connectors()
	if err != nil || !cfg.Telegram.Enabled {
		return
	}
	a.creds.add(cfg.Telegram.BotTokenEnv)
	tok, err := telegram.ResolveToken(cfg.Telegram)
	if err != nil {
		a.reportStartupProblem(fmt.Errorf("telegram: %w", err))
		return
	}
	bot, err := telegram.New(telegram.Options{Config: cfg.Telegram, Token: tok, Agent: telegramAgent{a}, Center: a.connectors,
		Commands: telegramCommands{a}, Approvals: telegramApprovals{a}, Halt: telegramHalt{a}, Events: a.events, Logger: a.log.With("component", "telegram")})
	if err != nil {
		a.reportStartupProblem(fmt.Errorf("telegram: %w", err))
		return
	}
	a.connectors.Register(bot)
	// Start never gives up on the Bot API: an unreachable API or a 401 at
	// start is retried with backoff and shown by TelegramHealth.
	if err := bot.Start(ctx); err != nil {
		a.reportStartupProblem(fmt.Errorf("telegram: %w", err))
		return
	}
	a.mu.Lock()
	a.telegram = bot
	a.mu.Unlock()
	a.onClose("telegram", func(context.Context) error { return bot.Close() })
}

// TelegramHealth reports the Telegram link (ok false when the connector
// is not running).
func (a *App) TelegramHealth() (telegram.Health, bool) {
	a.mu.Lock()
	bot := a.telegram
	a.mu.Unlock()
	if bot == nil {
		return telegram.Health{}, false
	}
	return bot.Health(), true
}

// TelegramLine describes the link in one line ("" when off), for `alice
// serve`'s start-up lines and the status bar.
func (a *App) TelegramLine() string {
	h, ok := a.TelegramHealth()
	if !ok {
		return ""
	}
	switch h.State {
	case telegram.LinkUp:
		return "telegram: connected as @" + h.Bot + ", polling the Bot API"
	case telegram.LinkDown:
		hint := ""
		var ae *telegram.APIError
		if errors.As(h.Err, &ae) && (ae.Code == 401 || ae.Code == 404) {
			hint = " (check botToken in " + a.opts.Store.Path(config.ConnectorsFile) + ")"
		}
		return fmt.Sprintf("telegram: Bot API not reachable: %v%s; retrying with backoff (next try in %s)", h.Err, hint, time.Until(h.NextRetry).Round(time.Second))
	default:
		return "telegram: " + string(h.State)
	}
}

type telegramAgent struct{ a *App }

func (t telegramAgent) AskWithSession(ctx context.Context, prompt, sessionID string) (string, error) {
	s, err := t.a.agent.AskWithSession(ctx, prompt, sessionID, agent.Options{Channel: "telegram",
		Preamble: "You are operating via Telegram (session: " + sessionID + "). Keep replies short and plain."})
	if err != nil {
		return "", err
	}
	res, err := s.Wait()
	return res.Text, err
}

type telegramCommands struct{ a *App }

func (t telegramCommands) Status(ctx context.Context) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "AI: %s\n", t.a.ProviderLabel("telegram"))
	for _, l := range t.a.Listeners() {
		fmt.Fprintf(&b, "%s: %s\n", l.Name, l.URL)
	}
	for _, s := range t.a.Trading().Accounts() {
		line := fmt.Sprintf("%s (%s): %s", s.ID, s.Preset, s.Health)
		if info, err := t.a.Trading().Account(ctx, s.ID); err == nil {
			line += fmt.Sprintf(" · net liq %s · unrealized %s", info.NetLiquidation.StringFixed(2), info.UnrealizedPnL.StringFixed(2))
		}
		b.WriteString(line + "\n")
	}
	if n := len(t.a.Trading().Pending()); n > 0 {
		fmt.Fprintf(&b, "%d commit(s) waiting for approval: /trading\n", n)
	}
	return b.String(), nil
}

func (t telegramCommands) Compact(ctx context.Context, sessionID string) (string, error) {
	if err := t.a.agent.Compact(ctx, sessionID); err != nil {
		return "", err
	}
	return "Session compacted.", nil
}

func (t telegramCommands) SetHeartbeat(enabled bool) error {
	return t.a.automation.SetHeartbeat(enabled)
}

type telegramApprovals struct{ a *App }

func (t telegramApprovals) Pending(ctx context.Context) ([]telegram.PendingCommit, error) {
	var out []telegram.PendingCommit
	for _, p := range t.a.Trading().Pending() {
		pc := telegram.PendingCommit{Account: p.AccountID, Label: p.Label, Hash: p.Hash, Message: p.Message}
		if ev, err := t.a.Trading().Evidence(ctx, p.AccountID, p.Hash); err == nil {
			for _, oe := range ev.Ops {
				pc.Operations = append(pc.Operations, strings.TrimPrefix(oe.Text(), "• "))
			}
		} else {
			for _, op := range p.Operations {
				pc.Operations = append(pc.Operations, op.Describe()+" (evidence unavailable: "+err.Error()+")")
			}
		}
		out = append(out, pc)
	}
	return out, nil
}

func (t telegramApprovals) Approve(ctx context.Context, account, hash string) (string, error) {
	res, err := t.a.Trading().Push(ctx, account, hash)
	if err != nil {
		return "", err
	}
	return pushSummary(res), nil
}

func (t telegramApprovals) Reject(ctx context.Context, account, hash string) (string, error) {
	c, err := t.a.Trading().Reject(ctx, account, hash, "rejected via Telegram")
	if err != nil {
		return "", err
	}
	return "Rejected " + c.Hash + ".", nil
}

// telegramHalt pulls the kill switch for a person who confirmed /halt.
type telegramHalt struct{ a *App }

func (t telegramHalt) Halt(ctx context.Context, by string) (string, error) {
	rep, err := t.a.trading.Halt(ctx, by, "Telegram /halt")
	if err != nil {
		return "", err
	}
	return HaltSummary(rep) + "Lift it with: alice resume", nil
}

var _ connector.Connector = (*telegram.Bot)(nil)

var _ telegram.WorkCommands = telegramCommands{}

// RunJob is Telegram's /run: the job goes through the work queue with the
// message as its idempotency key.
func (t telegramCommands) RunJob(idOrName, key string) (string, error) {
	j, err := t.a.cron.RunDetachedKeyed(idOrName, key)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Running %q now; the result will arrive here.", j.Name), nil
}

// RetryTask is Telegram's /retry.
func (t telegramCommands) RetryTask(id string) (string, error) {
	n, err := t.a.RetryWork(id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Retrying as task %s; the result will arrive here.", n), nil
}
