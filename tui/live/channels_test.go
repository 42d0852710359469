package live

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
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
