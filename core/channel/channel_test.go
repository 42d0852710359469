package channel

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/session"
)

func newService(t *testing.T) (*Service, *config.Store, *session.Store) {
	t.Helper()
	store := config.NewStore(t.TempDir())
	sessions, err := session.NewStore(t.TempDir())
	require.NoError(t, err)
	return New(store, sessions), store, sessions
}

func labels(list []Info) []string {
	out := []string{}
	for _, in := range list {
		out = append(out, in.ID+"="+in.Label)
	}
	return out
}

func TestCreateRenameArchive(t *testing.T) {
	t.Parallel()
	svc, store, _ := newService(t)
	list, err := svc.List(false)
	require.NoError(t, err)
	require.Equal(t, []string{"default=Alice"}, labels(list), "the default channel exists without an entry")
	require.Equal(t, "tui/default", list[0].Session)

	r, err := svc.Create("  Research & Ideas ")
	require.NoError(t, err)
	require.Equal(t, "research-ideas", r.ID)
	require.Equal(t, "Research & Ideas", r.Label)
	require.Equal(t, "tui/research-ideas", r.Session)
	_, err = svc.Create("research & ideas")
	require.ErrorContains(t, err, "already exists", "labels are unique, any case")
	r2, err := svc.Create("Research: ideas")
	require.NoError(t, err)
	require.Equal(t, "research-ideas-2", r2.ID, "ids are made unique")
	cjk, err := svc.Create("研究")
	require.NoError(t, err)
	require.Regexp(t, `^channel-[0-9a-f]{6}$`, cjk.ID)
	_, err = svc.Create("Telegram")
	require.NoError(t, err, "a label may look like a connector")
	tg, err := svc.Get("telegram")
	require.NoError(t, err)
	require.Equal(t, KindConnector, tg.Kind, "…but the connector keeps its id")
	_, err = svc.Create(" ")
	require.Error(t, err)

	_, err = svc.Rename(r.ID, "Deep research")
	require.NoError(t, err)
	got, err := svc.Get(r.ID)
	require.NoError(t, err)
	require.Equal(t, "Deep research", got.Label)
	require.Equal(t, "tui/research-ideas", got.Session, "rename keeps the id and the session")
	_, err = svc.Rename(r.ID, "Alice")
	require.Error(t, err, "the default channel's label is taken")

	_, err = svc.SetArchived(r2.ID, true)
	require.NoError(t, err)
	list, err = svc.List(false)
	require.NoError(t, err)
	require.NotContains(t, labels(list), "research-ideas-2=Research: ideas")
	list, err = svc.List(true)
	require.NoError(t, err)
	require.Contains(t, labels(list), "research-ideas-2=Research: ideas")
	_, err = svc.SetArchived(config.DefaultChannel, true)
	require.Error(t, err)
	_, err = svc.SetArchived(config.TelegramChannel, true)
	require.Error(t, err)
	_, err = svc.SetArchived("nope", true)
	require.ErrorIs(t, err, ErrNotFound)

	// Everything is in channels.json, in OpenAlice's entry shape.
	c, err := store.Channels()
	require.NoError(t, err)
	require.Len(t, c.Channels, 4)
	raw, err := os.ReadFile(store.Path(config.ChannelsFile))
	require.NoError(t, err)
	require.Contains(t, string(raw), `"label": "Deep research"`)
}

func TestUpdateDefaultImplicitAndConnectors(t *testing.T) {
	t.Parallel()
	svc, store, sessions := newService(t)
	_, err := sessions.Append("tui/scratch", session.NewText("user", "old /new session", "human"))
	require.NoError(t, err)
	_, err = sessions.Append("telegram/42", session.NewText("user", "hi", "human"))
	require.NoError(t, err)
	list, err := svc.List(false)
	require.NoError(t, err)
	require.Equal(t, []string{"default=Alice", "scratch=scratch"}, labels(list))
	require.True(t, list[1].Implicit)

	// The first edit of the default channel, an implicit one or a
	// connector adds its entry.
	_, err = svc.Update(config.DefaultChannel, func(c *config.Channel) error { c.Persona = "Be terse."; return nil })
	require.NoError(t, err)
	sc, err := svc.Rename("scratch", "Scratchpad")
	require.NoError(t, err)
	require.False(t, sc.Implicit)
	_, err = svc.Update(config.TelegramChannel, func(c *config.Channel) error {
		c.DisabledTools = []string{"placeOrder"}
		return nil
	})
	require.NoError(t, err)
	ch, ok, err := svc.Lookup(config.TelegramChannel)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []string{"placeOrder"}, ch.DisabledTools)
	require.Equal(t, "Telegram", ch.Label)
	conns, err := svc.Connectors()
	require.NoError(t, err)
	require.Equal(t, []string{"telegram=Telegram", "mcp-ask=Ask connector"}, labels(conns))

	list, err = svc.List(false)
	require.NoError(t, err)
	require.Equal(t, []string{"default=Alice", "scratch=Scratchpad"}, labels(list), "connectors are not chat channels")
	def, ok, err := svc.Lookup(config.DefaultChannel)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "Be terse.", def.Persona)

	_, err = svc.Update("scratch", func(c *config.Channel) error { c.ID = "other"; return nil })
	require.Error(t, err, "ids never change")
	_, err = svc.Update(config.DefaultChannel, func(c *config.Channel) error { c.Archived = true; return nil })
	var ce *config.Error
	require.True(t, errors.As(err, &ce), "validation refuses it, naming the key: %v", err)

	// A broken file is reported, not ignored.
	require.NoError(t, os.WriteFile(store.Path(config.ChannelsFile), []byte(`{"channels":[{"id":"a","label":"A","profiel":"x"}]}`), 0o600))
	_, _, err = svc.Lookup("a")
	require.ErrorContains(t, err, `did you mean "profile"`)
}

func TestFromSession(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"tui/default": "default", "tui/research-2": "research-2", "telegram/42": "",
		"tui/a/b": "", "heartbeat": "", "tui/Upper": ""} {
		require.Equal(t, want, FromSession(in), in)
	}
	require.Equal(t, "tui/x", SessionOf("x"))
}

func TestBrowseJoinsChannelsAndSessions(t *testing.T) {
	t.Parallel()
	svc, _, sessions := newService(t)
	_, err := sessions.Append("tui/default", session.NewText("user", "morning plan", "human"))
	require.NoError(t, err)
	_, err = sessions.Append("telegram/42", session.NewText("user", "from the phone", "human"))
	require.NoError(t, err)
	r, err := svc.Create("Research")
	require.NoError(t, err)

	rows, err := svc.Browse("")
	require.NoError(t, err)
	got := map[string]string{}
	for _, row := range rows {
		label := "-"
		if row.Channel != nil {
			label = row.Channel.Label
		}
		got[row.ID] = label + "|" + row.Title
	}
	require.Equal(t, map[string]string{
		"tui/default":  "Alice|morning plan",
		"telegram/42":  "-|from the phone",
		"tui/research": "Research|Research", // no messages yet: titled by the channel
	}, got)

	rows, err = svc.Browse("resea")
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, r.Session, rows[0].ID)
	rows, err = svc.Browse("phone")
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.Equal(t, "telegram/42", rows[0].ID)
}
