package ibkr

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

func TestParseConfig(t *testing.T) {
	for _, c := range []struct {
		name, raw, key string
		want           Config
	}{
		{"defaults", `{}`, "", Config{Host: "127.0.0.1", Port: 7497}},
		{"openalice shape", `{"host":"10.0.0.5","port":4002,"clientId":3,"accountId":"DU1"}`, "", Config{Host: "10.0.0.5", Port: 4002, ClientID: 3, AccountID: "DU1"}},
		{"numbers as strings", `{"port":"4001","clientId":"12"}`, "", Config{Host: "127.0.0.1", Port: 4001, ClientID: 12}},
		{"port too big", `{"port":70000}`, "port", Config{}},
		{"port not a number", `{"port":"seven"}`, "port", Config{}},
		{"port fraction", `{"port":7497.5}`, "port", Config{}},
		{"negative client", `{"clientId":-1}`, "clientId", Config{}},
		{"empty host", `{"host":" "}`, "host", Config{}},
		{"account not a string", `{"accountId":5}`, "accountId", Config{}},
		{"misspelt key", `{"prot":7497}`, "prot", Config{}},
		{"duplicate key", `{"port":7497,"port":4001}`, "port", Config{}},
		{"timeout", `{"timeoutSec":0}`, "timeoutSec", Config{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, key, err := ParseConfig(json.RawMessage(c.raw))
			require.Equal(t, c.key, key)
			if c.key != "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.want.Host, got.Host)
			require.Equal(t, c.want.Port, got.Port)
			require.Equal(t, c.want.ClientID, got.ClientID)
			require.Equal(t, c.want.AccountID, got.AccountID)
		})
	}
	c, _, _ := ParseConfig(json.RawMessage(`{"port":4002}`))
	require.True(t, c.Paper())
	c, _, _ = ParseConfig(json.RawMessage(`{"port":4001}`))
	require.False(t, c.Paper())
}

func TestErrorCodes(t *testing.T) {
	for code, want := range map[int64]broker.Code{
		100: broker.CodeNetwork, 502: broker.CodeNetwork, 504: broker.CodeNetwork, 1100: broker.CodeNetwork, 2110: broker.CodeNetwork,
		200: broker.CodeNotFound, 135: broker.CodeNotFound, 10147: broker.CodeNotFound,
		201: broker.CodeExchange, 103: broker.CodeExchange, 161: broker.CodeExchange, 110: broker.CodeExchange, 354: broker.CodeExchange,
		326: broker.CodeConfig,
	} {
		require.Equal(t, want, codeFor(code), "IB %d", code)
	}
	require.True(t, informational(2104))
	require.True(t, informational(2158))
	require.False(t, informational(2110), "2110 means the IB link is down")
	require.False(t, informational(201))
	require.Contains(t, ibError{Code: 326, Msg: "client id in use"}.typed("connect").Hint, "clientId")
}

func TestUSEquityClock(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, ny)
		require.NoError(t, err)
		return v
	}
	for _, c := range []struct {
		now      string
		open     bool
		nextOpen string
	}{
		{"2026-11-23 10:00", true, ""},                  // Monday morning
		{"2026-11-23 09:29", false, "2026-11-23 09:30"}, // before the bell
		{"2026-11-23 16:00", false, "2026-11-24 09:30"}, // at the close
		{"2026-11-27 17:00", false, "2026-11-30 09:30"}, // Friday evening → Monday
		{"2026-11-28 12:00", false, "2026-11-30 09:30"}, // Saturday
	} {
		clk := usEquityClock(at(c.now))
		require.Equal(t, c.open, clk.IsOpen, c.now)
		if c.nextOpen != "" {
			require.NotNil(t, clk.NextOpen, c.now)
			require.True(t, at(c.nextOpen).Equal(*clk.NextOpen), "%s: next open %s", c.now, clk.NextOpen.In(ny))
		} else {
			require.NotNil(t, clk.NextClose)
		}
	}
}

// TWS going away makes calls fail NETWORK (never stale cached figures),
// and the supervisor reconnects with backoff once it is back, with the
// account cache and order stream renewed.
func TestReconnectAfterTWSRestart(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	_, err := r.b.PlaceOrder(ctx, trading.Contract{Symbol: "AAPL"}, trading.Order{Action: trading.Buy, OrderType: trading.Limit,
		TotalQuantity: decimal.NewFromInt(1), LmtPrice: decimal.NewFromInt(100), TIF: trading.GTC}, nil)
	require.NoError(t, err)

	r.tws.setDown(true)
	r.waitDown(t)
	_, err = r.b.Account(ctx)
	require.Equal(t, broker.CodeNetwork, broker.CodeOf(err), "%v", err)
	_, err = r.b.Positions(ctx)
	require.Equal(t, broker.CodeNetwork, broker.CodeOf(err), "%v", err)

	r.tws.setDown(false)
	require.Eventually(t, func() bool { ok, _ := r.b.Connected(); return ok }, 30*time.Second, 20*time.Millisecond,
		"the supervisor reconnects without a call")
	a, err := r.b.Account(ctx)
	require.NoError(t, err)
	require.True(t, a.NetLiquidation.IsPositive())
	os, err := r.b.Orders(ctx, nil)
	require.NoError(t, err)
	require.Len(t, os, 1)
	require.True(t, os[0].Status.Pending())
	r.tws.mu.Lock()
	accepts := r.tws.accepts
	r.tws.mu.Unlock()
	require.Equal(t, 2, accepts)
}

// A Gateway cut off from IB (1100) is up but must not look healthy.
func TestIBConnectivityLostIsNotHealthy(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	r.tws.broadcast(1100, "Connectivity between IB and Trader Workstation has been lost.")
	require.Eventually(t, func() bool { ok, _ := r.b.Connected(); return !ok }, 30*time.Second, 10*time.Millisecond)
	_, err := r.b.Account(ctx)
	require.Equal(t, broker.CodeNetwork, broker.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), "1100")
	r.tws.broadcast(1102, "Connectivity between IB and Trader Workstation has been restored - data maintained.")
	require.Eventually(t, func() bool { ok, _ := r.b.Connected(); return ok }, 30*time.Second, 10*time.Millisecond)
	_, err = r.b.Account(ctx)
	require.NoError(t, err)
}

// A Gateway whose socket is open but which stopped answering is found by
// the keepalive, dropped and reconnected.
func TestKeepAliveDropsHungGateway(t *testing.T) {
	r := newRig(t, func(c *Config) { c.KeepAlive = 50 * time.Millisecond; c.Timeout = 200 * time.Millisecond })
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	r.tws.mu.Lock()
	r.tws.hang = true
	r.tws.mu.Unlock()
	require.Eventually(t, func() bool {
		r.tws.mu.Lock()
		defer r.tws.mu.Unlock()
		return r.tws.accepts >= 2
	}, 30*time.Second, 10*time.Millisecond, "keepalive noticed and the supervisor reconnected")
	r.tws.mu.Lock()
	r.tws.hang = false
	r.tws.mu.Unlock()
	require.Eventually(t, func() bool { _, err := r.b.MarketClock(ctx); return err == nil }, 30*time.Second, 20*time.Millisecond)
}

func TestUnreachableGatewayIsNetworkError(t *testing.T) {
	b := New("ib", Config{Host: "127.0.0.1", Port: 1, Timeout: time.Second}, nil)
	defer b.Close()
	err := b.Init(context.Background())
	require.Error(t, err)
	require.Equal(t, broker.CodeNetwork, broker.CodeOf(err))
	var be *broker.Error
	require.ErrorAs(t, err, &be)
	require.Contains(t, be.Hint, "API")
}

func TestWrongAccountIsConfigError(t *testing.T) {
	r := newRig(t, func(c *Config) { c.AccountID = "U999" })
	err := r.b.Init(context.Background())
	require.Equal(t, broker.CodeConfig, broker.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), fakeAccount)
}

func TestUnknownSymbolIsNotFound(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	_, err := r.b.ContractDetails(ctx, trading.Contract{Symbol: "NOPE"})
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), "IB error 200")
	_, err = r.b.PlaceOrder(ctx, trading.Contract{Symbol: "NOPE"}, trading.Order{Action: trading.Buy, OrderType: trading.Market,
		TotalQuantity: decimal.NewFromInt(1), TIF: trading.Day}, nil)
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)
	_, err = r.b.CancelOrder(ctx, "4242")
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)
	require.Contains(t, err.Error(), "10147")
}

func TestPositionsCarryMarketValue(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	res, err := r.b.PlaceOrder(ctx, trading.Contract{Symbol: "MSFT"}, trading.Order{Action: trading.Buy, OrderType: trading.Market,
		TotalQuantity: decimal.NewFromInt(3), TIF: trading.Day}, nil)
	require.NoError(t, err)
	require.Equal(t, trading.StatusFilled, res.Status)
	ps, err := r.b.Positions(ctx)
	require.NoError(t, err)
	require.Len(t, ps, 1)
	p := ps[0]
	require.Equal(t, "MSFT", p.Contract.Symbol)
	require.True(t, p.Quantity.Equal(decimal.NewFromInt(3)))
	require.True(t, p.MarketValue.Equal(p.MarketPrice.Mul(p.Quantity)), "%+v", p)
	require.Equal(t, "ib-paper|"+"266598", p.Contract.AliceID, "native key is the conId")
	_, err = r.b.ClosePosition(ctx, p.Contract, decimal.Zero)
	require.NoError(t, err)
	ps, err = r.b.Positions(ctx)
	require.NoError(t, err)
	require.Empty(t, ps)
}

// TP/SL go out as an IB bracket: parent and take-profit with transmit=false,
// the stop-loss with transmit=true activating all three; the children
// carry the parent's id and rest once the parent filled.
func TestBracketOrder(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	res, err := r.b.PlaceOrder(ctx, trading.Contract{Symbol: "AAPL"}, trading.Order{Action: trading.Buy, OrderType: trading.Market,
		TotalQuantity: decimal.NewFromInt(10), TIF: trading.Day}, &trading.TPSL{
		TakeProfit: &trading.PriceLeg{Price: decimal.RequireFromString("209.00")},
		StopLoss:   &trading.PriceLeg{Price: decimal.RequireFromString("171.00")}})
	require.NoError(t, err)
	require.Equal(t, trading.StatusFilled, res.Status)

	var legs []trading.OpenOrder
	require.Eventually(t, func() bool {
		all, err := r.b.Orders(ctx, nil)
		require.NoError(t, err)
		legs = legs[:0]
		for _, o := range all {
			if o.Order.ParentID == res.OrderID && o.Status.Pending() {
				legs = append(legs, o)
			}
		}
		return len(legs) == 2
	}, 30*time.Second, 10*time.Millisecond)
	types := map[trading.OrderType]string{}
	for _, l := range legs {
		require.Equal(t, trading.Sell, l.Order.Action)
		types[l.Order.OrderType] = l.Order.LmtPrice.String() + "/" + l.Order.AuxPrice.String()
	}
	require.Equal(t, map[trading.OrderType]string{trading.Limit: "209/0", trading.Stop: "0/171"}, types)

	r.venue.SetPrice("AAPL", decimal.RequireFromString("165"))
	r.tws.publish()
	require.Eventually(t, func() bool {
		ps, err := r.b.Positions(ctx)
		require.NoError(t, err)
		return len(ps) == 0
	}, 30*time.Second, 10*time.Millisecond, "the stop-loss closed the position")
}

// An order that fills while alice is away is known after it reconnects
// (reqCompletedOrders), so TradingGit's sync can settle it.
func TestOrderFilledWhileAwayIsKnownAfterRestart(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	require.NoError(t, r.b.Init(ctx))
	res, err := r.b.PlaceOrder(ctx, trading.Contract{Symbol: "AAPL"}, trading.Order{Action: trading.Buy, OrderType: trading.Limit,
		TotalQuantity: decimal.NewFromInt(4), LmtPrice: decimal.RequireFromString("180"), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	require.NoError(t, r.b.Close()) // alice stops

	r.venue.SetPrice("AAPL", decimal.RequireFromString("170"))
	r.tws.publish()

	again := New("ib-paper", r.b.cfg, nil) // alice starts again, same clientId
	defer again.Close()
	require.NoError(t, again.Init(ctx))
	require.Eventually(t, func() bool {
		o, err := again.Order(ctx, res.OrderID)
		return err == nil && o.Status == trading.StatusFilled && o.FilledQty.Equal(decimal.NewFromInt(4))
	}, 30*time.Second, 10*time.Millisecond)

	other := New("ib-other", Config{Host: r.b.cfg.Host, Port: r.b.cfg.Port, ClientID: 99, Timeout: 15 * time.Second}, nil)
	defer other.Close()
	require.NoError(t, other.Init(ctx))
	_, err = other.Order(ctx, res.OrderID)
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "another clientId's order ids are not ours")
}
