package alpaca

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/alice-trading/alice/trading/internal/ccxtfixture"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCCXTRecordedResponses replays the recorded Alpaca answers that the
// endpoints alice uses can return (/v2/account for fetchBalance,
// /v2/clock for fetchTime) through alice's client and decoding, and
// compares with CCXT's parse. (CCXT's fetchTicker reads crypto snapshots
// and fetchMyTrades account activities: endpoints alice does not call.)
func TestCCXTRecordedResponses(t *testing.T) {
	t.Parallel()
	f := ccxtfixture.Load(t, "response", "alpaca")
	ctx := context.Background()
	serve := func(path string, body json.RawMessage) *Broker {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Path == path {
				_, _ = w.Write(body)
				return
			}
			_, _ = w.Write([]byte(`[]`))
		}))
		t.Cleanup(srv.Close)
		cfg, key, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"key","apiSecret":"secret","baseUrl":%q,"dataUrl":%q}`, srv.URL, srv.URL)), nil)
		require.NoError(t, err, key)
		return New("alp", cfg, nil)
	}
	dec := func(v any) decimal.Decimal {
		return decimal.RequireFromString(v.(json.Number).String())
	}
	for _, c := range f.Cases(t, "fetchBalance") {
		d := json.NewDecoder(bytes.NewReader(c.ParsedResponse))
		d.UseNumber()
		var w map[string]any
		require.NoError(t, d.Decode(&w))
		usd := w["USD"].(map[string]any)
		a, err := serve("/v2/account", c.HTTPResponse).Account(ctx)
		require.NoError(t, err, c.String())
		assert.True(t, dec(usd["total"]).Equal(a.NetLiquidation), "USD total %s = alice equity %s", usd["total"], a.NetLiquidation)
		assert.True(t, dec(usd["free"]).Equal(a.BuyingPower), "USD free %s = alice buying power %s", usd["free"], a.BuyingPower)
		assert.Equal(t, "USD", a.BaseCurrency)
	}
	for _, c := range f.Cases(t, "fetchTime") {
		var ms int64
		c.Parsed(t, &ms)
		mc, err := serve("/v2/clock", c.HTTPResponse).MarketClock(ctx)
		require.NoError(t, err, c.String())
		assert.Equal(t, ms, mc.Timestamp.UnixMilli(), c.String())
		assert.False(t, mc.IsOpen)
		require.NotNil(t, mc.NextOpen)
		assert.Equal(t, "2024-07-18T13:30:00Z", mc.NextOpen.UTC().Format("2006-01-02T15:04:05Z"))
	}
}

// TestCCXTRecordedRequests: the one recorded Alpaca request (CCXT's
// fetchOpenOrders) asks /v2/orders for open orders, as alice's Orders
// does when it lists them.
func TestCCXTRecordedRequests(t *testing.T) {
	t.Parallel()
	f := ccxtfixture.Load(t, "request", "alpaca")
	c := f.Cases(t, "fetchOpenOrders")[0]
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(srv.Close)
	cfg, key, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"key","apiSecret":"secret","baseUrl":%q,"dataUrl":%q}`, srv.URL, srv.URL)), nil)
	require.NoError(t, err, key)
	_, err = New("alp", cfg, nil).Orders(context.Background(), nil)
	require.NoError(t, err)
	u, err := url.Parse(c.URL)
	require.NoError(t, err)
	assert.Contains(t, paths, "GET "+u.Path, "alice lists open orders through the endpoint CCXT uses")
}
