package telegram

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/connector"
)

// SettingsCommands backs /settings. It is optional: the bot asserts it on
// Options.Commands, so embedders that only offer Commands keep working.
type SettingsCommands interface {
	ActiveProfile() string
	HeartbeatEnabled() bool
	NotificationsEnabled() bool
	SetNotifications(on bool) error
}

// notificationLister backs /notifications (connector.Center has Recent).
type notificationLister interface {
	Recent(limit int) ([]connector.Notification, error)
}

// StreamingAsker is an Asker that also reports the model's text written
// before each tool call, so a Telegram user sees "Let me check the
// portfolio…" while the tools run, as the TUI shows it.
type StreamingAsker interface {
	AskStreaming(ctx context.Context, prompt, sessionID string, interim func(text string)) (string, error)
}

// ErrMuted is returned by Send while notifications are switched off in
// /settings; the notification is still stored (and listed by
// /notifications and the TUI).
var ErrMuted = errors.New("telegram notifications are off (turn them on with /settings); important ones still arrive")

func (b *Bot) settingsCommands() (SettingsCommands, bool) {
	sc, ok := b.o.Commands.(SettingsCommands)
	return sc, ok
}

// muted reports that /settings switched notifications off.
func (b *Bot) muted() bool {
	sc, ok := b.settingsCommands()
	return ok && !sc.NotificationsEnabled()
}

// settingsPanel is /settings: active profile, heartbeat and notifications
// with toggle buttons.
func (b *Bot) settingsPanel() (string, *InlineKeyboard, error) {
	sc, ok := b.settingsCommands()
	if !ok {
		return "Settings are not available.", nil, nil
	}
	onOff := func(on bool) string {
		if on {
			return "on"
		}
		return "off"
	}
	hb, notes := sc.HeartbeatEnabled(), sc.NotificationsEnabled()
	text := fmt.Sprintf("**Settings**\nAI profile: `%s`\nHeartbeat: %s\nNotifications: %s\n\nChange the profile in alice's Settings pane.",
		orNone(sc.ActiveProfile()), onOff(hb), onOff(notes))
	kb := &InlineKeyboard{InlineKeyboard: [][]InlineButton{
		{{Text: "Heartbeat " + onOff(!hb), CallbackData: "settings:heartbeat:" + onOff(!hb)}},
		{{Text: "Notifications " + onOff(!notes), CallbackData: "settings:notifications:" + onOff(!notes)}},
	}}
	return text, kb, nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// settingsCallback handles the /settings buttons ("settings:<what>:on|off").
func (b *Bot) settingsCallback(data string) (reply, ack string) {
	sc, ok := b.settingsCommands()
	parts := strings.Split(data, ":")
	if !ok || len(parts) != 3 || (parts[2] != "on" && parts[2] != "off") {
		return "That button is no longer valid.", "Unknown"
	}
	on := parts[2] == "on"
	var err error
	switch parts[1] {
	case "heartbeat":
		err = b.o.Commands.SetHeartbeat(on)
	case "notifications":
		err = sc.SetNotifications(on)
	default:
		return "That button is no longer valid.", "Unknown"
	}
	if err != nil {
		return "Failed: " + err.Error(), "Failed"
	}
	return fmt.Sprintf("%s %s.", strings.ToUpper(parts[1][:1])+parts[1][1:], map[bool]string{true: "enabled", false: "disabled"}[on]), "OK"
}

// notificationsList is /notifications: the newest notifications, delivered
// or not, newest last.
func (b *Bot) notificationsList() (string, error) {
	nl, ok := b.o.Center.(notificationLister)
	if !ok {
		return "Notifications are not available.", nil
	}
	notes, err := nl.Recent(10)
	if err != nil {
		return "", err
	}
	if len(notes) == 0 {
		return "No notifications yet.", nil
	}
	var sb strings.Builder
	sb.WriteString("**Recent notifications**\n")
	for _, n := range notes {
		ts := time.UnixMilli(n.TS).Format("01-02 15:04")
		src := n.Source
		if src == "" {
			src = "agent"
		}
		fmt.Fprintf(&sb, "\n`%s` _%s_\n%s\n", ts, src, n.Text)
	}
	return sb.String(), nil
}

// ask runs one agent turn, sending the model's text before each tool call
// as its own message when the agent can stream.
func (b *Bot) ask(ctx context.Context, chat int64, prompt string) (string, error) {
	sa, ok := b.o.Agent.(StreamingAsker)
	if !ok {
		return b.o.Agent.AskWithSession(ctx, prompt, SessionID(chat))
	}
	return sa.AskStreaming(ctx, prompt, SessionID(chat), func(text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		if err := b.reply(ctx, chat, text, nil); err != nil {
			b.log.Warn("Telegram interim reply failed", "chat", chat, "err", err)
		}
	})
}
