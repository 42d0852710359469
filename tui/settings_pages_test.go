package tui

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingsAddProfileSetActiveAndTest(t *testing.T) {
	h, fs := newSettingsHarness(t)
	require.Contains(t, h.screen(), "No profiles yet")
	h.key("a")
	require.True(t, h.m.settings.Capturing(), "the form captures keys")
	h.typeText("local")
	h.key("tab", "tab") // backend stays openai
	h.typeText("llama3")
	h.key("tab")
	h.typeText("http://127.0.0.1:11434/v1")
	h.key("tab")
	h.typeText("OLLAMA_KEY")
	h.send(ctrlS())
	require.Nil(t, h.m.settings.form, "a successful save closes the form")
	p := fs.profiles["local"]
	assert.Equal(t, ProfileSetting{Name: "local", Backend: "openai", Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "OLLAMA_KEY"}, p)
	scr := h.screen()
	assert.Contains(t, scr, "● local")
	assert.Contains(t, scr, "$OLLAMA_KEY")

	h.key("t")
	assert.Contains(t, h.screen(), `✓ local (openai m) answered in 42ms: "pong"`)

	fs.profiles["broken"] = ProfileSetting{Name: "broken", Backend: "openai"}
	h.key("r")
	assert.Contains(t, h.screen(), "▸ ● local", "a reload that inserts a row above keeps the cursor on its profile")
	h.key("up", "t")
	assert.Contains(t, h.screen(), "✗ broken: 401 invalid api key")
	h.key("s")
	assert.Equal(t, "broken", fs.active)
}

func TestSettingsStoredKeyIsMaskedAndWarned(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("a")
	h.typeText("cloud")
	h.key("tab", "tab", "tab", "tab", "tab")
	h.typeText("sk-secret-123")
	scr := h.screen()
	assert.NotContains(t, scr, "sk-secret-123", "a key is never echoed")
	assert.Contains(t, scr, "stored in plain text")
	h.send(ctrlS())
	assert.Equal(t, "sk-secret-123", fs.profiles["cloud"].APIKey)
	assert.Contains(t, h.screen(), "key stored in file ⚠")
}

func TestSettingsConflictIsRefusedAndShown(t *testing.T) {
	h, fs := newSettingsHarness(t)
	fs.profiles["a"] = ProfileSetting{Name: "a", Backend: "openai"}
	h.key("r", "e")
	require.NotNil(t, h.m.settings.form)
	fs.version++ // someone edits ai-provider.json meanwhile
	h.key("tab", "tab")
	h.typeText("new-model")
	h.send(ctrlS())
	require.NotNil(t, h.m.settings.form, "the form stays open on a refused save")
	assert.Contains(t, h.screen(), "changed on disk")
	assert.Empty(t, fs.profiles["a"].Model, "nothing was overwritten")
	h.key("esc")
	assert.Nil(t, h.m.settings.form)
}

func TestSettingsAccountsAddToggleAutoApproveRemove(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("]")
	require.Contains(t, h.screen(), "Trading accounts")
	h.key("a")
	assert.Contains(t, h.screen(), "Simulator (paper): offline")
	h.key("enter") // preset chosen → the preset's own form
	scr := h.screen()
	require.Contains(t, scr, "Add Simulator (paper)")
	require.Contains(t, scr, "Starting cash")
	// A bad value is refused with the key named; the form stays.
	h.key("tab", "tab")
	for range 6 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("lots")
	h.send(ctrlS())
	assert.Contains(t, h.screen(), "presetConfig.cash")
	for range 4 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("5000")
	h.send(ctrlS())
	require.Len(t, fs.accounts, 2)
	assert.Equal(t, "simulator-2", fs.accounts[1].ID)
	assert.Equal(t, "5000", fs.accounts[1].GuardsJSON) // the fake records the cash here

	h.key("down")
	h.send(space())
	assert.False(t, fs.accounts[1].Enabled)
	h.key("A")
	require.NotNil(t, h.m.dialog, "turning autoApprove on asks first")
	assert.Contains(t, h.m.dialog.body, "WITHOUT asking you")
	h.confirm()
	assert.True(t, fs.accounts[1].AutoApprove)
	h.key("A") // off again: no dialog
	assert.Nil(t, h.m.dialog)
	assert.False(t, fs.accounts[1].AutoApprove)

	fs.accounts[1].Health, fs.accounts[1].Error = "offline", "connection refused"
	h.key("r")
	assert.Contains(t, h.screen(), "connection refused", "the selected account's error is shown")
	h.key("R")
	assert.Equal(t, "healthy", fs.accounts[1].Health)
	assert.NotContains(t, h.screen(), "connection refused")

	h.key("d")
	h.confirm()
	assert.Len(t, fs.accounts, 1)
}

func TestSettingsCronFormPreviewsNextRuns(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("]", "]")
	require.Contains(t, h.screen(), "Heartbeat")
	h.key("a")
	typeInto := func(s string) { h.typeText(s) }
	typeInto("hourly check")
	h.key("tab")
	assert.Contains(t, h.screen(), "Mon 2026-11-23 09:00", "the default schedule is previewed at once")
	h.typeText("x")
	assert.Contains(t, h.screen(), "want 5 fields", "a bad schedule shows the error live")
	for range 20 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeInto("every 1h")
	scr := h.screen()
	assert.Contains(t, scr, "Next runs")
	assert.Equal(t, 5, strings.Count(scr, "2026-11-20 1")+strings.Count(scr, "2026-11-20 2"), scr)
	h.key("tab")
	typeInto("check the portfolio")
	h.send(ctrlS())
	require.Len(t, fs.jobs, 1)
	assert.Equal(t, CronJobInput{Name: "hourly check", Schedule: "every 1h", Prompt: "check the portfolio", Enabled: true},
		CronJobInput{Name: fs.jobs[0].Name, Schedule: fs.jobs[0].Schedule, Prompt: fs.jobs[0].Prompt, Enabled: fs.jobs[0].Enabled})
	h.key("down", "n")
	assert.Equal(t, []string{"j0"}, fs.ran)
	h.send(space())
	assert.False(t, fs.jobs[0].Enabled)
}

func TestSettingsHeartbeatToggleAndForm(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("]", "]")
	h.send(space())
	assert.True(t, fs.hb.Enabled)
	assert.Contains(t, h.screen(), "on   every 30m")
	h.key("e", "tab")
	for range 3 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("1h")
	h.key("tab")
	h.typeText("09:00")
	h.key("tab")
	h.typeText("17:00")
	h.key("tab")
	h.typeText("Europe/Berlin")
	h.send(ctrlS())
	assert.Equal(t, HeartbeatSetting{Enabled: true, Every: "1h", Prompt: "look around", Start: "09:00", End: "17:00", Timezone: "Europe/Berlin", Version: fs.hb.Version}, fs.hb)
	assert.Contains(t, h.screen(), "09:00–17:00 Europe/Berlin")
}

func TestSettingsConnectorsTokensShownOnce(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("]", "]", "]")
	require.Contains(t, h.screen(), "Ask connector")
	h.key("a")
	scr := h.screen()
	assert.Contains(t, scr, "secret-wh")
	assert.Contains(t, scr, "curl -X POST")
	h.key("r")
	assert.NotContains(t, h.screen(), "secret-wh", "a token is shown once")
	assert.Contains(t, h.screen(), "wh-1")

	h.key("down", "down", "T")
	assert.Contains(t, h.screen(), "tok-main")
	assert.True(t, fs.conn.MainTokenSet)

	h.key("up", "t")
	assert.Contains(t, h.screen(), "telegram sendMessage: 401")

	h.key("up", "e")
	h.key("tab")
	for range 4 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("99999")
	h.send(ctrlS())
	assert.Contains(t, h.screen(), "mcpAsk.port", "validation errors come back into the form")
	require.NotNil(t, h.m.settings.form)
	assert.Equal(t, 3003, fs.conn.AskPort)
}

func TestSettingsKeysHaveHelp(t *testing.T) {
	v := reflect.ValueOf(DefaultSettingsKeys())
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		name := v.Type().Field(i).Name
		assert.NotEmpty(t, b.Keys(), name)
		assert.NotEmpty(t, b.Help().Key, name)
		assert.NotEmpty(t, b.Help().Desc, name)
	}
}

func TestSettingsNewsToolsPersona(t *testing.T) {
	h, fs := newSettingsHarness(t)
	h.key("[", "[", "[") // wraps: Persona, Tools, News
	require.Contains(t, h.screen(), "No feeds")
	h.key("a")
	h.typeText("Bad")
	h.key("tab")
	h.typeText("notthere.test/rss")
	h.send(ctrlS())
	assert.Contains(t, h.screen(), "HTTP 404", "a feed that does not parse is refused")
	assert.Empty(t, fs.feeds)
	h.key("esc", "a")
	h.typeText("Good")
	h.key("tab")
	for range 8 {
		h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.typeText("https://ok.test/rss")
	h.send(ctrlS())
	require.Len(t, fs.feeds, 1)
	assert.Equal(t, FeedSetting{Name: "Good", URL: "https://ok.test/rss", Enabled: true}, fs.feeds[0])
	h.key("t")
	assert.Contains(t, h.screen(), `✓ "OK feed": 3 items`)
	h.send(space())
	assert.False(t, fs.feeds[0].Enabled)

	h.key("]")
	scr := h.screen()
	require.Contains(t, scr, "market")
	require.Contains(t, scr, "✓ getQuote")
	h.key("down")
	h.send(space())
	assert.False(t, fs.toolList[1].Enabled)
	assert.Contains(t, h.screen(), "✗ placeOrder")

	h.key("]")
	assert.Contains(t, h.screen(), "You are Alice.")
	_, cmd := h.m.Update(keyMsg("e"))
	require.NotNil(t, cmd)
	open, ok := cmd().(personaOpenMsg)
	require.True(t, ok, "e first makes sure the file exists")
	assert.Equal(t, "/data/brain/persona.md", open.path)
	_, exec := h.m.Update(open)
	assert.NotNil(t, exec, "then hands the terminal to $EDITOR")
}

func TestSettingsPaletteActionsOpenPagesAndForms(t *testing.T) {
	h, _ := newSettingsHarness(t)
	h.send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	require.Equal(t, focusChat, h.m.focus)
	h.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	h.typeText("add a cron")
	require.Contains(t, h.screen(), "Add a cron job")
	h.key("enter")
	require.Equal(t, h.m.paneIndex(h.m.settings), h.m.focus)
	require.NotNil(t, h.m.settings.form)
	assert.Contains(t, h.screen(), "Add cron job")
	h.key("esc")
	h.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	h.typeText("settings: trading accounts")
	h.key("enter")
	assert.Contains(t, h.screen(), "Trading accounts")
}

func TestSettingsStalePreviewIsDropped(t *testing.T) {
	h, _ := newSettingsHarness(t)
	h.key("]", "]", "a")
	f := h.m.settings.form
	require.NotNil(t, f)
	h.typeText("x") // edit 2 (the form opened with edit 1)
	latest := f.seq
	h.send(settingsPreviewMsg{form: f, seq: latest, text: "LATEST"})
	h.send(settingsPreviewMsg{form: f, seq: latest - 1, text: "STALE"})
	assert.Equal(t, "LATEST", f.extra, "a preview for an older edit arriving late is ignored")
}
