package connector

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core/pubsub"
)

// person is a human connector (like Telegram) that can be down.
type person struct {
	recorder
	down bool
}

func (p *person) Capabilities() Capabilities { return Capabilities{Push: true, Human: true} }
func (p *person) Up() bool                   { return !p.down }

func TestNotifyHumansSkipsAgentsAndFollowsNoLastChannel(t *testing.T) {
	dir := t.TempDir()
	c, err := New(dir)
	require.NoError(t, err)
	ctx := context.Background()

	bus := pubsub.New[Notification]()
	defer bus.Close()
	tuiC := NewBroadcast("tui", bus)
	ask := &recorder{ch: "mcp-ask"} // an agent connector: Human is false
	tg := &person{recorder: recorder{ch: "telegram"}}
	c.Register(tuiC)
	c.Register(ask)
	c.Register(tg)

	// Nobody is attached to the TUI and Telegram is down: recorded, but
	// no person was told — and the agent connector was not used instead.
	tg.down = true
	ch, err := c.NotifyHumans(ctx, "nobody home", "important", "trading")
	require.ErrorIs(t, err, ErrNoHuman)
	require.Empty(t, ch)
	require.Empty(t, ask.got)

	tg.down = false
	subCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	seen := bus.Subscribe(subCtx) // a TUI attaches
	c.Touch("telegram", "4242")
	c.Touch("mcp-ask", "other-agent") // another agent asked last
	ch, err = c.NotifyHumans(ctx, "commit a1b2c3d4 waits for you", "important", "trading")
	require.NoError(t, err)
	require.Equal(t, "tui,telegram", ch)
	select {
	case n := <-seen:
		require.Equal(t, "commit a1b2c3d4 waits for you", n.Text)
		require.Equal(t, "tui", n.Channel)
	case <-time.After(30 * time.Second):
		t.Fatal("the TUI was not told")
	}
	require.Len(t, tg.got, 1)
	require.Equal(t, "4242", tg.got[0].To, "Telegram gets the chat the person last wrote from")
	require.Empty(t, ask.got, "never an agent connector")
	last, _ := c.Last()
	require.Equal(t, "mcp-ask", last.Channel, "notifying people does not move the routing hint")

	// A failed delivery is reported, the others still get it.
	tg.fail = true
	ch, err = c.NotifyHumans(ctx, "again", "important", "trading")
	require.ErrorContains(t, err, "deliver to telegram")
	require.Equal(t, "tui", ch)
	<-seen

	notes, err := c.Recent(0)
	require.NoError(t, err)
	require.Len(t, notes, 3, "each notification is logged once, delivered or not")
	require.Equal(t, "", notes[0].Channel)
	require.Equal(t, "tui,telegram", notes[1].Channel)
	for _, n := range notes {
		require.Equal(t, "trading", n.Source)
	}
}

func TestCapabilitiesMarkHumans(t *testing.T) {
	require.True(t, NewBroadcast("tui", pubsub.New[Notification]()).Capabilities().Human)
	require.False(t, NewQueue("mcp-ask").Capabilities().Human)
}
