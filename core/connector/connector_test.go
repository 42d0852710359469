package connector

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"alice/core/pubsub"
)

type recorder struct {
	ch   string
	got  []Notification
	fail bool
}

func (r *recorder) Channel() string { return r.ch }
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
	case <-time.After(time.Second):
		t.Fatal("not delivered")
	}
}
