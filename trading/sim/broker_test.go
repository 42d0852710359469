package sim

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(dt time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(dt)
	c.mu.Unlock()
}

func newTestBroker(t *testing.T, path string) (*Broker, *[]Fill) {
	t.Helper()
	var mu sync.Mutex
	fills := &[]Fill{}
	b, err := New(Options{AccountID: "sim", Market: simmarket.New(42), Cash: d("100000"), StatePath: path,
		Now:    (&clock{t: time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)}).Now,
		OnFill: func(f Fill) { mu.Lock(); *fills = append(*fills, f); mu.Unlock() }})
	require.NoError(t, err)
	return b, fills
}

func aapl() trading.Contract { return trading.Contract{Symbol: "AAPL"} }

func order(action trading.Action, typ trading.OrderType, qty string) trading.Order {
	return trading.Order{Action: action, OrderType: typ, TotalQuantity: d(qty), TIF: trading.Day}
}

// Market orders cross the spread: a buy pays the ask, a sell receives the
// bid, never the last trade.
func TestMarketOrdersFillAtAskAndBid(t *testing.T) {
	ctx := context.Background()
	b, fills := newTestBroker(t, "")
	require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
	q, err := b.Quote(ctx, aapl())
	require.NoError(t, err)
	require.True(t, q.Bid.LessThan(q.Last) && q.Last.LessThan(q.Ask), "a real spread: %s < %s < %s", q.Bid, q.Last, q.Ask)
	res, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "10"), nil)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusFilled, res.Status)
	assert.True(t, res.FilledPrice.Equal(q.Ask), "buy fills at the ask %s, got %s", q.Ask, res.FilledPrice)
	acct, err := b.Account(ctx)
	require.NoError(t, err)
	assert.True(t, acct.TotalCashValue.Equal(d("100000").Sub(q.Ask.Mul(d("10")))), acct.TotalCashValue.String())
	require.NoError(t, b.SetMarkPrice("AAPL", d("210")))
	acct, _ = b.Account(ctx)
	assert.True(t, acct.UnrealizedPnL.Equal(d("210").Sub(q.Ask).Mul(d("10"))), acct.UnrealizedPnL.String())
	require.Len(t, *fills, 1)

	q2, _ := b.Quote(ctx, aapl())
	res, err = b.PlaceOrder(ctx, aapl(), order(trading.Sell, trading.Market, "4"), nil)
	require.NoError(t, err)
	assert.True(t, res.FilledPrice.Equal(q2.Bid), "sell fills at the bid %s, got %s", q2.Bid, res.FilledPrice)
	acct, _ = b.Account(ctx)
	assert.True(t, acct.RealizedPnL.Equal(q2.Bid.Sub(q.Ask).Mul(d("4"))), acct.RealizedPnL.String())
	pos, _ := b.Positions(ctx)
	require.Len(t, pos, 1)
	assert.True(t, pos[0].Quantity.Equal(d("6")))
}

func TestRestingOrdersTriggerOnCross(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		setup  string // position to hold first ("" none)
		ord    trading.Order
		marks  []string // successive marks; fill expected at the last one only
		fillAt string
	}{
		{"buy limit fills when mark falls to limit", "", trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("5"), LmtPrice: d("195")},
			[]string{"196", "195.5", "194"}, "194"},
		{"sell limit fills when mark rises to limit", "5", trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("5"), LmtPrice: d("210")},
			[]string{"205", "209.99", "210"}, "210"},
		{"buy stop fills when mark rises through stop", "", trading.Order{Action: trading.Buy, OrderType: trading.Stop, TotalQuantity: d("2"), AuxPrice: d("205")},
			[]string{"201", "204", "206"}, "206"},
		{"sell stop fills when mark drops through stop", "3", trading.Order{Action: trading.Sell, OrderType: trading.Stop, TotalQuantity: d("3"), AuxPrice: d("190")},
			[]string{"195", "191", "189"}, "189"},
		{"stop limit triggers then waits for limit", "", trading.Order{Action: trading.Buy, OrderType: trading.StopLimit, TotalQuantity: d("1"), AuxPrice: d("205"), LmtPrice: d("206")},
			[]string{"204", "207", "205.5"}, "205.5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := newTestBroker(t, "")
			require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
			if tc.setup != "" {
				_, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, tc.setup), nil)
				require.NoError(t, err)
			}
			tc.ord.TIF = trading.GTC
			res, err := b.PlaceOrder(ctx, aapl(), tc.ord, nil)
			require.NoError(t, err)
			require.Equal(t, trading.StatusSubmitted, res.Status)
			for i, m := range tc.marks {
				require.NoError(t, b.SetMarkPrice("AAPL", d(m)))
				o, err := b.Order(ctx, res.OrderID)
				require.NoError(t, err)
				if i < len(tc.marks)-1 {
					require.Equal(t, trading.StatusSubmitted, o.Status, "mark %s must not fill", m)
				} else {
					require.Equal(t, trading.StatusFilled, o.Status)
					assert.True(t, o.AvgFillPrice.Equal(d(tc.fillAt)), o.AvgFillPrice.String())
				}
			}
		})
	}
}

func TestOrdersFillAsSimulatedMarketMoves(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)}
	m := simmarket.New(42)
	b, err := New(Options{AccountID: "sim", Market: m, Now: clk.Now})
	require.NoError(t, err)
	start, _ := m.Price("BTC", clk.Now())
	// Find a future minute where BTC trades below the current price and
	// place a buy limit between the two: the clock alone must fill it.
	var target decimal.Decimal
	var after time.Duration
	for dt := time.Minute; dt < 48*time.Hour; dt += time.Minute {
		p, _ := m.Price("BTC", clk.Now().Add(dt))
		if p.LessThan(start.Mul(d("0.995"))) {
			target, after = p, dt
			break
		}
	}
	require.False(t, target.IsZero(), "market never dipped 0.5%")
	lmt := start.Add(target).Div(d("2")).Round(2)
	res, err := b.PlaceOrder(ctx, trading.Contract{Symbol: "BTC"}, trading.Order{Action: trading.Buy, OrderType: trading.Limit,
		TotalQuantity: d("0.1"), LmtPrice: lmt, TIF: trading.GTC}, nil)
	require.NoError(t, err)
	require.Equal(t, trading.StatusSubmitted, res.Status)
	clk.Add(after)
	b.Tick()
	o, err := b.Order(ctx, res.OrderID)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusFilled, o.Status)
	assert.True(t, o.AvgFillPrice.LessThanOrEqual(lmt))
}

func TestPartialFillLifecycle(t *testing.T) {
	ctx := context.Background()
	b, fills := newTestBroker(t, "")
	require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
	res, err := b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("10"), LmtPrice: d("150"), TIF: trading.GTC}, nil)
	require.NoError(t, err)

	steps := []struct {
		qty, price string
		wantStatus trading.OrderStatus
		wantFilled string
		wantAvg    string
		wantErr    bool
	}{
		{"3", "149", trading.StatusSubmitted, "3", "149", false},
		{"8", "149", trading.StatusSubmitted, "3", "149", true}, // more than remaining
		{"5", "151", trading.StatusSubmitted, "8", "150.25", false},
		{"2", "150", trading.StatusFilled, "10", "150.2", false},
		{"1", "150", trading.StatusFilled, "10", "150.2", true}, // already filled
	}
	for i, s := range steps {
		o, err := b.FillOrder(res.OrderID, d(s.qty), d(s.price))
		if s.wantErr {
			require.Error(t, err, "step %d", i)
		} else {
			require.NoError(t, err, "step %d", i)
		}
		got, _ := b.Order(ctx, res.OrderID)
		assert.Equal(t, s.wantStatus, got.Status, "step %d", i)
		assert.True(t, got.FilledQty.Equal(d(s.wantFilled)), "step %d filled %s", i, got.FilledQty)
		assert.True(t, got.AvgFillPrice.Equal(d(s.wantAvg)), "step %d avg %s", i, got.AvgFillPrice)
		_ = o
	}
	pos, _ := b.Positions(ctx)
	require.Len(t, pos, 1)
	assert.True(t, pos[0].Quantity.Equal(d("10")))
	assert.True(t, pos[0].AvgCost.Equal(d("150.2")))
	assert.Len(t, *fills, 3)
}

func TestRejections(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		c    trading.Contract
		o    trading.Order
	}{
		{"oversell with no position", aapl(), order(trading.Sell, trading.Market, "1")},
		{"unknown symbol", trading.Contract{Symbol: "NOPE"}, order(trading.Buy, trading.Market, "1")},
		{"insufficient cash", aapl(), order(trading.Buy, trading.Market, "1000")},
		{"missing limit price", aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("1")}},
		{"unsupported type", aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Trail, TotalQuantity: d("1"), TrailingPercent: d("1")}},
		{"no quantity", aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Market}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := newTestBroker(t, "")
			require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
			_, err := b.PlaceOrder(ctx, tc.c, tc.o, nil)
			require.Error(t, err)
			var be *broker.Error
			require.ErrorAs(t, err, &be)
			acct, _ := b.Account(ctx)
			assert.True(t, acct.TotalCashValue.Equal(d("100000")), "cash untouched")
		})
	}
	t.Run("resting sells cannot exceed the position together", func(t *testing.T) {
		b, _ := newTestBroker(t, "")
		require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
		_, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "5"), nil)
		require.NoError(t, err)
		_, err = b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("4"), LmtPrice: d("300")}, nil)
		require.NoError(t, err)
		_, err = b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("2"), LmtPrice: d("300")}, nil)
		require.ErrorContains(t, err, "insufficient position")
	})
}

func TestCancelModifyAndClose(t *testing.T) {
	ctx := context.Background()
	b, _ := newTestBroker(t, "")
	require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
	res, err := b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("5"), LmtPrice: d("150")}, nil)
	require.NoError(t, err)

	_, err = b.ModifyOrder(ctx, res.OrderID, trading.OrderChanges{LmtPrice: d("201")})
	require.NoError(t, err, "a marketable modification fills at once")
	o, _ := b.Order(ctx, res.OrderID)
	assert.Equal(t, trading.StatusFilled, o.Status)
	_, err = b.ModifyOrder(ctx, res.OrderID, trading.OrderChanges{LmtPrice: d("100")})
	assert.Error(t, err, "filled orders cannot be modified")

	res2, err := b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("5"), LmtPrice: d("150")}, nil)
	require.NoError(t, err)
	c, err := b.CancelOrder(ctx, res2.OrderID)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusCancelled, c.Status)
	_, err = b.CancelOrder(ctx, res2.OrderID)
	assert.Error(t, err)
	_, err = b.CancelOrder(ctx, "sim-ord-999")
	assert.Equal(t, broker.CodeNotFound, broker.CodeOf(err))

	_, err = b.ClosePosition(ctx, aapl(), d("2"))
	require.NoError(t, err)
	pos, _ := b.Positions(ctx)
	require.Len(t, pos, 1)
	assert.True(t, pos[0].Quantity.Equal(d("3")))
	_, err = b.ClosePosition(ctx, aapl(), decimal.Zero)
	require.NoError(t, err)
	pos, _ = b.Positions(ctx)
	assert.Empty(t, pos)
	_, err = b.ClosePosition(ctx, aapl(), decimal.Zero)
	assert.Error(t, err)
}

func TestClientOrderIDIsIdempotent(t *testing.T) {
	ctx := context.Background()
	b, _ := newTestBroker(t, "")
	o := order(trading.Buy, trading.Market, "1")
	o.ClientOrderID = "alice-abc-0"
	r1, err := b.PlaceOrder(ctx, aapl(), o, nil)
	require.NoError(t, err)
	r2, err := b.PlaceOrder(ctx, aapl(), o, nil)
	require.NoError(t, err)
	assert.Equal(t, r1.OrderID, r2.OrderID)
	pos, _ := b.Positions(ctx)
	assert.True(t, pos[0].Quantity.Equal(d("1")), "second submission must not buy again")
}

func TestTakeProfitStopLossChildren(t *testing.T) {
	ctx := context.Background()
	b, _ := newTestBroker(t, "")
	require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
	_, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "2"),
		&trading.TPSL{TakeProfit: &trading.PriceLeg{Price: d("220")}, StopLoss: &trading.PriceLeg{Price: d("190")}})
	require.NoError(t, err)
	all, _ := b.Orders(ctx, nil)
	require.Len(t, all, 3)
	require.NoError(t, b.SetMarkPrice("AAPL", d("221")))
	all, _ = b.Orders(ctx, nil)
	assert.Equal(t, trading.StatusFilled, all[1].Status, "take profit fills")
	assert.Equal(t, trading.StatusCancelled, all[2].Status, "stop loss is cancelled (OCA)")
	pos, _ := b.Positions(ctx)
	assert.Empty(t, pos)
}

func TestCashQtyBuys(t *testing.T) {
	b, _ := newTestBroker(t, "")
	require.NoError(t, b.SetMarkPrice("BTC", d("60000")))
	res, err := b.PlaceOrder(context.Background(), trading.Contract{Symbol: "BTC"},
		trading.Order{Action: trading.Buy, OrderType: trading.Market, CashQty: d("600")}, nil)
	require.NoError(t, err)
	q, _ := b.Quote(context.Background(), trading.Contract{Symbol: "BTC"})
	assert.True(t, res.FilledQty.Equal(d("600").Div(q.Ask).RoundDown(6)), "cash buys at the ask: %s", res.FilledQty)
	assert.True(t, res.FilledQty.Mul(res.FilledPrice).LessThanOrEqual(d("600")), "never spends more than cashQty")
}

func TestRestartKeepsPortfolio(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "acct", "sim-state.json")
	b, _ := newTestBroker(t, path)
	require.NoError(t, b.SetMarkPrice("AAPL", d("200")))
	_, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "10"), nil)
	require.NoError(t, err)
	rest, err := b.PlaceOrder(ctx, aapl(), trading.Order{Action: trading.Sell, OrderType: trading.Limit, TotalQuantity: d("10"), LmtPrice: d("250"), TIF: trading.GTC}, nil)
	require.NoError(t, err)
	before, _ := b.Account(ctx)
	require.NoError(t, b.Close())

	b2, _ := newTestBroker(t, path)
	after, err := b2.Account(ctx)
	require.NoError(t, err)
	assert.True(t, before.TotalCashValue.Equal(after.TotalCashValue))
	assert.True(t, before.NetLiquidation.Equal(after.NetLiquidation), "marks are restored too")
	o, err := b2.Order(ctx, rest.OrderID)
	require.NoError(t, err)
	assert.Equal(t, trading.StatusSubmitted, o.Status)
	require.NoError(t, b2.SetMarkPrice("AAPL", d("251")))
	o, _ = b2.Order(ctx, rest.OrderID)
	assert.Equal(t, trading.StatusFilled, o.Status, "the resting order survives the restart and fills")
	next, err := b2.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "1"), nil)
	require.NoError(t, err)
	assert.NotEqual(t, rest.OrderID, next.OrderID, "order ids continue after restart")
}

func TestStartStopsOnCancel(t *testing.T) {
	b, _ := newTestBroker(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Start(ctx, time.Millisecond); close(done) }()
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Start did not return after cancel")
	}
}

func TestParseConfig(t *testing.T) {
	cases := []struct {
		raw, key string
		cash     string
		seed     int64
	}{
		{``, "", "100000", 0},
		{`{"cash":"5000","seed":7}`, "", "5000", 7},
		{`{"cash":2500}`, "", "2500", 0},
		{`{"cash":"abc"}`, "cash", "", 0},
		{`{"cash":"-1"}`, "cash", "", 0},
		{`{"cahs":"1"}`, "cahs", "", 0},
		{`{"cash":100000,"_instanceId":"a3f2b1c4"}`, "", "100000", 0},
		{`{"cash":"1e400"}`, "cash", "", 0},               // an unbounded account makes every % guard meaningless
		{`{"cash":"2000000000000"}`, "cash", "", 0},       // above 10^12
		{`{"cash":1e300}`, "cash", "", 0},                 // as a JSON number too
		{`{"cash":"100000.123456789012"}`, "cash", "", 0}, // more decimals than an amount carries
	}
	for _, tc := range cases {
		c, key, err := ParseConfig([]byte(tc.raw))
		if tc.key != "" {
			require.Error(t, err, tc.raw)
			assert.Equal(t, tc.key, key)
			continue
		}
		require.NoError(t, err, tc.raw)
		assert.True(t, c.Cash.Equal(d(tc.cash)))
		assert.Equal(t, tc.seed, c.Seed)
	}
}

// Start's matching clock runs only while an order rests: idle, it waits
// for the order book to change; an order placed later is matched on the
// clock with nobody querying the broker (here: a DAY limit order expiring
// when its day ends).
func TestStartClockRunsOnlyWhileAnOrderRests(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)}
	b, err := New(Options{AccountID: "sim", Market: simmarket.New(42), Cash: d("100000"), Now: c.Now})
	require.NoError(t, err)
	require.False(t, b.resting())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Start(ctx, time.Millisecond); close(done) }()
	defer func() { cancel(); <-done }()

	lmt := order(trading.Buy, trading.Limit, "1")
	lmt.LmtPrice = d("1") // far below the market: rests
	res, err := b.PlaceOrder(context.Background(), aapl(), lmt, nil)
	require.NoError(t, err)
	require.True(t, b.resting())
	c.Add(24 * time.Hour) // its day is over; only the clock can notice
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.st.Orders[res.OrderID].Status == trading.StatusCancelled
	}, 30*time.Second, time.Millisecond, "the clock matched the resting order")
	require.False(t, b.resting(), "nothing rests: the clock stops again")
}
