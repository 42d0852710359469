//go:build ccxt

package ccxt

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// TestRealCCXTAgainstOKXWire drives the broker through CCXT's real okx
// exchange with its REST URL pointed at the fake: markets, search, quotes,
// account (cash and spot holdings) and error mapping of OKX's codes.
func TestRealCCXTAgainstOKXWire(t *testing.T) {
	v := brokertest.NewVenue(decimal.NewFromInt(25_000), map[string]decimal.Decimal{"BTC/USDT": decimal.NewFromInt(60_000)})
	w := &okxWire{v: v}
	srv := httptest.NewServer(w)
	defer srv.Close()

	cfg, _, err := ParseConfig("okx", []byte(`{"mode":"live","apiKey":"k","secret":"s","password":"p","timeoutMs":5000}`), nil)
	require.NoError(t, err)
	b := newBroker("okx-wire", cfg, nil, func() (exchange, error) {
		return newExchange(cfg, map[string]any{"urls": map[string]any{"api": map[string]any{"rest": srv.URL}}})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, b.Init(ctx), "unknown requests: %v", w.unknown)
	defer b.Close()

	cs, err := b.SearchContracts(ctx, "BTC", "")
	require.NoError(t, err)
	require.Len(t, cs, 1)
	require.Equal(t, "BTC/USDT", cs[0].Symbol)
	require.Equal(t, "okx-wire|BTC/USDT", cs[0].AliceID)
	d, err := b.ContractDetails(ctx, trading.Contract{Symbol: "BTC-USDT"}) // the exchange's own id resolves too
	require.NoError(t, err)
	require.True(t, d.MinTick.Equal(decimal.RequireFromString("0.1")), "tick %s", d.MinTick)

	q, err := b.Quote(ctx, cs[0])
	require.NoError(t, err, "unknown requests: %v", w.unknown)
	bid, ask, mid, _ := v.Quote("BTC/USDT")
	require.True(t, q.Bid.Equal(bid) && q.Ask.Equal(ask) && q.Last.Equal(mid), "%+v", q)

	_, err = v.Place(brokertest.VenueOrder{Symbol: "BTC/USDT", Buy: true, Type: "market", Qty: decimal.RequireFromString("0.25")})
	require.NoError(t, err)
	a, err := b.Account(ctx)
	require.NoError(t, err, "unknown requests: %v", w.unknown)
	require.Equal(t, "USDT", a.BaseCurrency)
	require.True(t, a.TotalCashValue.Equal(v.Cash()), "cash %s venue %s", a.TotalCashValue, v.Cash())
	want := v.Cash().Add(mid.Mul(decimal.RequireFromString("0.25")))
	require.True(t, a.NetLiquidation.Equal(want), "equity %s want %s", a.NetLiquidation, want)
	ps, err := b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	require.True(t, ps[0].Quantity.Equal(decimal.RequireFromString("0.25")), "fractional holding %s", ps[0].Quantity)

	for _, c := range []struct {
		status int
		code   broker.Code
	}{{http.StatusUnauthorized, broker.CodeAuth}, {http.StatusTooManyRequests, broker.CodeNetwork}} {
		w.mu.Lock()
		w.fault = c.status
		w.mu.Unlock()
		_, err := b.Account(ctx)
		require.Error(t, err)
		require.Equal(t, c.code, broker.CodeOf(err), "HTTP %d: %v", c.status, err)
	}
	require.Empty(t, w.unknown, "requests the fake does not know")
}

// newWireHarness is the contract harness over the real CCXT okx exchange
// talking to okxWire: every call goes through CCXT's request building,
// signing, response parsing and OKX error-code mapping.
func newWireHarness(t *testing.T) *brokertest.Harness {
	v := brokertest.NewVenue(decimal.NewFromInt(100_000), map[string]decimal.Decimal{"BTC/USDT": decimal.NewFromInt(60_000)})
	w := &okxWire{v: v}
	srv := httptest.NewServer(w)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		require.Empty(t, w.unknown, "requests the fake does not know")
		t.Logf("served: %v", w.paths)
	})
	cfg, _, err := ParseConfig("okx", []byte(`{"mode":"live","apiKey":"k","secret":"s","password":"p","timeoutMs":5000}`), nil)
	require.NoError(t, err)
	b := newBroker("okx-wire", cfg, nil, func() (exchange, error) {
		return newExchange(cfg, map[string]any{"urls": map[string]any{"api": map[string]any{"rest": srv.URL}}})
	})
	return &brokertest.Harness{
		Broker: b, Contract: trading.Contract{Symbol: "BTC/USDT"}, Qty: decimal.RequireFromString("0.01"),
		Mid: func() decimal.Decimal {
			_, _, mid, err := v.Quote("BTC/USDT")
			require.NoError(t, err)
			return mid
		},
		SetMid: func(d decimal.Decimal) { v.SetPrice("BTC/USDT", d) },
		FillPartially: func(id string, q decimal.Decimal) {
			_, err := v.FillPartially(id, q)
			require.NoError(t, err)
		},
		SetFault: func(f brokertest.Fault) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.fault = map[brokertest.Fault]int{brokertest.FaultAuth: http.StatusUnauthorized,
				brokertest.FaultNetwork: http.StatusServiceUnavailable, brokertest.FaultRateLimit: http.StatusTooManyRequests}[f]
		},
		AlwaysOpen: true,
	}
}

// TestContractOverOKXWire runs the whole contract suite through CCXT's
// real okx exchange against the OKX v5 wire fake.
func TestContractOverOKXWire(t *testing.T) { brokertest.Run(t, newWireHarness) }
