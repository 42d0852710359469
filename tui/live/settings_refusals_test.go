package live

import (
	"os"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui"
)

// TestSettingsFormsRefuseWhatCheckRefuses drives the AI profile and
// Connectors forms over a real core: a profile name outside the form's
// own hint, a base URL that is not one and an env var name with a space
// and "=" are refused by the config's validation (the one `alice check`
// runs), each naming its key, with the form kept open and the typed
// values in it; nothing reaches the file until the values are fixed.
// Then Ask port 0 is saved and shown as 0 (it came back as 3003).
func TestSettingsFormsRefuseWhatCheckRefuses(t *testing.T) {
	a := apptest.Start(t, nil)
	c := New(a)
	store := config.NewStore(a.Paths().Config)
	dark := true
	m := tui.New(c, tui.Options{Version: "test", Dark: &dark})
	t.Cleanup(m.Close)
	const w, h = 240, 45
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithEnvironment([]string{"TERM=xterm-256color"})))
	scr := newVTScreen(t, tm, w, h)
	scr.waitFor("Settings")
	erase := func(n int) {
		for range n {
			press(tm, tea.KeyBackspace)
		}
	}
	noProfiles := func(step string) {
		t.Helper()
		p, err := store.AIProvider()
		require.NoError(t, err)
		require.Empty(t, p.Profiles, "%s: nothing saved", step)
		require.Empty(t, p.ActiveProfile, "%s: nothing made active", step)
	}

	tm.Send(altKey('8'))
	scr.waitFor("No profiles yet")
	keyText(tm, "a")
	scr.waitFor("Add AI profile")
	keyText(tm, "My Prof!@#")
	press(tm, tea.KeyTab, tea.KeyTab) // backend stays openai
	keyText(tm, "m1")
	press(tm, tea.KeyTab)
	keyText(tm, "not a url")
	press(tm, tea.KeyTab)
	keyText(tm, "bad var=1")
	tm.Send(ctrlS)
	scr.waitFor(`key "profiles.My Prof!@#": a profile name must be letters, digits, - or _`)
	scr.waitFor("Add AI profile") // still open, the input kept
	scr.waitFor("not a url")
	scr.waitFor("bad var=1")
	noProfiles("bad name")

	press(tm, tea.KeyTab) // apiKey → wraps to name
	press(tm, tea.KeyTab)
	erase(12)
	keyText(tm, "local")
	tm.Send(ctrlS)
	scr.waitFor(`key "profiles.local.baseUrl": must be an absolute http(s) URL`)
	noProfiles("bad URL")

	press(tm, tea.KeyTab, tea.KeyTab, tea.KeyTab) // backend, model, base URL
	erase(12)
	keyText(tm, "http://127.0.0.1:1/v1")
	tm.Send(ctrlS)
	scr.waitFor(`key "profiles.local.apiKeyEnv": must be the NAME of an environment variable`)
	noProfiles("bad env var")

	press(tm, tea.KeyTab)
	erase(12)
	keyText(tm, "LOCAL_KEY")
	tm.Send(ctrlS)
	scr.waitFor("● local")
	p, err := store.AIProvider()
	require.NoError(t, err)
	assert.Equal(t, config.Profile{Backend: "openai", Model: "m1", BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "LOCAL_KEY"}, p.Profiles["local"])

	// Connectors: a bot token env var with a space is refused; Ask port 0 is kept.
	keyText(tm, "]]]")
	scr.waitFor("Ask connector")
	keyText(tm, "e")
	scr.waitFor("Bot token env var")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}) // Ask connector on
	press(tm, tea.KeyTab)
	erase(4)
	keyText(tm, "0")
	press(tm, tea.KeyTab, tea.KeyTab)
	keyText(tm, "bad env")
	tm.Send(ctrlS)
	scr.waitFor(`key "telegram.botTokenEnv": must be the NAME of an environment variable`)
	scr.waitFor("bad env")
	cn, err := store.Connectors()
	require.NoError(t, err)
	assert.Equal(t, 3003, cn.MCPAsk.Port, "a refused save writes nothing")
	erase(7)
	keyText(tm, "TG_TOKEN")
	tm.Send(ctrlS)
	scr.waitFor("on, port 0 (any free port)")
	cn, err = store.Connectors()
	require.NoError(t, err)
	assert.Equal(t, 0, cn.MCPAsk.Port)
	assert.Equal(t, "TG_TOKEN", cn.Telegram.BotTokenEnv)

	keyText(tm, "e") // reopened, the form shows 0
	scr.waitFor("Bot token env var")
	require.Eventually(t, func() bool {
		scr.waitFor("Ask port")
		return regexp.MustCompile(`Ask port +0 `).MatchString(scr.emu.String())
	}, 10*time.Second, 50*time.Millisecond, "the Ask port field shows 0:\n%s", scr.emu.String())
	press(tm, tea.KeyEscape)

	require.NoError(t, a.Settings().Validate(), "alice check passes on what the forms wrote")
	raw, err := os.ReadFile(store.Path(config.ConnectorsFile))
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"port": 0`)

	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"}) // if it asks
	tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
}
