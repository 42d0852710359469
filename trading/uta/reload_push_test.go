package uta

import (
	"context"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/sim"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatedBroker holds PlaceOrder until the test lets it through, so a push
// can be caught half way.
type gatedBroker struct {
	broker.Broker
	entered chan struct{}
	release chan struct{}
}

func (g *gatedBroker) PlaceOrder(ctx context.Context, c trading.Contract, o trading.Order, tpsl *trading.TPSL) (trading.OrderResult, error) {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.release
	return g.Broker.PlaceOrder(ctx, c, o, tpsl)
}

// An account edited while its push is executing (Settings pane, a text
// editor saving accounts.json) is rebuilt only after the push finishes:
// the new instance must not read the half-done push checkpoint and record
// the order that is reaching the broker as "interrupted", and the history
// must hold the push exactly once, with its real result.
func TestReloadWaitsForAPushInProgress(t *testing.T) {
	e := newEnv(t)
	gate := &gatedBroker{entered: make(chan struct{}, 1), release: make(chan struct{})}
	first := true
	factory := func(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
		b, s, key, err := simulatorFactory(acct, env)
		if err != nil || !first {
			return b, s, key, err
		}
		first = false // only the first build is gated
		gate.Broker = b
		return gate, s, key, nil
	}
	m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock),
		WithSimTick(time.Hour), WithFactory("simulator", factory))
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(func() { _ = m.Close() })

	u, err := m.Get("sim-paper")
	require.NoError(t, err)
	require.NoError(t, u.Sim().SetMarkPrice("AAPL", decimal.NewFromInt(200)))
	stageBuy(t, u, "AAPL", "1")
	out, err := m.Commit("", "buy one")
	require.NoError(t, err)

	pushed := make(chan error, 1)
	go func() {
		_, err := m.Push(context.Background(), "sim-paper", out[0].Hash)
		pushed <- err
	}()
	<-gate.entered // the order is at the broker

	reloaded := make(chan error, 1)
	go func() {
		reloaded <- m.UpdateAccount(context.Background(), "sim-paper", "", func(a *config.Account) error {
			a.Label = "renamed mid-push"
			return nil
		})
	}()
	select {
	case err := <-reloaded:
		t.Fatalf("the account was rebuilt while its push was executing (err %v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(gate.release)
	require.NoError(t, <-pushed)
	require.NoError(t, <-reloaded)

	u2, err := m.Get("sim-paper")
	require.NoError(t, err)
	require.NotSame(t, u, u2, "the edited account was rebuilt")
	log := u2.Git().Commits()
	require.Len(t, log, 1, "the push is in the history exactly once")
	assert.Equal(t, out[0].Hash, log[0].Hash)
	require.Len(t, log[0].Results, 1)
	assert.True(t, log[0].Results[0].Success, "recorded with its real result, not as interrupted: %+v", log[0].Results[0])

	// The old instance refuses further work instead of writing files the
	// new one owns.
	_, err = u.Git().Stage(git.Operation{Action: git.CancelOrder, OrderID: "x"})
	assert.ErrorIs(t, err, git.ErrClosed)
}
