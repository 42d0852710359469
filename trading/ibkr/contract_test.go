package ibkr

import (
	"context"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

type rig struct {
	venue *brokertest.Venue
	tws   *fakeTWS
	b     *Broker
}

func newRig(t *testing.T, mut ...func(*Config)) *rig {
	v := brokertest.NewVenue(decimal.NewFromInt(100_000), map[string]decimal.Decimal{
		"AAPL": decimal.RequireFromString("190.00"), "MSFT": decimal.RequireFromString("410.00")})
	f := newFakeTWS(t, v)
	cfg := Config{Host: "127.0.0.1", Port: f.port(), ClientID: 7, Timeout: 15 * time.Second, KeepAlive: time.Minute}
	for _, m := range mut {
		m(&cfg)
	}
	b := New("ib-paper", cfg, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = b.Close() })
	return &rig{venue: v, tws: f, b: b}
}

// waitDown waits until the broker noticed the socket is gone.
func (r *rig) waitDown(t *testing.T) {
	t.Helper()
	require.Eventually(t, func() bool { ok, _ := r.b.Connected(); return !ok }, 30*time.Second, 10*time.Millisecond)
}

func TestContract(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness {
		r := newRig(t)
		return &brokertest.Harness{
			Broker:   r.b,
			Contract: trading.Contract{Symbol: "AAPL", SecType: "STK", Exchange: "SMART", Currency: "USD"},
			Qty:      decimal.NewFromInt(10),
			Mid: func() decimal.Decimal {
				_, _, m, _ := r.venue.Quote("AAPL")
				return m
			},
			SetMid: func(p decimal.Decimal) { r.venue.SetPrice("AAPL", p); r.tws.publish() },
			FillPartially: func(id string, q decimal.Decimal) {
				n, err := strconv.ParseInt(id, 10, 64)
				require.NoError(t, err)
				r.tws.mu.Lock()
				vid := r.tws.ibToVenue[n]
				r.tws.mu.Unlock()
				_, err = r.venue.FillPartially(vid, q)
				require.NoError(t, err)
				r.tws.publish()
			},
			SetFault: func(f brokertest.Fault) {
				switch f {
				case brokertest.FaultNetwork:
					r.tws.setDown(true)
					r.waitDown(t)
				case brokertest.FaultNone:
					r.tws.setDown(false)
				default:
					t.Fatalf("fault %d is marked inexpressible", f)
				}
			},
			Inexpressible: map[brokertest.Fault]string{
				brokertest.FaultAuth: "the API socket carries no credentials: the person logs in to TWS/IB Gateway itself, " +
					"and a Gateway that is not logged in does not listen (that is FaultNetwork)",
				brokertest.FaultRateLimit: "Account() is answered from the reqAccountUpdates subscription cache, so no request " +
					"reaches TWS to be throttled; error 100 on a request that does go out is tested in TestRateLimitIsTransient",
			},
		}
	})
}

func TestRateLimitIsTransient(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	r.tws.mu.Lock()
	r.tws.throttle = true
	r.tws.mu.Unlock()
	_, err := r.b.Quote(ctx, trading.Contract{Symbol: "AAPL"})
	require.Error(t, err)
	require.Equal(t, "NETWORK", string(codeOf(err)), "%v", err)
	require.Contains(t, err.Error(), "IB error 100")
	require.True(t, codeOf(err).Transient())
}
