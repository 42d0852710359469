package app

import (
	"context"
	"strings"

	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/connector/telegram"
)

// /settings in Telegram: the active profile, the heartbeat and whether
// notifications are pushed to Telegram (connectors.json
// telegram.notifications, written through the settings service like the
// TUI's pane).

var (
	_ telegram.SettingsCommands = telegramCommands{}
	_ telegram.StreamingAsker   = telegramAgent{}
)

func (t telegramCommands) ActiveProfile() string { return t.a.ProviderLabel("telegram") }

func (t telegramCommands) HeartbeatEnabled() bool { return t.a.automation.HeartbeatEnabled() }

func (t telegramCommands) NotificationsEnabled() bool { return t.a.settings.TelegramNotifications() }

func (t telegramCommands) SetNotifications(on bool) error {
	return t.a.settings.SetTelegramNotifications(on)
}

// AskStreaming runs a Telegram turn and hands the text the model wrote
// before each tool call to interim, as the TUI shows it while tools run.
// The return value is the text after the last tool call.
func (t telegramAgent) AskStreaming(ctx context.Context, prompt, sessionID string, interim func(string)) (string, error) {
	s, err := t.a.agent.AskWithSession(ctx, prompt, sessionID, agent.Options{Channel: "telegram",
		Preamble: "You are operating via Telegram (session: " + sessionID + "). Keep replies short; Markdown is rendered."})
	if err != nil {
		return "", err
	}
	var seg strings.Builder
	for ev := range s.Events() {
		switch ev.Kind {
		case agent.TextDelta:
			seg.WriteString(ev.Text)
		case agent.ToolUse:
			if strings.TrimSpace(seg.String()) != "" {
				interim(seg.String())
			}
			seg.Reset()
		}
	}
	res, err := s.Wait()
	if final := strings.TrimSpace(seg.String()); final != "" {
		return final, err
	}
	return res.Text, err
}

// TestTelegram sends text to every chat connectors.json allows (the
// Settings pane's "send a test message"), whether or not the bot runs.
func (a *App) TestTelegram(ctx context.Context, text string) error {
	cn, _, err := a.settings.Connectors()
	if err != nil {
		return err
	}
	return telegram.SendTest(ctx, cn.Telegram, text)
}

// TelegramRunning reports whether the Telegram bot is running.
func (a *App) TelegramRunning() bool {
	for _, ch := range a.connectors.Channels() {
		if ch == telegram.Channel {
			return true
		}
	}
	return false
}
