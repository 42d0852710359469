package settings_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// fillSettings is the goldens' data with more rows than 40x12 holds, and
// wide characters (two cells each) in names, a model and an error.
func fillSettings(fs *fakeSettings) {
	fs.profiles["local"] = settings.ProfileSetting{Name: "local", Backend: "openai", Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1"}
	fs.profiles["claude"] = settings.ProfileSetting{Name: "claude", Backend: "anthropic", APIKeyEnv: "ANTHROPIC_API_KEY"}
	fs.profiles["日本語"] = settings.ProfileSetting{Name: "日本語", Backend: "openai", Model: "千早モデル-大規模言語モデル", BaseURL: "http://例え.test/v1"}
	fs.active = "claude"
	fs.channels["telegram"] = "local"
	fs.accounts = append(fs.accounts,
		settings.AccountSetting{ID: "alpaca-1", Label: "Alpaca paper", Preset: "alpaca", Enabled: true,
			Health: "offline", Error: "no API key: set apiKey, or apiKeyEnv", GuardsJSON: "[]"},
		settings.AccountSetting{ID: "口座-2", Label: "東京の口座", Preset: "simulator", Enabled: true, Health: "offline",
			Error: "接続できません: 認証に失敗しました", GuardsJSON: "[]"})
	fs.jobs = []settings.CronJobSetting{
		{ID: "j1", Name: "morning brief", Schedule: "0 9 * * 1-5", Prompt: "summarise the news", Enabled: true,
			Next: tuitest.T0.Add(18 * time.Hour), LastRun: tuitest.T0.Add(-6 * time.Hour), LastStatus: "ok"},
		{ID: "j2", Name: "close check", Schedule: "55 15 * * 1-5", Prompt: "check open orders", Enabled: true},
		{ID: "j3", Name: "週次レビュー", Schedule: "0 18 * * 5", Prompt: "今週の取引を振り返る", Enabled: false},
	}
	fs.hb = settings.HeartbeatSetting{Enabled: true, Every: "30m", Prompt: "look around", Start: "09:00", End: "17:30", Timezone: "America/New_York"}
	fs.conn.WebhookTokens = []settings.WebhookTokenSetting{{ID: "wh-1", CreatedAt: tuitest.T0}, {ID: "wh-2", CreatedAt: tuitest.T0}}
	fs.feeds = []settings.FeedSetting{{Name: "Reuters", URL: "https://example.test/reuters.rss", Enabled: true}}
	fs.chans = goldenChannels()
}

// paneRowsOf are the rows inside the frame, without the border.
func paneRowsOf(screen string) []string {
	var out []string
	for _, r := range frameRows(screen) {
		out = append(out, strings.TrimSuffix(strings.TrimPrefix(r, "│"), "│"))
	}
	return out
}

// At 40x12 every Settings page outside forms keeps its selected row in
// view while ↓ walks every row (and ↑ back), its key hints on its last
// row and the page tabs on its first, marks the rows it hides, and cuts
// long lines by display width with "…", never half a wide character.
func TestSettingsPagesKeepTheSelectionInViewAt40x12(t *testing.T) {
	t.Parallel()
	for pg := range settings.SettingsPageCount {
		t.Run(fmt.Sprint("page", int(pg)), func(t *testing.T) {
			t.Parallel()
			h, fs := newSettingsHarness(t)
			fillSettings(fs)
			h.Send(tuitest.WindowSize(40, 12))
			h.Key("r")
			for range int(pg) {
				h.Key("]")
			}
			check := func(step string) {
				s := h.Screen()
				rows := paneRowsOf(s)
				require.Contains(t, rows[0], "page ", "%s: the page tabs stay\n%s", step, s)
				for _, r := range rows {
					require.Equal(t, 38, ansi.StringWidth(r), "%s: a row fits the frame\n%s", step, s)
					require.NotContains(t, r, "\uFFFD", "%s: no broken character\n%s", step, s)
				}
				last := len(rows) - 1
				for last > 0 && strings.TrimSpace(rows[last]) == "" {
					last--
				}
				require.Regexp(t, `^ (a add|e/enter edit|space enable|n new channel)`, rows[last], "%s: the hints stay\n%s", step, s)
				if pg != 6 { // the persona page has no rows
					require.Contains(t, s, "▸ ", "%s: the selected row is in view\n%s", step, s)
				}
			}
			check("first row")
			if pg != 4 && pg != 6 { // one news feed, two persona lines: they fit
				require.Contains(t, h.Screen(), "↓ ", "the rows hidden below are marked\n%s", h.Screen())
			}
			for i := range 8 {
				h.Key("down")
				check(fmt.Sprint("down ", i+1))
			}
			for i := range 8 {
				h.Key("up")
				check(fmt.Sprint("up ", i+1))
			}
		})
	}
}

// The selected account's error and, on the last row, the page's end
// (the guards line) come into view with it; a notice shows under the
// selection when there is room for both.
func TestSettingsPageWindowShowsWhatBelongsToTheSelection(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fillSettings(fs)
	h.Send(tuitest.WindowSize(40, 12))
	h.Key("r", "]", "down")
	s := h.Screen()
	require.Contains(t, s, "▸ alpaca-1", s)
	require.Contains(t, s, "no API key", "the selected account's error\n%s", s)
	h.Key("down")
	s = h.Screen()
	require.Contains(t, s, "▸ 口座-2", s)
	require.Contains(t, s, "guards: []", "the last row brings the page's end\n%s", s)
	golden.RequireEqual(t, []byte(s))

	h, fs = newSettingsHarness(t)
	fillSettings(fs)
	h.Send(tuitest.WindowSize(40, 14))
	h.Key("r", "t")
	s = h.Screen()
	require.Contains(t, s, "▸ ● claude", s)
	require.Contains(t, s, "✓ claude (openai m) answered", "the test result shows\n%s", s)
	require.Contains(t, s, "↓ ", "under the rows hidden below\n%s", s)
}

// Pages that fit are laid out as before: no markers (the goldens at
// 100x30 and 160x45 hold them).
func TestSettingsPagesThatFitHaveNoMarkers(t *testing.T) {
	t.Parallel()
	for pg := range settings.SettingsPageCount {
		h, fs := newSettingsHarness(t)
		fillSettings(fs)
		h.Send(tuitest.WindowSize(100, 30))
		h.Key("r")
		for range int(pg) {
			h.Key("]")
		}
		s := h.Screen()
		require.NotContains(t, s, "↓ ", s)
		require.NotContains(t, s, "↑ ", s)
	}
}

// The Channels page's tool picker at 40x12 keeps its selection and its
// key hints in view too.
func TestToolPickerKeepsTheSelectionInViewAt40x12(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fillSettings(fs)
	h.Send(tuitest.WindowSize(40, 12))
	h.Key("[", "r", "down", "o")
	for i := range 3 {
		s := h.Screen()
		require.Contains(t, s, "▸ [", "step %d: the selected tool\n%s", i, s)
		require.Contains(t, s, "space mark/unmark", "step %d: the hints\n%s", i, s)
		h.Key("down")
	}
	require.Contains(t, h.Screen(), "▸ [x] placeOrder")
}

// Moving the selection inside the window leaves the window where it is:
// one row up from the end of the Connectors page keeps the last row in
// view instead of scrolling the page under the cursor.
func TestSettingsPageWindowStaysWhileTheSelectionMovesInside(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fillSettings(fs)
	h.Send(tuitest.WindowSize(40, 12))
	h.Key("r", "]", "]", "]")
	h.Key("down", "down", "down", "down", "down")
	s := h.Screen()
	require.Contains(t, s, "▸ Webhook token      wh-2", s)
	h.Key("up")
	s = h.Screen()
	require.Contains(t, s, "▸ Webhook token      wh-1", s)
	require.Contains(t, s, "Webhook token      wh-2", "the row below stays in view\n%s", s)
	h.Key("up", "up", "up", "up")
	require.Contains(t, h.Screen(), "▸ Ask connector", "back at the top")
	require.Contains(t, h.Screen(), "Connectors  ", "with the page's title")
}
