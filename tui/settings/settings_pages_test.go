package settings_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/settings"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingsAddProfileSetActiveAndTest(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	require.Contains(t, h.Screen(), "No profiles yet")
	h.Key("a")
	require.True(t, h.M.Settings.Capturing(), "the form captures keys")
	h.TypeText("local")
	h.Key("tab", "tab") // backend stays openai
	h.TypeText("llama3")
	h.Key("tab")
	h.TypeText("http://127.0.0.1:11434/v1")
	h.Key("tab")
	h.TypeText("OLLAMA_KEY")
	h.Send(tuitest.CtrlS())
	require.Nil(t, h.M.Settings.Form, "a successful save closes the form")
	p := fs.profiles["local"]
	assert.Equal(t, settings.ProfileSetting{Name: "local", Backend: "openai", Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "OLLAMA_KEY"}, p)
	scr := h.Screen()
	assert.Contains(t, scr, "● local")
	assert.Contains(t, scr, "$OLLAMA_KEY")

	h.Key("t")
	assert.Contains(t, h.Screen(), `✓ local (openai m) answered in 42ms: "pong"`)

	fs.profiles["broken"] = settings.ProfileSetting{Name: "broken", Backend: "openai"}
	h.Key("r")
	assert.Contains(t, h.Screen(), "▸ ● local", "a reload that inserts a row above keeps the cursor on its profile")
	h.Key("up", "t")
	assert.Contains(t, h.Screen(), "✗ broken: 401 invalid api key")
	h.Key("s")
	assert.Equal(t, "broken", fs.active)
}

func TestSettingsStoredKeyIsMaskedAndWarned(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("a")
	h.TypeText("cloud")
	h.Key("tab", "tab", "tab", "tab", "tab")
	h.TypeText("sk-secret-123")
	scr := h.Screen()
	assert.NotContains(t, scr, "sk-secret-123", "a key is never echoed")
	assert.Contains(t, scr, "stored in plain text")
	h.Send(tuitest.CtrlS())
	assert.Equal(t, "sk-secret-123", fs.profiles["cloud"].APIKey)
	assert.Contains(t, h.Screen(), "key stored in file ⚠")
}

func TestSettingsConflictIsRefusedAndShown(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	fs.profiles["a"] = settings.ProfileSetting{Name: "a", Backend: "openai"}
	h.Key("r", "e")
	require.NotNil(t, h.M.Settings.Form)
	fs.version++ // someone edits ai-provider.json meanwhile
	h.Key("tab", "tab")
	h.TypeText("new-model")
	h.Send(tuitest.CtrlS())
	require.NotNil(t, h.M.Settings.Form, "the form stays open on a refused save")
	assert.Contains(t, h.Screen(), "changed on disk")
	assert.Empty(t, fs.profiles["a"].Model, "nothing was overwritten")
	h.Key("esc")
	assert.Nil(t, h.M.Settings.Form)
}

func TestSettingsAccountsAddToggleAutoApproveRemove(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]")
	require.Contains(t, h.Screen(), "Trading accounts")
	h.Key("a")
	assert.Contains(t, h.Screen(), "Simulator (paper): offline")
	h.Key("enter") // preset chosen → the preset's own form
	scr := h.Screen()
	require.Contains(t, scr, "Add Simulator (paper)")
	require.Contains(t, scr, "Starting cash")
	// A bad value is refused with the key named; the form stays.
	h.Key("tab", "tab")
	for range 6 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.TypeText("lots")
	h.Send(tuitest.CtrlS())
	assert.Contains(t, h.Screen(), "presetConfig.cash")
	for range 4 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.TypeText("5000")
	h.Send(tuitest.CtrlS())
	require.Len(t, fs.accounts, 2)
	assert.Equal(t, "simulator-2", fs.accounts[1].ID)
	assert.Equal(t, "5000", fs.accounts[1].GuardsJSON) // the fake records the cash here

	h.Key("down")
	h.Send(tuitest.Space())
	assert.False(t, fs.accounts[1].Enabled)
	h.Key("A")
	require.NotNil(t, h.M.Dialog, "turning autoApprove on asks first")
	assert.Contains(t, h.M.Dialog.Body, "WITHOUT asking you")
	h.Confirm()
	assert.True(t, fs.accounts[1].AutoApprove)
	h.Key("A") // off again: no dialog
	assert.Nil(t, h.M.Dialog)
	assert.False(t, fs.accounts[1].AutoApprove)

	fs.accounts[1].Health, fs.accounts[1].Error = "offline", "connection refused"
	h.Key("r")
	assert.Contains(t, h.Screen(), "connection refused", "the selected account's error is shown")
	h.Key("R")
	assert.Equal(t, "healthy", fs.accounts[1].Health)
	assert.NotContains(t, h.Screen(), "connection refused")

	h.Key("d")
	h.Confirm()
	assert.Len(t, fs.accounts, 1)
}

func TestSettingsCronFormPreviewsNextRuns(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]", "]")
	require.Contains(t, h.Screen(), "Heartbeat")
	h.Key("a")
	typeInto := func(s string) { h.TypeText(s) }
	typeInto("hourly check")
	h.Key("tab")
	assert.Contains(t, h.Screen(), "Mon 2026-11-23 09:00", "the default schedule is previewed at once")
	h.TypeText("x")
	assert.Contains(t, h.Screen(), "want 5 fields", "a bad schedule shows the error live")
	for range 20 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	typeInto("every 1h")
	scr := h.Screen()
	assert.Contains(t, scr, "Next runs")
	assert.Equal(t, 5, strings.Count(scr, "2026-11-20 1")+strings.Count(scr, "2026-11-20 2"), scr)
	h.Key("tab")
	typeInto("check the portfolio")
	h.Send(tuitest.CtrlS())
	require.Len(t, fs.jobs, 1)
	assert.Equal(t, settings.CronJobInput{Name: "hourly check", Schedule: "every 1h", Prompt: "check the portfolio", Enabled: true},
		settings.CronJobInput{Name: fs.jobs[0].Name, Schedule: fs.jobs[0].Schedule, Prompt: fs.jobs[0].Prompt, Enabled: fs.jobs[0].Enabled})
	h.Key("down", "n")
	assert.Equal(t, []string{"j0"}, fs.ran)
	h.Send(tuitest.Space())
	assert.False(t, fs.jobs[0].Enabled)
}

func TestSettingsHeartbeatToggleAndForm(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]", "]")
	h.Send(tuitest.Space())
	assert.True(t, fs.hb.Enabled)
	assert.Contains(t, h.Screen(), "on   every 30m")
	h.Key("e", "tab")
	for range 3 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.TypeText("1h")
	h.Key("tab")
	h.TypeText("09:00")
	h.Key("tab")
	h.TypeText("17:00")
	h.Key("tab")
	h.TypeText("Europe/Berlin")
	h.Send(tuitest.CtrlS())
	assert.Equal(t, settings.HeartbeatSetting{Enabled: true, Every: "1h", Prompt: "look around", Start: "09:00", End: "17:00", Timezone: "Europe/Berlin", Version: fs.hb.Version}, fs.hb)
	assert.Contains(t, h.Screen(), "09:00–17:00 Europe/Berlin")
}

func TestSettingsConnectorsTokensShownOnce(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]", "]", "]")
	require.Contains(t, h.Screen(), "Ask connector")
	h.Key("a")
	scr := h.Screen()
	assert.Contains(t, scr, "secret-wh")
	assert.Contains(t, scr, "curl -X POST")
	h.Key("r")
	assert.NotContains(t, h.Screen(), "secret-wh", "a token is shown once")
	assert.Contains(t, h.Screen(), "wh-1")

	h.Key("down", "down", "T")
	assert.Contains(t, h.Screen(), "tok-main")
	assert.True(t, fs.conn.MainTokenSet)

	h.Key("up", "t")
	assert.Contains(t, h.Screen(), "telegram sendMessage: 401")

	h.Key("up", "e")
	h.Key("tab")
	for range 4 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.TypeText("99999")
	h.Send(tuitest.CtrlS())
	assert.Contains(t, h.Screen(), "mcpAsk.port", "validation errors come back into the form")
	require.NotNil(t, h.M.Settings.Form)
	assert.Equal(t, 3003, fs.conn.AskPort)
}

func TestSettingsProgressNoticesClearWithTheResult(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("]", "]", "]")
	h.Key("down", "t") // the Telegram row
	s := h.Screen()
	require.Contains(t, h.Toast(), "telegram sendMessage: 401")
	assert.NotContains(t, s, "sending a test message", "the error replaces the progress text")

	fs.smu.Lock()
	fs.jobs = []settings.CronJobSetting{{ID: "j0", Name: "hourly check", Schedule: "every 1h", Prompt: "p", Enabled: true}}
	fs.smu.Unlock()
	h.Key("[")
	h.Run(h.M.Settings.Load())
	h.Key("down", "n")
	require.Equal(t, []string{"j0"}, fs.ran)
	assert.NotContains(t, h.Screen(), "running hourly check", "cleared on success")

	fs.smu.Lock()
	fs.runErr = errors.New("agent unavailable")
	fs.smu.Unlock()
	h.Key("n")
	require.Len(t, fs.ran, 2)
	assert.Contains(t, h.Toast(), "agent unavailable")
	assert.NotContains(t, h.Screen(), "running hourly check", "cleared on error")
}

func TestSettingsKeysHaveHelp(t *testing.T) {
	t.Parallel()
	v := reflect.ValueOf(settings.DefaultSettingsKeys())
	for i := range v.NumField() {
		b := v.Field(i).Interface().(key.Binding)
		name := v.Type().Field(i).Name
		assert.NotEmpty(t, b.Keys(), name)
		assert.NotEmpty(t, b.Help().Key, name)
		assert.NotEmpty(t, b.Help().Desc, name)
	}
}

func TestSettingsNewsToolsPersona(t *testing.T) {
	t.Parallel()
	h, fs := newSettingsHarness(t)
	h.Key("[", "[", "[", "[") // wraps: Channels, Persona, Tools, News
	require.Contains(t, h.Screen(), "No feeds")
	h.Key("a")
	h.TypeText("Bad")
	h.Key("tab")
	h.TypeText("notthere.test/rss")
	h.Send(tuitest.CtrlS())
	assert.Contains(t, h.Screen(), "HTTP 404", "a feed that does not parse is refused")
	assert.Empty(t, fs.feeds)
	h.Key("esc", "a")
	h.TypeText("Good")
	h.Key("tab")
	for range 8 {
		h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	h.TypeText("https://ok.test/rss")
	h.Send(tuitest.CtrlS())
	require.Len(t, fs.feeds, 1)
	assert.Equal(t, settings.FeedSetting{Name: "Good", URL: "https://ok.test/rss", Enabled: true}, fs.feeds[0])
	h.Key("t")
	assert.Contains(t, h.Screen(), `✓ "OK feed": 3 items`)
	h.Send(tuitest.Space())
	assert.False(t, fs.feeds[0].Enabled)

	h.Key("]")
	scr := h.Screen()
	require.Contains(t, scr, "market")
	require.Contains(t, scr, "✓ getQuote")
	// A description with a newline stays on its row.
	require.Regexp(t, `✓ placeOrder +Stage an order\. Arguments: source, aliceId\.`, scr)
	h.Key("down")
	h.Send(tuitest.Space())
	assert.False(t, fs.toolList[1].Enabled)
	assert.Contains(t, h.Screen(), "✗ placeOrder")

	h.Key("]")
	assert.Contains(t, h.Screen(), "You are Alice.")
	_, cmd := h.M.Update(tuitest.KeyMsg("e"))
	require.NotNil(t, cmd)
	open, ok := cmd().(settings.PersonaOpenMsg)
	require.True(t, ok, "e first makes sure the file exists")
	assert.Equal(t, "/data/brain/persona.md", open.Path)
	_, exec := h.M.Update(open)
	assert.NotNil(t, exec, "then hands the terminal to $EDITOR")
}

func TestSettingsPaletteActionsOpenPagesAndForms(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	require.Equal(t, tui.FocusChat, h.M.Focus)
	h.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	h.TypeText("add a cron")
	require.Contains(t, h.Screen(), "Add a cron job")
	h.Key("enter")
	require.Equal(t, h.M.PaneIndex(h.M.Settings), h.M.Focus)
	require.NotNil(t, h.M.Settings.Form)
	assert.Contains(t, h.Screen(), "Add cron job")
	h.Key("esc")
	h.Send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
	h.TypeText("settings: trading accounts")
	h.Key("enter")
	assert.Contains(t, h.Screen(), "Trading accounts")
}

func TestSettingsStalePreviewIsDropped(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Key("]", "]", "a")
	f := h.M.Settings.Form
	require.NotNil(t, f)
	h.TypeText("x") // edit 2 (the form opened with edit 1)
	latest := f.Seq
	h.Send(settings.SettingsPreviewMsg{Form: f, Seq: latest, Text: "LATEST"})
	h.Send(settings.SettingsPreviewMsg{Form: f, Seq: latest - 1, Text: "STALE"})
	assert.Equal(t, "LATEST", f.Extra, "a preview for an older edit arriving late is ignored")
}
