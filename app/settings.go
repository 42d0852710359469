package app

import (
	"strconv"
	"strings"

	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/mcp"
)

// HeartbeatChanged tells the running heartbeat that heartbeat.json was
// edited (interval, enabled), so the change applies now rather than after
// the current wait.
func (a *App) HeartbeatChanged() {
	if a.heartbeat != nil {
		a.heartbeat.Poke()
	}
}

// ConnectorLines describes each running connector for the `alice serve`
// banner, e.g. "telegram: polling, chats 42" (the TUI broadcast connector
// is left out: it is not something a headless server runs for anyone).
func (a *App) ConnectorLines() []string {
	var out []string
	for _, ch := range a.Connectors.Channels() {
		switch ch {
		case "tui":
			continue
		case telegram.Channel:
			line := "telegram: polling the Bot API"
			if c, err := a.Opts.Store.Connectors(); err == nil {
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
