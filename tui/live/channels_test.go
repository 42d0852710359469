package live

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/tui/settings"
)

// The chat's channel calls reach channels.json and the session store.
func TestChannelAdapter(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	require.NoError(t, c.SetSessionTitle("tui/default", "Daily"))
	ch, err := c.CreateChannel("Research")
	require.NoError(t, err)
	require.Equal(t, "tui/research", ch.Session)
	list, err := c.Channels()
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.NoError(t, c.RenameChannel("research", "Deep research"))

	rows, err := c.BrowseSessions("")
	require.NoError(t, err)
	byID := map[string]string{}
	for _, r := range rows {
		byID[r.ID] = r.Channel + "|" + r.Title
	}
	require.Equal(t, "Alice|Daily", byID["tui/default"])
	require.Equal(t, "Deep research|Deep research", byID["tui/research"])

	rows, err = c.BrowseSessions("daily")
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.True(t, rows[0].TitleSet)
	require.NoError(t, c.DeleteSession("tui/default"))
	rows, err = c.BrowseSessions("daily")
	require.NoError(t, err)
	require.Empty(t, rows)
	require.NoError(t, c.ArchiveChannel("research", true))
	list, err = c.Channels()
	require.NoError(t, err)
	require.True(t, list[1].Archived)
}

// The Settings page's channel edits go through the settings service: the
// agent's channel lookup sees them, a bad profile names its field.
func TestChannelSettingsThroughTheSettingsService(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	_, err := c.CreateChannel("Research")
	require.NoError(t, err)
	shown, err := c.ChannelSettings()
	require.NoError(t, err)
	var ids []string
	for _, ch := range shown.Channels {
		ids = append(ids, ch.ID)
	}
	require.Equal(t, []string{"default", "research", "telegram", "mcp-ask"}, ids)
	require.True(t, shown.Channels[2].Connector)

	res := shown.Channels[1]
	res.DisabledTools, res.Persona = []string{"placeOrder"}, "Research only."
	require.NoError(t, c.SaveChannel(shown.Version, res))
	entry, ok, err := a.Channels().Lookup("research")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []string{"placeOrder"}, entry.DisabledTools)
	require.Equal(t, "Research only.", entry.Persona)

	fresh, err := c.ChannelSettings()
	require.NoError(t, err)
	res.Profile = "nope"
	err = c.SaveChannel(fresh.Version, res)
	require.Error(t, err)
	var fe interface{ Field() string }
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "profile", fe.Field())
	require.ErrorContains(t, c.SaveChannel(shown.Version, res), "changed", "a stale version is refused")
}

// The Settings page's new channel goes through the channel service (the
// chat's /new): listed with its profile; a taken name or a missing
// profile names its field and writes nothing.
func TestAddChannelThroughTheChannelService(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	require.NoError(t, c.SaveProfile("", "", settings.ProfileSetting{Name: "deep", Backend: "openai", BaseURL: "http://127.0.0.1:1/v1"}))
	id, err := c.AddChannel("FX & Rates!", "deep")
	require.NoError(t, err)
	require.Equal(t, "fx-rates", id)
	entry, ok, err := a.Channels().Lookup("fx-rates")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "FX & Rates!", entry.Label)
	require.Equal(t, "deep", entry.Profile)

	path := config.NewStore(a.Paths().Config).Path(config.ChannelsFile)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	var fe interface{ Field() string }
	for _, tc := range []struct{ label, profile, field, msg string }{
		{"fx & rates!", "", "label", "already exists"},
		{"  ", "", "label", "needs a name"},
		{"Macro", "nope", "profile", `no profile named "nope"`},
	} {
		_, err := c.AddChannel(tc.label, tc.profile)
		require.ErrorContains(t, err, tc.msg)
		require.ErrorAs(t, err, &fe)
		require.Equal(t, tc.field, fe.Field())
	}
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(before), string(after), "a refused channel writes nothing")
}
