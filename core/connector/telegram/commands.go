package telegram

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
)

const helpText = `Alice on Telegram. Write anything to talk to her.
/status – what Alice is up to
/compact – compact this chat's session
/heartbeat on|off – turn the heartbeat on or off
/trading – pending trading commits, with push/reject buttons
/halt – kill switch: freeze staging on every account and cancel resting orders (asks to confirm)
/settings – AI profile, heartbeat and notifications on/off
/notifications – recent notifications
/run JOB – run a cron job now (id or name), through the work queue
/retry TASK – run a failed or abandoned task again`

// onCommand runs a slash command from an allow-listed chat.
func (b *Bot) onCommand(ctx context.Context, chat, msgID int64, text string) {
	fields := strings.Fields(text)
	cmd := strings.ToLower(fields[0])
	if at := strings.IndexByte(cmd, '@'); at > 0 {
		cmd = cmd[:at] // /status@AliceBot in group chats
	}
	args := fields[1:]
	b.o.Center.Touch(Channel, strconv.FormatInt(chat, 10))
	var (
		out string
		kb  *InlineKeyboard
		err error
	)
	switch cmd {
	case "/start", "/help":
		out = helpText
	case "/status":
		if b.o.Commands == nil {
			out = "Status is not available."
		} else {
			out, err = b.o.Commands.Status(ctx)
		}
	case "/compact":
		if b.o.Commands == nil {
			out = "Compaction is not available."
			break
		}
		// Compaction calls the model: run it off the poll loop, after any
		// conversation turn on this chat's session.
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			l := b.chatLock(chat)
			l.Lock()
			defer l.Unlock()
			msg, err := b.o.Commands.Compact(ctx, SessionID(chat))
			if err != nil {
				msg = "Failed: " + err.Error()
			}
			if err := b.reply(ctx, chat, msg, nil); err != nil {
				b.log.Error("Telegram command reply failed", "command", cmd, "err", err)
			}
		}()
		return
	case "/heartbeat":
		out, kb, err = b.heartbeatCommand(args)
	case "/settings":
		out, kb, err = b.settingsPanel()
	case "/notifications":
		out, err = b.notificationsList()
	case "/run", "/retry":
		wc, ok := b.o.Commands.(WorkCommands)
		switch {
		case !ok:
			out = "Running work is not available here."
		case len(args) == 0 && cmd == "/run":
			out = "Usage: /run JOB (a cron job's id or name; cronList shows them)"
		case len(args) == 0:
			out = "Usage: /retry TASK (a failed task's id)"
		case cmd == "/run":
			// The key is this message: Telegram re-delivering it never runs
			// the job twice.
			out, err = wc.RunJob(strings.Join(args, " "), fmt.Sprintf("telegram:%d:%d", chat, msgID))
		default:
			out, err = wc.RetryTask(args[0])
		}
	case "/trading":
		out, kb, err = b.tradingPanel(ctx, chat)
	case "/halt":
		if b.o.Halt == nil {
			out = "The kill switch is not available here; use alice halt."
		} else {
			out = "Halt trading on EVERY account? Staging freezes, commits awaiting approval are withdrawn and every resting order is cancelled. Only a person lifts it (alice resume)."
			kb = &InlineKeyboard{InlineKeyboard: [][]InlineButton{{{Text: "Halt all trading", CallbackData: "halt:confirm"}}}}
		}
	default:
		out = "Unknown command " + cmd + ".\n" + helpText
	}
	if err != nil {
		out = "Failed: " + err.Error()
	}
	if out == "" {
		return // the command already replied (per-commit panels)
	}
	if err := b.reply(ctx, chat, out, kb); err != nil {
		b.log.Error("Telegram command reply failed", "command", cmd, "err", err)
	}
}

func (b *Bot) heartbeatCommand(args []string) (string, *InlineKeyboard, error) {
	if b.o.Commands == nil {
		return "The heartbeat is not available.", nil, nil
	}
	if len(args) == 0 {
		return "Heartbeat:", &InlineKeyboard{InlineKeyboard: [][]InlineButton{{
			{Text: "On", CallbackData: "heartbeat:on"}, {Text: "Off", CallbackData: "heartbeat:off"},
		}}}, nil
	}
	return b.setHeartbeat(args[0])
}

func (b *Bot) setHeartbeat(arg string) (string, *InlineKeyboard, error) {
	switch strings.ToLower(arg) {
	case "on":
		return "Heartbeat enabled.", nil, b.o.Commands.SetHeartbeat(true)
	case "off":
		return "Heartbeat disabled.", nil, b.o.Commands.SetHeartbeat(false)
	}
	return "Usage: /heartbeat on|off", nil, nil
}

// tradingPanel sends one message per pending commit with push/reject
// buttons; it returns text only when there is nothing to show.
func (b *Bot) tradingPanel(ctx context.Context, chat int64) (string, *InlineKeyboard, error) {
	if b.o.Approvals == nil {
		return "Trading approvals are not available.", nil, nil
	}
	pending, err := b.o.Approvals.Pending(ctx)
	if err != nil {
		return "", nil, err
	}
	if len(pending) == 0 {
		return "No commits are waiting for approval.", nil, nil
	}
	for _, p := range pending {
		var sb strings.Builder
		name := p.Account
		if p.Label != "" {
			name = p.Label + " (" + p.Account + ")"
		}
		// the operations first and in full, then the agent's message as
		// one line of plain text: escaped so it cannot draw "•" lines,
		// links or formatting, and cut at maxShownMessage characters
		fmt.Fprintf(&sb, "%s – commit %s", core.MarkdownLine(name, 0), core.MarkdownLine(p.Hash, 0))
		for _, op := range p.Operations {
			sb.WriteString("\n• " + core.MarkdownLines(op))
		}
		sb.WriteString("\nMessage: " + core.MarkdownLine(p.Message, maxShownMessage))
		kb := &InlineKeyboard{InlineKeyboard: [][]InlineButton{{
			{Text: "Push " + p.Hash, CallbackData: tradingCallback("push", p.Account, p.Hash)},
			{Text: "Reject", CallbackData: tradingCallback("reject", p.Account, p.Hash)},
		}}}
		if err := b.reply(ctx, chat, sb.String(), kb); err != nil {
			return "", nil, err
		}
	}
	return "", nil, nil
}

// onCallback handles an inline button tap. Only taps in allow-listed
// chats act: for trading:push that tap is the human approval.
func (b *Bot) onCallback(ctx context.Context, q *CallbackQuery) {
	chat := q.From.ID
	if q.Message != nil {
		chat = q.Message.Chat.ID
	}
	if !b.isAllowed(chat) {
		if n, ok := b.strangers.note(chat, time.Now()); ok {
			b.log.Warn("Ignoring Telegram buttons from a chat not on the allow list", "chat", chat, "ignoredSinceLastLine", n)
		}
		_ = b.api.answerCallbackQuery(ctx, q.ID, "Not allowed.")
		return
	}
	b.o.Center.Touch(Channel, strconv.FormatInt(chat, 10))
	out, ack := b.runCallback(ctx, q.Data)
	if err := b.api.answerCallbackQuery(ctx, q.ID, ack); err != nil {
		b.log.Warn("answerCallbackQuery failed", "err", err)
	}
	// A decision's reply is plain text that carries a broker's or a
	// guard's own words (a refusal): shown literally, never as Markdown.
	if err := b.reply(ctx, chat, core.MarkdownLines(out), nil); err != nil {
		b.log.Error("Telegram button reply failed", "err", err)
	}
}

// maxCallbackData is Telegram's limit on a button's callback_data.
const maxCallbackData = 64

// tradingCallback is a push/reject button's data: the action, the account
// and the hash of the commit the message showed, so a tap can only decide
// that commit. An account id too long to fit is left out; the hash alone
// then names the commit.
func tradingCallback(action, account, hash string) string {
	data := "trading:" + action + ":" + account + ":" + hash
	if len(data) > maxCallbackData {
		data = "trading:" + action + "::" + hash
	}
	return data
}

func (b *Bot) runCallback(ctx context.Context, data string) (reply, ack string) {
	parts := strings.SplitN(data, ":", 3)
	switch {
	case len(parts) == 2 && parts[0] == "heartbeat" && b.o.Commands != nil:
		out, _, err := b.setHeartbeat(parts[1])
		if err != nil {
			return "Failed: " + err.Error(), "Failed"
		}
		return out, "OK"
	case parts[0] == "settings":
		return b.settingsCallback(data)
	case len(parts) == 3 && parts[0] == "trading" && b.o.Approvals != nil:
		return b.tradingDecision(ctx, parts[1], parts[2])
	case data == "halt:confirm" && b.o.Halt != nil:
		out, err := b.o.Halt.Halt(ctx, "a person on Telegram")
		if err != nil {
			return "Failed: " + err.Error(), "Failed"
		}
		return out, "Halted"
	}
	return "That button is no longer valid.", "Unknown"
}

// tradingDecision runs a push/reject tap. Buttons without a commit hash
// (sent before approvals were bound to hashes) decide nothing.
func (b *Bot) tradingDecision(ctx context.Context, action, rest string) (reply, ack string) {
	i := strings.LastIndexByte(rest, ':')
	if i < 0 || rest[i+1:] == "" {
		return "That button does not name a commit, so it decides nothing. Send /trading for the commits waiting now.", "Refused"
	}
	account, hash := rest[:i], rest[i+1:]
	if account == "" {
		pending, err := b.o.Approvals.Pending(ctx)
		if err != nil {
			return "Failed: " + err.Error(), "Failed"
		}
		for _, p := range pending {
			if p.Hash == hash {
				account = p.Account
			}
		}
		if account == "" {
			return "Commit " + hash + " is no longer waiting; nothing was done. Send /trading for the commits waiting now.", "Refused"
		}
	}
	var (
		out string
		err error
	)
	switch action {
	case "push":
		out, err = b.o.Approvals.Approve(ctx, account, hash)
	case "reject":
		out, err = b.o.Approvals.Reject(ctx, account, hash)
	default:
		return "Unknown action " + action + ".", "Unknown"
	}
	if err != nil {
		return "Failed: " + err.Error() + "\nSend /trading for the commits waiting now.", "Failed"
	}
	return out, "Done"
}
