//go:build ccxt

package ccxt

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// okxWire is a fake of the few OKX v5 REST endpoints CCXT's okx exchange
// calls for markets, tickers and balances, answered from a Venue. It lets
// the real CCXT exchange object (its request signing, response parsing and
// error-code mapping) run end to end against a local server.
type okxWire struct {
	v *brokertest.Venue

	mu      sync.Mutex
	fault   int // HTTP status to answer with; 0 = healthy
	unknown []string
}

func (w *okxWire) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	fault := w.fault
	w.mu.Unlock()
	reply := func(status int, code, msg string, data any) {
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(status)
		_ = json.NewEncoder(rw).Encode(map[string]any{"code": code, "msg": msg, "data": data})
	}
	switch fault {
	case http.StatusUnauthorized:
		reply(401, "50113", "Invalid Sign", []any{})
		return
	case http.StatusTooManyRequests:
		reply(429, "50011", "Too Many Requests", []any{})
		return
	}
	q := r.URL.Query()
	switch r.URL.Path {
	case "/api/v5/public/instruments":
		if q.Get("instType") != "SPOT" {
			reply(200, "0", "", []any{})
			return
		}
		var data []any
		for _, s := range w.v.Symbols() {
			base, quote, _ := strings.Cut(s, "/")
			data = append(data, map[string]any{"instId": base + "-" + quote, "instType": "SPOT", "baseCcy": base, "quoteCcy": quote,
				"state": "live", "tickSz": "0.1", "lotSz": "0.00000001", "minSz": "0.00001", "listTime": "1548133413000"})
		}
		reply(200, "0", "", data)
	case "/api/v5/asset/currencies", "/api/v5/account/positions": // spot only: no derivative positions
		reply(200, "0", "", []any{})
	case "/api/v5/market/ticker":
		sym := strings.Replace(q.Get("instId"), "-", "/", 1)
		bid, ask, mid, err := w.v.Quote(sym)
		if err != nil {
			reply(400, "51001", "Instrument ID does not exist", []any{})
			return
		}
		reply(200, "0", "", []any{map[string]any{"instId": q.Get("instId"), "instType": "SPOT", "last": mid.String(), "bidPx": bid.String(),
			"askPx": ask.String(), "open24h": mid.String(), "high24h": ask.String(), "low24h": bid.String(), "vol24h": "12.5",
			"ts": time.Now().UnixMilli()}})
	case "/api/v5/account/balance":
		cash := w.v.Cash().String()
		details := []any{map[string]any{"ccy": "USDT", "eq": cash, "cashBal": cash, "availBal": cash, "frozenBal": "0"}}
		for _, p := range w.v.Positions() {
			base, _, _ := strings.Cut(p.Symbol, "/")
			details = append(details, map[string]any{"ccy": base, "eq": p.Qty.String(), "cashBal": p.Qty.String(), "availBal": p.Qty.String(), "frozenBal": "0"})
		}
		reply(200, "0", "", []any{map[string]any{"details": details, "uTime": time.Now().UnixMilli()}})
	default:
		w.mu.Lock()
		w.unknown = append(w.unknown, r.Method+" "+r.URL.String())
		w.mu.Unlock()
		reply(404, "50000", "not in the fake", []any{})
	}
}

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
