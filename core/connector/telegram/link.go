package telegram

import (
	"context"
	"errors"
	"time"
)

// LinkState is the bot's connection to the Bot API.
type LinkState string

// Link states: connecting until the first answer, up while getMe and
// getUpdates succeed, down (retrying with backoff) after any failure —
// an unreachable API, a 401 for a revoked token, a 5xx — and stopped
// after Close.
const (
	LinkConnecting LinkState = "connecting"
	LinkUp         LinkState = "up"
	LinkDown       LinkState = "down"
	LinkStopped    LinkState = "stopped"
)

// Health is what the bot knows about its link, for `alice serve`, the
// status bar and `alice doctor`.
type Health struct {
	State LinkState
	// Bot is the bot's username once getMe answered.
	Bot string
	// Err is the last failure while down (never quotes the token).
	Err error
	// Since is when the link entered State.
	Since time.Time
	// Attempts counts failed connection attempts in a row.
	Attempts int
	// NextRetry is when the next attempt is due (down only).
	NextRetry time.Time
}

// Backoff defaults: the first retry after MinBackoff, doubling up to
// MaxBackoff, so a Bot API that comes back is noticed within MaxBackoff.
const (
	DefaultMinBackoff = time.Second
	DefaultMaxBackoff = 15 * time.Second
	// stillDownEvery spaces the "still unreachable" log lines.
	stillDownEvery = time.Minute
	// firstConnectTimeout bounds the attempt Start makes before returning.
	firstConnectTimeout = 5 * time.Second
)

// Health reports the link.
func (b *Bot) Health() Health {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.health
}

// backoff is the wait after the n-th failure in a row (n ≥ 1), or what the
// API asked for with retry_after.
func (b *Bot) backoff(n int, err error) time.Duration {
	var ae *APIError
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		return time.Duration(ae.RetryAfter) * time.Second
	}
	d := b.o.MinBackoff
	for i := 1; i < n && d < b.o.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, b.o.MaxBackoff)
}

// supervise keeps the link: poll until a failure, back off, reconnect
// (getMe), poll again — until ctx ends. up says whether the attempt Start
// made succeeded; when it did not, Start already recorded the failure and
// wait is the backoff it chose.
func (b *Bot) supervise(ctx context.Context, up bool, wait time.Duration) {
	for ctx.Err() == nil {
		if !up {
			if !sleep(ctx, wait) {
				return
			}
			me, err := b.api.getMe(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				wait = b.markDown(err)
				continue
			}
			b.markUp(me)
		}
		err := b.poll(ctx)
		if err == nil { // ctx ended
			return
		}
		up, wait = false, b.markDown(err)
	}
}

// connectOnce is Start's first getMe, bounded so start-up never hangs on
// a black-holed network.
func (b *Bot) connectOnce(ctx context.Context) (User, error) {
	cctx, cancel := context.WithTimeout(ctx, firstConnectTimeout)
	defer cancel()
	return b.api.getMe(cctx)
}

// markDown records a failure: state down, the next retry time, a log line
// (on the first failure, when the error changes, then once a minute) and a
// connector.down event on the first failure or a changed error.
func (b *Bot) markDown(err error) time.Duration {
	now := time.Now()
	b.mu.Lock()
	h := &b.health
	wasDown := h.State == LinkDown
	changed := !wasDown || h.Err == nil || h.Err.Error() != err.Error()
	if !wasDown {
		h.Since = now
	}
	h.State, h.Err = LinkDown, err
	h.Attempts++
	wait := b.backoff(h.Attempts, err)
	h.NextRetry = now.Add(wait)
	attempts, since := h.Attempts, h.Since
	logIt := changed || now.Sub(b.lastDownLog) >= stillDownEvery
	if logIt {
		b.lastDownLog = now
	}
	b.mu.Unlock()
	if logIt {
		b.log.Warn("Telegram Bot API not reachable; retrying with backoff", "err", err, "attempt", attempts,
			"retryIn", wait.Round(time.Millisecond).String(), "downFor", now.Sub(since).Round(time.Second).String())
	}
	if changed {
		b.record("connector.down", map[string]any{"channel": Channel, "error": err.Error(), "attempt": attempts, "retryInMs": wait.Milliseconds()})
	}
	return wait
}

// markUp records a working link; after an outage it logs and records
// connector.up with how long the link was down.
func (b *Bot) markUp(me User) {
	now := time.Now()
	b.mu.Lock()
	h := &b.health
	prev, since, attempts := h.State, h.Since, h.Attempts
	if prev == LinkUp {
		b.mu.Unlock()
		return
	}
	*h = Health{State: LinkUp, Bot: me.Username, Since: now}
	b.mu.Unlock()
	if prev == LinkDown {
		down := now.Sub(since)
		b.log.Info("Telegram Bot API reachable again; polling", "bot", me.Username, "downFor", down.Round(time.Millisecond).String(), "failedAttempts", attempts)
		b.record("connector.up", map[string]any{"channel": Channel, "bot": me.Username, "downMs": down.Milliseconds(), "failedAttempts": attempts})
		return
	}
	b.log.Info("Telegram bot polling", "bot", me.Username)
	b.record("connector.up", map[string]any{"channel": Channel, "bot": me.Username})
}
