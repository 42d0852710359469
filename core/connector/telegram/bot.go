// Package telegram is the Telegram connector: a Bot API long-polling bot
// that lets allow-listed chats talk to Alice (session telegram/<chatId>),
// run a few commands (/status, /compact, /heartbeat, /trading) and receive
// notifications when Telegram was the last channel the user used.
package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/eventlog"
)

// Channel is the connector's channel name.
const Channel = "telegram"

// Asker runs one user message through the agent on a session.
type Asker interface {
	AskWithSession(ctx context.Context, prompt, sessionID string) (string, error)
}

// Toucher records the channel the user last interacted through
// (connector.Center).
type Toucher interface {
	Touch(channel, to string)
}

// Commands backs the slash commands that are not conversations.
type Commands interface {
	Status(ctx context.Context) (string, error)
	Compact(ctx context.Context, sessionID string) (string, error)
	SetHeartbeat(enabled bool) error
}

// Halter pulls the trading kill switch for a person and says what it did.
type Halter interface {
	Halt(ctx context.Context, by string) (string, error)
}

// WorkCommands backs /run and /retry (optional: the Commands value may
// implement it). Both queue work in the durable work queue and answer at
// once; the result arrives as a notification.
type WorkCommands interface {
	RunJob(idOrName, key string) (string, error)
	RetryTask(id string) (string, error)
}

// PendingCommit is a trading commit waiting for a human push approval.
type PendingCommit struct {
	Account    string
	Label      string
	Hash       string
	Message    string
	Operations []string
}

// Approvals lists and decides pending trading commits. A person tapping a
// trading:push button in an allow-listed chat IS the approval — of the
// commit whose hash the button carries, which Approve must refuse if the
// account's prepared commit is no longer that one.
type Approvals interface {
	Pending(ctx context.Context) ([]PendingCommit, error)
	Approve(ctx context.Context, account, hash string) (string, error)
	Reject(ctx context.Context, account, hash string) (string, error)
}

// EventLog records message.received / message.sent.
type EventLog interface {
	Append(typ string, payload any) (eventlog.Entry, error)
}

// Options wires a Bot. Agent and Center are required; Commands, Approvals
// and Events are optional (the matching commands then say so).
type Options struct {
	Config    config.Telegram
	Token     string // see ResolveToken
	Agent     Asker
	Center    Toucher
	Commands  Commands
	Approvals Approvals
	// Halt is the kill switch (/halt, confirmed by a button); nil hides it.
	Halt   Halter
	Events EventLog
	HTTP   *http.Client
	Logger *slog.Logger
	// PollTimeout is getUpdates' long-poll timeout (default 25 s).
	PollTimeout time.Duration
	// IdleDelay is the least time between two polls that returned nothing,
	// so a server that does not long-poll (an emulator) is not hammered.
	IdleDelay time.Duration
	// MinBackoff and MaxBackoff bound the wait between reconnection
	// attempts (DefaultMinBackoff, DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
}

// Bot is the Telegram connector. It implements connector.Connector.
type Bot struct {
	o       Options
	api     *client
	allowed []int64
	log     *slog.Logger

	mu     sync.Mutex
	cancel context.CancelFunc
	closed bool
	wg     sync.WaitGroup
	chats  map[int64]*sync.Mutex // serialises agent turns per chat
	offset int64

	health      Health
	lastDownLog time.Time
	strangers   strangerLog
}

// ResolveToken returns the bot token from botToken or the botTokenEnv
// variable, with a clear error naming the key when neither is set.
func ResolveToken(c config.Telegram) (string, error) {
	if c.BotToken != "" {
		return c.BotToken, nil
	}
	if c.BotTokenEnv != "" {
		if v := strings.TrimSpace(os.Getenv(c.BotTokenEnv)); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("telegram.botTokenEnv: environment variable %s is empty", c.BotTokenEnv)
	}
	return "", errors.New("telegram.botToken: set botToken or botTokenEnv")
}

// New builds the bot; nothing talks to Telegram until Start.
func New(o Options) (*Bot, error) {
	if o.Token == "" {
		return nil, errors.New("telegram: empty bot token")
	}
	if o.Agent == nil || o.Center == nil {
		return nil, errors.New("telegram: Agent and Center are required")
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.PollTimeout <= 0 {
		o.PollTimeout = 25 * time.Second
	}
	if o.IdleDelay <= 0 {
		o.IdleDelay = time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	base := o.Config.APIBaseURL
	if base == "" {
		base = "https://api.telegram.org"
	}
	api, err := newClient(base, o.Token, o.HTTP)
	if err != nil {
		return nil, err
	}
	return &Bot{
		o:       o,
		api:     api,
		allowed: slices.Clone(o.Config.ChatIDs),
		log:     o.Logger,
		chats:   map[int64]*sync.Mutex{},
		health:  Health{State: LinkConnecting, Since: time.Now()},
	}, nil
}

// Channel implements connector.Connector.
func (b *Bot) Channel() string { return Channel }

// Capabilities implements connector.Connector: allow-listed people read it.
func (b *Bot) Capabilities() connector.Capabilities {
	return connector.Capabilities{Push: true, Human: true}
}

// Up implements connector.Liveness: the bot is polling the Bot API (its
// last getMe/getUpdates succeeded) and Close has not been called.
func (b *Bot) Up() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cancel != nil && !b.closed && b.health.State == LinkUp
}

// Send delivers a notification to the chat the user last wrote from, or
// the first allow-listed chat. It never writes to a chat off the list.
// Muting (/settings) silences routine notifications only: "important" ones
// — a trading commit waiting for approval, a workspace agent that needs
// you — still arrive, since nobody else may be there to see them.
func (b *Bot) Send(ctx context.Context, n connector.Notification) error {
	if b.muted() && n.Urgency != "important" {
		return ErrMuted
	}
	chat, ok := int64(0), false
	if id, err := strconv.ParseInt(n.To, 10, 64); err == nil && b.isAllowed(id) {
		chat, ok = id, true
	} else if len(b.allowed) > 0 {
		chat, ok = b.allowed[0], true
	}
	if !ok {
		return errors.New("telegram: no allow-listed chat to deliver to (connectors.json telegram.chatIds)")
	}
	text := n.Text
	if n.Plain {
		text = core.MarkdownLines(text)
	}
	return b.reply(ctx, chat, text, nil)
}

// Start makes a first getMe (bounded by a few seconds, so `alice serve`
// can say truthfully whether the Bot API answered) and then keeps the link
// in the background until ctx ends or Close: polling while it works,
// retrying with backoff after any failure — at start too (closed port,
// 401) — and reporting each change in Health, the log and the event log
// (connector.down / connector.up). It fails only when already closed.
func (b *Bot) Start(ctx context.Context) error {
	b.mu.Lock()
	if b.closed || b.cancel != nil {
		b.mu.Unlock()
		return errors.New("telegram: bot already started or closed")
	}
	ctx, cancel := context.WithCancel(ctx)
	b.cancel = cancel
	b.mu.Unlock()
	if len(b.allowed) == 0 {
		b.log.Warn("Telegram allow list is empty: every message will be ignored")
	}
	me, err := b.connectOnce(ctx)
	var wait time.Duration
	if err == nil {
		b.markUp(me)
	} else {
		wait = b.markDown(err)
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.supervise(ctx, err == nil, wait)
	}()
	return nil
}

// Close stops polling and waits for in-flight handlers.
func (b *Bot) Close() error {
	b.mu.Lock()
	cancel := b.cancel
	b.closed = true
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	b.wg.Wait()
	b.mu.Lock()
	b.health = Health{State: LinkStopped, Bot: b.health.Bot, Since: time.Now()}
	b.mu.Unlock()
	return nil
}

// poll long-polls getUpdates, advancing the offset past every update seen
// so nothing is processed twice, until ctx ends (nil) or a call fails (the
// error, for supervise to back off and reconnect).
func (b *Bot) poll(ctx context.Context) error {
	for ctx.Err() == nil {
		start := time.Now()
		ups, err := b.api.getUpdates(ctx, b.nextOffset(), b.o.PollTimeout)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		handled := 0
		for _, u := range ups {
			if !b.advance(u.UpdateID) {
				continue // a server ignoring offset re-sent it
			}
			handled++
			b.handle(ctx, u)
		}
		if handled == 0 && time.Since(start) < b.o.IdleDelay {
			if !sleep(ctx, b.o.IdleDelay-time.Since(start)) {
				return nil
			}
		}
	}
	return nil
}

func (b *Bot) nextOffset() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.offset
}

// advance records an update id; false if it was already seen.
func (b *Bot) advance(id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if id < b.offset {
		return false
	}
	b.offset = id + 1
	return true
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (b *Bot) isAllowed(chat int64) bool { return slices.Contains(b.allowed, chat) }

// handle dispatches one update. Commands and button taps run inline;
// conversations run on their own goroutine (one at a time per chat) so a
// long agent turn does not stop /trading approvals.
func (b *Bot) handle(ctx context.Context, u Update) {
	switch {
	case u.CallbackQuery != nil:
		b.onCallback(ctx, u.CallbackQuery)
	case u.Message != nil && strings.TrimSpace(u.Message.Text) != "":
		m := u.Message
		if !b.isAllowed(m.Chat.ID) {
			if n, ok := b.strangers.note(m.Chat.ID, time.Now()); ok {
				b.log.Warn("Ignoring Telegram messages from a chat not on the allow list", "chat", m.Chat.ID, "ignoredSinceLastLine", n)
			}
			return
		}
		text := strings.TrimSpace(m.Text)
		if strings.HasPrefix(text, "/") {
			b.onCommand(ctx, m.Chat.ID, m.MessageID, text)
			return
		}
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			b.converse(ctx, m.Chat.ID, text)
		}()
	}
}

func (b *Bot) chatLock(chat int64) *sync.Mutex {
	b.mu.Lock()
	defer b.mu.Unlock()
	l, ok := b.chats[chat]
	if !ok {
		l = &sync.Mutex{}
		b.chats[chat] = l
	}
	return l
}

// SessionID is the agent session for a chat.
func SessionID(chat int64) string { return "telegram/" + strconv.FormatInt(chat, 10) }

func (b *Bot) converse(ctx context.Context, chat int64, text string) {
	l := b.chatLock(chat)
	l.Lock()
	defer l.Unlock()
	to := strconv.FormatInt(chat, 10)
	b.o.Center.Touch(Channel, to)
	b.record("message.received", map[string]any{"channel": Channel, "to": to, "prompt": text})
	start := time.Now()
	answer, err := b.ask(ctx, chat, text)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		b.log.Error("Telegram agent turn failed", "chat", chat, "err", err)
		answer = "Sorry, that failed: " + err.Error()
	}
	if strings.TrimSpace(answer) == "" {
		answer = "(no reply)"
	}
	if err := b.reply(ctx, chat, answer, nil); err != nil {
		b.log.Error("Telegram reply failed", "chat", chat, "err", err)
		return
	}
	b.record("message.sent", map[string]any{"channel": Channel, "to": to, "prompt": text, "reply": answer, "durationMs": time.Since(start).Milliseconds()})
}

func (b *Bot) reply(ctx context.Context, chat int64, text string, kb *InlineKeyboard) error {
	parts := splitMessage(text)
	for i, p := range parts {
		var k *InlineKeyboard
		if i == len(parts)-1 {
			k = kb // buttons go under the last chunk
		}
		if err := b.api.sendRich(ctx, chat, p, k); err != nil {
			return err
		}
	}
	return nil
}

func (b *Bot) record(typ string, payload map[string]any) {
	if b.o.Events == nil {
		return
	}
	if _, err := b.o.Events.Append(typ, payload); err != nil {
		b.log.Warn("Recording Telegram event failed", "type", typ, "err", err)
	}
}
