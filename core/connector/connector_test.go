package connector

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/pubsub"
)

type recorder struct {
	ch   string
	got  []Notification
	fail bool
}

func (r *recorder) Channel() string            { return r.ch }
func (r *recorder) Capabilities() Capabilities { return Capabilities{Push: true} }
func (r *recorder) Send(_ context.Context, n Notification) error {
	if r.fail {
		return errors.New("down")
	}
	r.got = append(r.got, n)
	return nil
}

func TestNotifyRoutesToLastInteraction(t *testing.T) {
	dir := t.TempDir()
	c, err := New(dir)
	require.NoError(t, err)
	ctx := context.Background()
	_, err = c.Notify(ctx, "x", "info", "heartbeat")
	require.ErrorIs(t, err, ErrNoConnector)

	tuiC, tg := &recorder{ch: "tui"}, &recorder{ch: "telegram"}
	c.Register(tuiC)
	c.Register(tg)
	ch, err := c.Notify(ctx, "first", "info", "cron")
	require.NoError(t, err)
	require.Equal(t, "tui", ch, "no interaction yet: the first connector")
	c.Touch("telegram", "42")
	ch, err = c.Notify(ctx, "second", "important", "heartbeat")
	require.NoError(t, err)
	require.Equal(t, "telegram", ch)
	require.Len(t, tg.got, 1)
	require.Equal(t, "second", tg.got[0].Text)

	// The last interaction survives a restart.
	c2, _ := New(dir)
	c2.Register(&recorder{ch: "tui"})
	rt := &recorder{ch: "telegram"}
	c2.Register(rt)
	_, err = c2.Notify(ctx, "third", "info", "cron")
	require.NoError(t, err)
	require.Len(t, rt.got, 1)

	b, err := os.ReadFile(filepath.Join(dir, "sessions", "notifications.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 4, strings.Count(string(b), "\n"), "every notification is recorded, delivered or not")

	tg.fail = true
	c.Touch("telegram", "42")
	_, err = c.Notify(ctx, "fails", "info", "cron")
	require.ErrorContains(t, err, "deliver to telegram")
}

func TestBroadcastPublishes(t *testing.T) {
	bus := pubsub.New[Notification]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := bus.Subscribe(ctx)
	c, _ := New(t.TempDir())
	c.Register(NewBroadcast("tui", bus))
	_, err := c.Notify(ctx, "hello", "info", "test")
	require.NoError(t, err)
	select {
	case n := <-sub:
		require.Equal(t, "hello", n.Text)
		require.Equal(t, "tui", n.Channel)
	case <-time.After(30 * time.Second):
		t.Fatal("not delivered")
	}
}

func TestNotifyCarriesRecipientAndListsConnectors(t *testing.T) {
	c, err := New(t.TempDir())
	require.NoError(t, err)
	tg := &recorder{ch: "telegram"}
	c.Register(NewQueue("mcp-ask"))
	c.Register(tg)
	c.Touch("telegram", "4242")
	_, err = c.Notify(context.Background(), "hi", "info", "cron")
	require.NoError(t, err)
	require.Equal(t, "4242", tg.got[0].To, "the chat the user last wrote from")

	infos := c.Connectors()
	require.Equal(t, []Info{
		{Channel: "mcp-ask", Capabilities: Capabilities{}},
		{Channel: "telegram", To: "4242", Capabilities: Capabilities{Push: true}},
	}, infos)

	// Re-registering a channel replaces it rather than duplicating it.
	c.Register(&recorder{ch: "telegram"})
	require.Equal(t, []string{"mcp-ask", "telegram"}, c.Channels())
}

func TestNotificationsStoreSurvivesTornLineAndConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions", "notifications.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(`{"id":"old","ts":1,"text":"kept"}`+"\n"+`{"id":"torn","ts":2,"te`), 0o600))
	c, err := New(dir)
	require.NoError(t, err)
	c.Register(NewQueue("mcp-ask"))

	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Notify(context.Background(), strings.Repeat("x", 2000), "info", "cron")
			require.NoError(t, err)
		}()
	}
	wg.Wait()
	all, err := c.Recent(0)
	require.NoError(t, err)
	require.Len(t, all, 21, "the old line plus every new one; the torn line is skipped")
	require.Equal(t, "kept", all[0].Text)
	for _, n := range all[1:] {
		require.Len(t, n.Text, 2000)
		require.Equal(t, "mcp-ask", n.Channel)
	}
	last2, err := c.Recent(2)
	require.NoError(t, err)
	require.Equal(t, all[19:], last2)
}

func TestCorruptLastInteractionIsIgnored(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "connectors"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "connectors", "last-interaction.json"), []byte("{nope"), 0o600))
	c, err := New(dir)
	require.NoError(t, err)
	_, ok := c.Last()
	require.False(t, ok)
}

func TestListConnectorsTool(t *testing.T) {
	c, err := New(t.TempDir(), WithClock(func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) }))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	RegisterTools(tc, c)
	res, err := tc.Call(context.Background(), "listConnectors", json.RawMessage(`{}`))
	require.NoError(t, err)
	b, _ := json.Marshal(res)
	require.JSONEq(t, `{"connectors":[],"lastInteraction":null}`, string(b))

	c.Register(NewQueue("mcp-ask"))
	c.Touch("mcp-ask", "claude-1")
	res, err = tc.Call(context.Background(), "listConnectors", json.RawMessage(`{}`))
	require.NoError(t, err)
	b, _ = json.Marshal(res)
	require.JSONEq(t, `{"connectors":[{"channel":"mcp-ask","to":"claude-1","capabilities":{"push":false,"markdown":false,"human":false}}],
		"lastInteraction":{"channel":"mcp-ask","to":"claude-1","time":"2026-11-20T09:00:00Z"}}`, string(b))
	_, err = tc.Call(context.Background(), "listConnectors", json.RawMessage(`{"x":1}`))
	require.Error(t, err, "unknown arguments are rejected")
}
