package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func TestProfileEdits(t *testing.T) {
	t.Parallel()
	svc, rec, _ := newService(t, nil)
	steps := []struct {
		name string
		do   func(base config.Version) error
		err  string
		want func(t *testing.T, p config.AIProvider)
	}{
		{"first profile becomes active", func(b config.Version) error {
			return svc.SaveProfile(b, "", Profile{Name: " fast ", Backend: "openai", Model: "m1", APIKeyEnv: "K"})
		}, "", func(t *testing.T, p config.AIProvider) {
			assert.Equal(t, "fast", p.ActiveProfile)
			assert.Equal(t, "m1", p.Profiles["fast"].Model)
		}},
		{"channel override", func(b config.Version) error { return svc.SetChannelProfile(b, "telegram", "fast") }, "",
			func(t *testing.T, p config.AIProvider) { assert.Equal(t, "fast", p.Channels["telegram"]) }},
		{"empty channel refused", func(b config.Version) error { return svc.SetChannelProfile(b, " ", "fast") }, "needs a channel", nil},
		{"rename follows active and channels", func(b config.Version) error {
			return svc.SaveProfile(b, "fast", Profile{Name: "quick", Backend: "openai", Model: "m2", APIKeyEnv: "K"})
		}, "", func(t *testing.T, p config.AIProvider) {
			assert.Equal(t, "quick", p.ActiveProfile)
			assert.Equal(t, "quick", p.Channels["telegram"])
			assert.NotContains(t, p.Profiles, "fast")
		}},
		{"second profile", func(b config.Version) error {
			return svc.SaveProfile(b, "", Profile{Name: "deep", Backend: "anthropic", Model: "m3", APIKeyEnv: "A"})
		}, "", func(t *testing.T, p config.AIProvider) { assert.Equal(t, "quick", p.ActiveProfile, "active stays") }},
		{"name taken", func(b config.Version) error {
			return svc.SaveProfile(b, "deep", Profile{Name: "quick", Backend: "anthropic", Model: "m3"})
		}, "already exists", nil},
		{"edit of a removed profile", func(b config.Version) error {
			return svc.SaveProfile(b, "gone", Profile{Name: "gone", Backend: "openai"})
		}, "removed meanwhile", nil},
		{"invalid backend refused by the file's validation", func(b config.Version) error {
			return svc.SaveProfile(b, "", Profile{Name: "x", Backend: "nope"})
		}, "ai-provider.json", nil},
		{"stale version", func(config.Version) error { return svc.SetActiveProfile("0123", "deep") }, "changed on disk", nil},
		{"delete drops overrides and active", func(b config.Version) error { return svc.DeleteProfile(b, "quick") }, "",
			func(t *testing.T, p config.AIProvider) {
				assert.Empty(t, p.ActiveProfile)
				assert.Empty(t, p.Channels)
				assert.Contains(t, p.Profiles, "deep")
			}},
		{"delete unknown", func(b config.Version) error { return svc.DeleteProfile(b, "quick") }, "no profile", nil},
	}
	for _, st := range steps {
		_, base, err := svc.Providers()
		require.NoError(t, err, st.name)
		err = st.do(base)
		if st.err != "" {
			require.Error(t, err, st.name)
			assert.Contains(t, err.Error(), st.err, st.name)
			continue
		}
		require.NoError(t, err, st.name)
		p, _, err := svc.Providers()
		require.NoError(t, err)
		st.want(t, p)
	}
	for _, f := range rec.list() {
		assert.Equal(t, config.AIProviderFile, f)
	}
}

func TestHeartbeatConnectorsNewsTools(t *testing.T) {
	t.Parallel()
	svc, rec, _ := newService(t, nil)

	_, v, err := svc.Heartbeat()
	require.NoError(t, err)
	require.NoError(t, svc.SaveHeartbeat(v, Heartbeat{Enabled: true, Every: " 45m ", Prompt: "p", Start: "09:00", End: "17:00", Timezone: "UTC"}))
	h, v, err := svc.Heartbeat()
	require.NoError(t, err)
	assert.Equal(t, "45m", h.Every)
	require.NotNil(t, h.ActiveHours)
	assert.Equal(t, "09:00", h.ActiveHours.Start)
	require.NoError(t, svc.SaveHeartbeat(v, Heartbeat{Every: "1h"}))
	h, _, _ = svc.Heartbeat()
	assert.Nil(t, h.ActiveHours, "empty hours remove the window")
	assert.Error(t, svc.SaveHeartbeat("", Heartbeat{Every: "soon"}), "bad interval refused")
	assert.Equal(t, []string{config.HeartbeatFile, config.HeartbeatFile}, rec.list(), "every heartbeat write is announced (wakes the loop)")

	_, cv, err := svc.Connectors()
	require.NoError(t, err)
	err = svc.SaveConnectors(cv, Connectors{TelegramChatIDs: "42, x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"telegram.chatIds"`)
	require.NoError(t, svc.SaveConnectors(cv, Connectors{AskEnabled: true, AskPort: 4101, TelegramTokenEnv: " TG ", TelegramChatIDs: "42 43"}))
	c, _, _ := svc.Connectors()
	assert.Equal(t, []int64{42, 43}, c.Telegram.ChatIDs)
	assert.Equal(t, "TG", c.Telegram.BotTokenEnv)
	assert.Equal(t, 4101, c.MCPAsk.Port)

	assert.True(t, svc.TelegramNotifications())
	require.NoError(t, svc.SetTelegramNotifications(false))
	assert.False(t, svc.TelegramNotifications())
	require.NoError(t, svc.SetTelegramNotifications(true))
	c, _, _ = svc.Connectors()
	assert.Nil(t, c.Telegram.Notifications, "on is the default, written as the key's absence")

	_, nv, _ := svc.News()
	require.NoError(t, svc.AddFeed(nv, "F", " https://f.example/rss "))
	_, nv, _ = svc.News()
	assert.ErrorContains(t, svc.AddFeed(nv, "F2", "https://f.example/rss"), "already")
	require.NoError(t, svc.SetFeedEnabled(nv, "https://f.example/rss", false))
	n, nv, _ := svc.News()
	var found bool
	for _, f := range n.Feeds {
		if f.URL == "https://f.example/rss" {
			found = true
			assert.False(t, f.Enabled)
		}
	}
	require.True(t, found)
	require.NoError(t, svc.RemoveFeed(nv, "https://f.example/rss"))
	_, nv, _ = svc.News()
	assert.ErrorContains(t, svc.RemoveFeed(nv, "https://f.example/rss"), "no feed")

	require.NoError(t, svc.SetToolEnabled("placeOrder", false))
	require.NoError(t, svc.SetToolEnabled("cronAdd", false))
	require.NoError(t, svc.SetToolEnabled("placeOrder", true))
	tl, err := config.NewStore(svc.Dir()).Tools()
	require.NoError(t, err)
	assert.Equal(t, []string{"cronAdd"}, tl.Disabled)
}

func TestTokens(t *testing.T) {
	t.Parallel()
	svc, _, dir := newService(t, nil)
	for _, l := range []Listener{MainListener, AskListener} {
		tok, err := svc.NewMCPToken(l)
		require.NoError(t, err)
		assert.Len(t, tok, 48)
		tok2, err := svc.NewMCPToken(l)
		require.NoError(t, err)
		assert.NotEqual(t, tok, tok2, "fresh every time")
	}
	m, _ := svc.MCP()
	c, _, _ := svc.Connectors()
	assert.Len(t, m.Token, 48)
	assert.Len(t, c.MCPAsk.Token, 48)
	assert.NotEqual(t, m.Token, c.MCPAsk.Token)
	require.NoError(t, svc.RevokeMCPToken(MainListener))
	m, _ = svc.MCP()
	assert.Empty(t, m.Token)
	assert.Error(t, svc.RevokeMCPToken("other"))
	_, err := ParseListener("x")
	assert.ErrorContains(t, err, "main or ask")

	wt, err := svc.CreateWebhookToken()
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(wt.ID, "wh-"))
	assert.Contains(t, wt.Curl, "http://127.0.0.1:4100/api/events/ingest")
	assert.Contains(t, wt.Curl, "Bearer "+wt.Token)
	w, _ := svc.Webhook()
	require.Len(t, w.Tokens, 1)
	assert.Equal(t, wt.Token, w.Tokens[0].Token)
	require.NoError(t, svc.RevokeWebhookToken(wt.ID))
	assert.ErrorContains(t, svc.RevokeWebhookToken(wt.ID), "no webhook token")
	fi, err := os.Stat(filepath.Join(dir, config.WebhookFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "token files are owner-only")
}

func TestPersonaFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "brain", "persona.md")
	svc := New(config.NewStore(dir), Options{PersonaPath: path, DefaultPersona: "You are Alice."})
	p, text, err := svc.PersonaFile(false)
	require.NoError(t, err)
	assert.Equal(t, path, p)
	assert.Equal(t, "You are Alice.", text)
	assert.NoFileExists(t, path)
	_, _, err = svc.PersonaFile(true)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("Be brief."), 0o600))
	_, text, err = svc.PersonaFile(true)
	require.NoError(t, err)
	assert.Equal(t, "Be brief.", text, "an existing persona is never overwritten")
	_, _, err = New(config.NewStore(dir), Options{}).PersonaFile(false)
	assert.Error(t, err)
}

// TestFormValuesAreCheckedByTheConfigRules: what the Settings forms save
// goes through the config's own validation (the one `alice check` and
// start-up run): a refused value names its key and writes nothing, and
// then `alice check` (Validate) still passes.
func TestFormValuesAreCheckedByTheConfigRules(t *testing.T) {
	t.Parallel()
	svc, _, dir := newService(t, nil)
	good := Profile{Name: "local", Backend: "openai", Model: "m", BaseURL: "http://127.0.0.1:11434/v1", APIKeyEnv: "OLLAMA_KEY"}
	for _, tc := range []struct {
		name string
		edit func(p *Profile)
		key  string
		msg  string
	}{
		{"profile name", func(p *Profile) { p.Name = "My Prof 日本🚀!@#" }, `"profiles.My Prof 日本🚀!@#"`, "a profile name must be letters, digits, - or _"},
		{"profile name with a space", func(p *Profile) { p.Name = "my prof" }, `"profiles.my prof"`, "letters, digits, - or _"},
		{"base URL", func(p *Profile) { p.BaseURL = "not a url" }, `"profiles.local.baseUrl"`, `must be an absolute http(s) URL such as "http://127.0.0.1:11434/v1" (no query or fragment), got "not a url"`},
		{"env var name", func(p *Profile) { p.APIKeyEnv = "bad var=1" }, `"profiles.local.apiKeyEnv"`, `must be the NAME of an environment variable`},
	} {
		p := good
		tc.edit(&p)
		_, v, err := svc.Providers()
		require.NoError(t, err)
		err = svc.SaveProfile(v, "", p)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), filepath.Join(dir, config.AIProviderFile), tc.name)
		assert.Contains(t, err.Error(), "key "+tc.key, tc.name)
		assert.Contains(t, err.Error(), tc.msg, tc.name)
		cfg, _, err := svc.Providers()
		require.NoError(t, err)
		assert.Empty(t, cfg.Profiles, "%s: nothing saved", tc.name)
		assert.Empty(t, cfg.ActiveProfile, "%s: nothing made active", tc.name)
	}
	_, v, _ := svc.Providers()
	require.NoError(t, svc.SaveProfile(v, "", good))

	_, cv, err := svc.Connectors()
	require.NoError(t, err)
	err = svc.SaveConnectors(cv, Connectors{AskEnabled: true, AskPort: 3003, TelegramTokenEnv: "bad env"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `key "telegram.botTokenEnv": must be the NAME of an environment variable`)
	c, _, _ := svc.Connectors()
	assert.Empty(t, c.Telegram.BotTokenEnv, "nothing saved")
	require.NoError(t, svc.Validate())
}

// TestAskPortZeroIsSaved: 0 (any free port, as README and the form say)
// is written and read back as 0, like mcp.json's port; it used to be
// dropped (omitempty) and come back as the default 3003.
func TestAskPortZeroIsSaved(t *testing.T) {
	t.Parallel()
	svc, _, dir := newService(t, nil)
	_, cv, err := svc.Connectors()
	require.NoError(t, err)
	require.NoError(t, svc.SaveConnectors(cv, Connectors{AskEnabled: true, AskPort: 0}))
	c, _, err := svc.Connectors()
	require.NoError(t, err)
	assert.Equal(t, 0, c.MCPAsk.Port)
	assert.True(t, c.MCPAsk.Enabled)
	raw, err := os.ReadFile(filepath.Join(dir, config.ConnectorsFile))
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"port": 0`)
	require.NoError(t, svc.Validate())
}
