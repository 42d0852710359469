package connector

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// ErrNoHuman means no human connector (TUI, Telegram) is up: the
// notification is recorded in notifications.jsonl but nobody was told yet.
var ErrNoHuman = errors.New("no human channel (TUI, Telegram) is up")

// NotifyHumans records the notification and delivers it to every human
// connector that is up — never to agent connectors such as the Ask port,
// and regardless of the channel used last, because what it carries (an
// approval request, a workspace that needs you) must reach a person. It
// returns the channels delivered to, comma-separated. The notification is
// stored once, before delivery, so a failed send loses nothing.
func (c *Center) NotifyHumans(ctx context.Context, text, urgency, source string) (string, error) {
	return c.notifyHumans(ctx, Notification{Text: text, Urgency: urgency, Source: source})
}

// NotifyHumansPlain is NotifyHumans for plain text alice put together
// around what others supplied (a trading notice naming an agent's symbol
// and message, a broker's refusal): surfaces that render Markdown show it
// literally (Notification.Plain).
func (c *Center) NotifyHumansPlain(ctx context.Context, text, urgency, source string) (string, error) {
	return c.notifyHumans(ctx, Notification{Text: text, Urgency: urgency, Source: source, Plain: true})
}

func (c *Center) notifyHumans(ctx context.Context, n Notification) (string, error) {
	type target struct {
		conn Connector
		to   string
	}
	c.mu.Lock()
	var targets []target
	var names []string
	for _, k := range c.connectors {
		if !k.Capabilities().Human {
			continue
		}
		if l, ok := k.(Liveness); ok && !l.Up() {
			continue
		}
		targets = append(targets, target{k, c.lastTo[k.Channel()]})
		names = append(names, k.Channel())
	}
	if c.last != nil {
		for i, t := range targets {
			if t.conn.Channel() == c.last.Channel {
				targets[i].to = c.last.To // survives restarts via last-interaction.json
			}
		}
	}
	c.mu.Unlock()
	n.ID, n.TS, n.Channel = uuid.NewString(), c.now().UnixMilli(), strings.Join(names, ",")
	if err := c.notes.append(n); err != nil {
		return "", fmt.Errorf("record notification: %w", err)
	}
	if len(targets) == 0 {
		return "", ErrNoHuman
	}
	var delivered []string
	var errs []error
	for _, t := range targets {
		one := n
		one.Channel, one.To = t.conn.Channel(), t.to
		if err := t.conn.Send(ctx, one); err != nil {
			errs = append(errs, fmt.Errorf("deliver to %s: %w", one.Channel, err))
			continue
		}
		delivered = append(delivered, one.Channel)
	}
	return strings.Join(delivered, ","), errors.Join(errs...)
}
