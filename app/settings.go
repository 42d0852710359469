package app

import (
	"os"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/app/settings"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/mcp"
)

// buildSettings creates the settings service every surface edits config
// through: the one check is Validate; a heartbeat.json edit wakes the
// heartbeat so it applies now.
func (a *App) buildSettings() {
	a.settings = settings.New(a.opts.Store, settings.Options{
		Check: func(s *config.Store) error { return Validate(s, os.Getenv) },
		Changed: func(file string) {
			if file == config.HeartbeatFile {
				a.HeartbeatChanged()
			}
		},
		MainURL:        a.mainURL,
		PersonaPath:    a.opts.Paths.DataPath("brain", "persona.md"),
		DefaultPersona: agent.DefaultPersona,
		Persona:        a.persona,
	})
}

// Settings is the settings use case: read, validate and edit any config
// file, mint and revoke tokens.
func (a *App) Settings() *settings.Service { return a.settings }

// mainURL is the main MCP listener's URL once it is open.
func (a *App) mainURL() string {
	for _, l := range a.Listeners() {
		if l.Name == MainListener {
			return l.URL
		}
	}
	return ""
}

// HeartbeatChanged tells the running heartbeat that heartbeat.json was
// edited (interval, enabled), so the change applies now rather than after
// the current wait.
func (a *App) HeartbeatChanged() {
	if a.automation != nil {
		a.automation.WakeHeartbeat()
	}
}

// ConnectorLines describes each running connector for the `alice serve`
// banner, e.g. "telegram: polling, chats 42" (the TUI broadcast connector
// is left out: it is not something a headless server runs for anyone).
func (a *App) ConnectorLines() []string {
	var out []string
	for _, ch := range a.connectors.Channels() {
		switch ch {
		case "tui":
			continue
		case telegram.Channel:
			line := a.TelegramLine()
			if line == "" {
				line = "telegram: not started"
			}
			if c, err := a.opts.Store.Connectors(); err == nil {
				ids := make([]string, 0, len(c.Telegram.ChatIDs))
				for _, id := range c.Telegram.ChatIDs {
					ids = append(ids, strconv.FormatInt(id, 10))
				}
				line += ", allowed chats " + strings.Join(ids, ",")
				if !c.Telegram.NotificationsOn() {
					line += ", notifications off"
				}
			}
			out = append(out, line)
		default:
			line := ch
			for _, l := range a.Listeners() {
				if ch == mcp.AskChannel && l.Name == "Ask" {
					line += ": Ask connector at " + l.URL
				}
			}
			out = append(out, line)
		}
	}
	return out
}
