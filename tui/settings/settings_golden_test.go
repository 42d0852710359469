package settings_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenSettings renders every Settings page (and a form) at two sizes
// over the fake, with fixed data so the goldens are stable.
func TestGoldenSettings(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{100, 30}, {160, 45}} {
		for pg := range settings.SettingsPageCount {
			t.Run(fmt.Sprintf("page%d_%dx%d", int(pg), size[0], size[1]), func(t *testing.T) {
				h, fs := newSettingsHarness(t)
				fs.profiles["local"] = settings.ProfileSetting{Name: "local", Backend: "openai", Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1"}
				fs.profiles["claude"] = settings.ProfileSetting{Name: "claude", Backend: "anthropic", APIKeyEnv: "ANTHROPIC_API_KEY"}
				fs.active = "claude"
				fs.channels["telegram"] = "local"
				fs.accounts = append(fs.accounts, settings.AccountSetting{ID: "alpaca-1", Label: "Alpaca paper", Preset: "alpaca", Enabled: true,
					Health: "offline", Error: "no API key: set apiKey, or apiKeyEnv", GuardsJSON: "[]"})
				fs.jobs = []settings.CronJobSetting{{ID: "j1", Name: "morning brief", Schedule: "0 9 * * 1-5", Prompt: "summarise the news", Enabled: true,
					Next: tuitest.T0.Add(18 * time.Hour), LastRun: tuitest.T0.Add(-6 * time.Hour), LastStatus: "ok"}}
				fs.hb = settings.HeartbeatSetting{Enabled: true, Every: "30m", Prompt: "look around", Start: "09:00", End: "17:30", Timezone: "America/New_York"}
				fs.conn.WebhookTokens = []settings.WebhookTokenSetting{{ID: "wh-1", CreatedAt: tuitest.T0}}
				fs.feeds = []settings.FeedSetting{{Name: "Reuters", URL: "https://example.test/reuters.rss", Enabled: true}}
				fs.chans = goldenChannels()
				h.Send(tuitest.WindowSize(size[0], size[1]))
				h.Key("r")
				for range int(pg) {
					h.Key("]")
				}
				golden.RequireEqual(t, []byte(h.Screen()))
			})
		}
		t.Run(fmt.Sprintf("cronform_%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newSettingsHarness(t)
			h.Send(tuitest.WindowSize(size[0], size[1]))
			h.Key("]", "]", "a")
			h.TypeText("hourly")
			h.Key("tab")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}

func goldenChannels() []settings.ChannelSetting {
	return []settings.ChannelSetting{
		{ID: "default", Label: "Alice"},
		{ID: "research", Label: "Research", Profile: "local", DisabledTools: []string{"placeOrder"}, Persona: "Cite your sources.\nNo trades."},
		{ID: "old-ideas", Label: "Old ideas", Archived: true},
		{ID: "telegram", Label: "Telegram", Connector: true},
		{ID: "mcp-ask", Label: "Ask connector", Connector: true, DisabledTools: []string{"placeOrder", "closePosition"}},
	}
}

// TestGoldenSettingsChannels renders the Channels page and its tool picker
// at the four sizes.
func TestGoldenSettingsChannels(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{60, 20}, {80, 24}, {160, 45}, {250, 70}} {
		t.Run(fmt.Sprintf("channels_%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			h, fs := newSettingsHarness(t)
			fs.chans = goldenChannels()
			h.Send(tuitest.WindowSize(size[0], size[1]))
			h.Key("[", "r", "down")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
		t.Run(fmt.Sprintf("channeltools_%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			h, fs := newSettingsHarness(t)
			fs.chans = goldenChannels()
			h.Send(tuitest.WindowSize(size[0], size[1]))
			h.Key("[", "r", "down", "o")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}
