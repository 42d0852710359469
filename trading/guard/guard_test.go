package guard

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var t0 = time.Date(2026, 4, 1, 14, 0, 0, 0, time.UTC)

func place(sym string, action trading.Action, qty, lmt, cash string) git.Operation {
	o := trading.Order{Action: action, OrderType: trading.Market, TIF: trading.Day}
	if qty != "" {
		o.TotalQuantity = d(qty)
	}
	if lmt != "" {
		o.OrderType, o.LmtPrice = trading.Limit, d(lmt)
	}
	if cash != "" {
		o.CashQty = d(cash)
	}
	return git.Operation{Action: git.PlaceOrder, Contract: &trading.Contract{Symbol: sym}, Order: &o}
}

func ctxWith(op git.Operation, equity string, pos ...trading.Position) Context {
	return Context{Op: op, Positions: pos, Account: trading.AccountInfo{NetLiquidation: d(equity)}, Now: t0,
		Quote: func(_ context.Context, c trading.Contract) (trading.Quote, error) {
			if c.Symbol == "BAD" {
				return trading.Quote{}, errors.New("no quote")
			}
			return trading.Quote{Last: d("100"), Bid: d("100"), Ask: d("100")}, nil
		}}
}

func position(sym, qty, price string) trading.Position {
	return trading.Position{Contract: trading.Contract{Symbol: sym}, Quantity: d(qty), MarketPrice: d(price), MarketValue: d(qty).Mul(d(price))}
}

func shortPos(sym, qty, price string) trading.Position {
	p := position(sym, qty, price)
	p.Side = trading.Short
	return p
}

func resting(sym string, action trading.Action, qty, lmt, filled string) trading.OpenOrder {
	return trading.OpenOrder{Contract: trading.Contract{Symbol: sym}, Status: trading.StatusSubmitted, FilledQty: d(filled),
		Order: trading.Order{Action: action, OrderType: trading.Limit, TotalQuantity: d(qty), LmtPrice: d(lmt)}}
}

// closing is the context a push builds for a closePosition: the order it
// produces from the position.
func closing(qty, sym string, side trading.Action, pos ...trading.Position) Context {
	gc := ctxWith(git.Operation{Action: git.ClosePosition, Contract: &trading.Contract{Symbol: sym}, Quantity: d(qty)}, "10000", pos...)
	gc.Order = &trading.Order{Action: side, OrderType: trading.Market, TotalQuantity: d(qty)}
	gc.Contract = &trading.Contract{Symbol: sym}
	return gc
}

func withResting(gc Context, r ...trading.OpenOrder) Context {
	gc.Resting = r
	return gc
}

func build(t *testing.T, typ string, opts map[string]any) Guard {
	t.Helper()
	g, err := DefaultRegistry()[typ](opts)
	require.NoError(t, err)
	return g
}

func TestMaxPositionSize(t *testing.T) {
	g := build(t, "max-position-size", map[string]any{"maxPercentOfEquity": 25.0})
	cases := []struct {
		name   string
		gc     Context
		reject string
	}{
		{"small new position via quote", ctxWith(place("AAPL", trading.Buy, "10", "", ""), "10000"), ""},
		{"new position too big via quote", ctxWith(place("AAPL", trading.Buy, "30", "", ""), "10000"), "Position for AAPL would be 30.0% of equity (limit: 25%)"},
		{"cashQty counts", ctxWith(place("AAPL", trading.Buy, "", "", "2600"), "10000"), "26.0%"},
		{"adds to existing at market price", ctxWith(place("AAPL", trading.Buy, "6", "", ""), "10000", position("AAPL", "20", "100")), "26.0%"},
		{"limit price used for new symbol", ctxWith(place("AAPL", trading.Buy, "10", "300", ""), "10000"), "30.0%"},
		{"sells are never blocked", ctxWith(place("AAPL", trading.Sell, "50", "", ""), "10000", position("AAPL", "50", "100")), ""},
		{"exactly at limit passes", ctxWith(place("AAPL", trading.Buy, "25", "", ""), "10000"), ""},
		{"resting buys of the symbol count", withResting(ctxWith(place("AAPL", trading.Buy, "6", "99", ""), "10000", position("AAPL", "10", "100")),
			resting("AAPL", trading.Buy, "10", "99", "0")), "Position for AAPL would be 25.8% of equity (limit: 25%), counting 990.00 of resting buy orders"},
		{"a resting order's filled part is in the position, not counted twice", withResting(ctxWith(place("AAPL", trading.Buy, "5", "99", ""), "10000", position("AAPL", "10", "100")),
			resting("AAPL", trading.Buy, "10", "99", "4")), ""},
		{"resting sells and other symbols do not add to a long", withResting(ctxWith(place("AAPL", trading.Buy, "10", "", ""), "10000", position("AAPL", "10", "100")),
			resting("AAPL", trading.Sell, "10", "101", "0"), resting("MSFT", trading.Buy, "20", "99", "0")), ""},
		{"a sell that opens a short is judged", ctxWith(place("AAPL", trading.Sell, "30", "", ""), "10000"), "Short position for AAPL would be 30.0% of equity"},
		{"a sell through a long into a short", ctxWith(place("AAPL", trading.Sell, "40", "", ""), "10000", position("AAPL", "10", "100")), "Short position for AAPL would be 30.0%"},
		{"a sell growing a short counts resting sells", withResting(ctxWith(place("AAPL", trading.Sell, "5", "", ""), "10000", shortPos("AAPL", "15", "100")),
			resting("AAPL", trading.Sell, "6", "101", "0")), "Short position for AAPL would be 26.1%"},
		{"a buy covering a short passes", ctxWith(place("AAPL", trading.Buy, "40", "", ""), "10000", shortPos("AAPL", "40", "100")), ""},
		{"a buy covering a short and opening a long is judged", ctxWith(place("AAPL", trading.Buy, "70", "", ""), "10000", shortPos("AAPL", "40", "100")), "Position for AAPL would be 30.0%"},
		{"a close of a long passes", closing("10", "AAPL", trading.Sell, position("AAPL", "10", "100")), ""},
		{"a close larger than the long opens a short and is judged", closing("40", "AAPL", trading.Sell, position("AAPL", "10", "100")), "Short position for AAPL would be 30.0%"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := g.Check(context.Background(), tc.gc)
			if tc.reject == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.reject)
			}
		})
	}
	assert.Equal(t, "", g.Check(context.Background(), ctxWith(git.Operation{Action: git.CancelOrder, OrderID: "1"}, "10000")))
}

func TestCooldown(t *testing.T) {
	g := build(t, "cooldown", map[string]any{"minIntervalMs": 60000.0})
	steps := []struct {
		sym    string
		at     time.Duration
		reject string
	}{
		{"AAPL", 0, ""},
		{"AAPL", 10 * time.Second, "Cooldown active for AAPL: 50s remaining"},
		{"MSFT", 11 * time.Second, ""},
		{"AAPL", 61 * time.Second, ""},
		{"aapl", 62 * time.Second, "59s remaining"},
	}
	for i, s := range steps {
		gc := ctxWith(place(s.sym, trading.Buy, "1", "", ""), "10000")
		gc.Now = t0.Add(s.at)
		got := g.Check(context.Background(), gc)
		if got == "" { // the order executed: that arms the cooldown
			require.NoError(t, g.(recorder).executed(gc, gc.Now))
		}
		if s.reject == "" {
			assert.Empty(t, got, "step %d", i)
		} else {
			assert.Contains(t, got, s.reject, "step %d", i)
		}
	}
}

func TestSymbolWhitelist(t *testing.T) {
	g := build(t, "symbol-whitelist", map[string]any{"symbols": []any{"AAPL", "btc"}})
	cases := []struct {
		op     git.Operation
		reject bool
	}{
		{place("AAPL", trading.Buy, "1", "", ""), false},
		{place("BTC", trading.Buy, "1", "", ""), false},
		{place("TSLA", trading.Buy, "1", "", ""), true},
		{git.Operation{Action: git.ClosePosition, Contract: &trading.Contract{Symbol: "TSLA"}}, true},
		{git.Operation{Action: git.CancelOrder, OrderID: "7"}, false}, // symbol unknown
		{git.Operation{Action: git.CancelOrder, OrderID: "7", SymbolHint: "NVDA"}, true},
	}
	for i, tc := range cases {
		got := g.Check(context.Background(), ctxWith(tc.op, "1000"))
		assert.Equal(t, tc.reject, got != "", "case %d: %q", i, got)
	}
	_, err := DefaultRegistry()["symbol-whitelist"](map[string]any{})
	assert.Error(t, err, "empty whitelist is a config error")
	_, err = DefaultRegistry()["symbol-whitelist"](map[string]any{"symbols": []any{1}})
	assert.Error(t, err)
}

func TestMaxOrderValue(t *testing.T) {
	g := build(t, "max-order-value", map[string]any{"maxValue": "5000"})
	cases := []struct {
		name   string
		op     git.Operation
		reject string
	}{
		{"market order valued at quote", place("AAPL", trading.Buy, "50", "", ""), ""},
		{"market order over limit", place("AAPL", trading.Buy, "51", "", ""), "Order value 5100.00 for AAPL exceeds the limit 5000"},
		{"limit order valued at limit", place("AAPL", trading.Buy, "20", "300", ""), "6000.00"},
		{"cash quantity", place("AAPL", trading.Buy, "", "", "4999"), ""},
		{"sells are valued too", place("AAPL", trading.Sell, "60", "", ""), "6000.00"},
		{"unpriceable order is refused", place("BAD", trading.Buy, "1", "", ""), "cannot value the MKT order for BAD"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := g.Check(context.Background(), ctxWith(tc.op, "100000"))
			if tc.reject == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.reject)
			}
		})
	}
	_, err := DefaultRegistry()["max-order-value"](map[string]any{})
	assert.Error(t, err)
	// a close is valued as the sell it produces (30 × 100 in a 10,000 account)
	assert.Empty(t, g.Check(context.Background(), closing("30", "AAPL", trading.Sell, position("AAPL", "107", "100"))))
	assert.Contains(t, g.Check(context.Background(), closing("51", "AAPL", trading.Sell, position("AAPL", "107", "100"))),
		"Order value 5100.00 for AAPL exceeds the limit 5000")
	// daily-loss never blocks a close, even one that buys back a short
	dl := build(t, "daily-loss", map[string]any{"maxLoss": "100"})
	cover := closing("5", "AAPL", trading.Buy, shortPos("AAPL", "5", "100"))
	cover.DayStartEquity = d("20000")
	assert.Empty(t, dl.Check(context.Background(), cover))
}

// The guards value what will execute: the price an order can fill at, and
// for a modifyOrder the open order as it will be after the change.
func TestGuardsValueWhatExecutes(t *testing.T) {
	mov := build(t, "max-order-value", map[string]any{"maxValue": "5000"})
	withQuote := func(op git.Operation, bid, ask string) Context {
		gc := ctxWith(op, "100000")
		gc.Quote = func(context.Context, trading.Contract) (trading.Quote, error) {
			return trading.Quote{Bid: d(bid), Ask: d(ask), Last: d(bid)}, nil
		}
		return gc
	}
	stop := func(action trading.Action, qty, aux string) git.Operation {
		op := place("AAPL", action, qty, "", "")
		op.Order.OrderType, op.Order.AuxPrice = trading.Stop, d(aux)
		return op
	}
	sellLimit := place("AAPL", trading.Sell, "10", "400", "")
	cases := []struct {
		name   string
		gc     Context
		reject string
	}{
		{"buy market at the ask, not the bid", withQuote(place("AAPL", trading.Buy, "10", "", ""), "490", "510"), "5100.00"},
		{"buy stop below the ask fills at the ask", withQuote(stop(trading.Buy, "10", "450"), "505", "510"), "5100.00"},
		{"buy stop above the ask at its stop", withQuote(stop(trading.Buy, "10", "520"), "505", "510"), "5200.00"},
		{"sell limit below the bid fills at the bid", withQuote(sellLimit, "520", "530"), "5200.00"},
		{"buy limit never pays more than its limit", withQuote(place("AAPL", trading.Buy, "10", "490", ""), "505", "510"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mov.Check(context.Background(), tc.gc)
			if tc.reject == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.reject)
			}
		})
	}
	// modifyOrder: the resulting order is what the guard values
	gc := ctxWith(git.Operation{Action: git.ModifyOrder, OrderID: "7", Changes: &trading.OrderChanges{TotalQuantity: d("80")}}, "100000")
	next := trading.Order{Action: trading.Buy, OrderType: trading.Limit, TotalQuantity: d("80"), LmtPrice: d("100")}
	gc.Order, gc.Contract = &next, &trading.Contract{Symbol: "AAPL"}
	assert.Contains(t, mov.Check(context.Background(), gc), "8000.00")
	// a cancel places nothing
	assert.Empty(t, mov.Check(context.Background(), ctxWith(git.Operation{Action: git.CancelOrder, OrderID: "7"}, "100000")))
}

func TestVerdictHeadroom(t *testing.T) {
	mov := build(t, "max-order-value", map[string]any{"maxValue": "5000"})
	v := mov.Assess(context.Background(), ctxWith(place("AAPL", trading.Buy, "187.2", "", ""), "100000"))
	assert.Equal(t, "max-order-value: order value 18,720.00, limit 5,000.00 → would be rejected", v.String())
	v = mov.Assess(context.Background(), ctxWith(place("AAPL", trading.Buy, "10", "", ""), "100000"))
	assert.Equal(t, "max-order-value: order value 1,000.00, limit 5,000.00 → ok", v.String())
	v = mov.Assess(context.Background(), ctxWith(place("AAPL", trading.Buy, "20.601", "", ""), "100000"))
	assert.Equal(t, "max-order-value: order value 2,060.10, limit 5,000.00 → ok", v.String(), "money always shows cents")
	mps := build(t, "max-position-size", map[string]any{"maxPercentOfEquity": 25.0})
	for _, tc := range []struct {
		name string
		gc   Context
		want string
	}{
		{"a new long", ctxWith(place("AAPL", trading.Buy, "30", "", ""), "10000"),
			"position 0.0% → 30.0% of equity, limit 25% → would be rejected"},
		{"a buy adding to a long", ctxWith(place("AAPL", trading.Buy, "6", "", ""), "10000", position("AAPL", "10", "100")),
			"position 10.0% → 16.0% of equity, limit 25% → ok"},
		{"a buy with resting buys", withResting(ctxWith(place("AAPL", trading.Buy, "6", "99", ""), "10000", position("AAPL", "10", "100")),
			resting("AAPL", trading.Buy, "10", "100", "0")), "position (with resting orders) 10.0% → 25.9% of equity, limit 25% → would be rejected"},
		{"a sell that opens a short", ctxWith(place("AAPL", trading.Sell, "30", "", ""), "10000"),
			"short position 0.0% → 30.0% of equity, limit 25% → would be rejected"},
		{"a sell through a long into a short", ctxWith(place("AAPL", trading.Sell, "40", "", ""), "10000", position("AAPL", "10", "100")),
			"short position 0.0% → 30.0% of equity, limit 25% → would be rejected"},
		{"a sell that only reduces a long", ctxWith(place("AAPL", trading.Sell, "30", "", ""), "10000", position("AAPL", "40", "100")),
			"reduces the position: 40.0% → 10.0% of equity, limit 25% → ok"},
		{"selling 2 of 10", ctxWith(place("AAPL", trading.Sell, "2", "", ""), "8130", position("AAPL", "10", "100")),
			"reduces the position: 12.3% → 9.8% of equity, limit 25% → ok"},
		{"a buy that covers a short", ctxWith(place("AAPL", trading.Buy, "5", "", ""), "10000", shortPos("AAPL", "20", "100")),
			"reduces the position: 20.0% → 15.0% of equity, limit 25% → ok"},
		{"a reduce without equity", ctxWith(place("AAPL", trading.Sell, "2", "", ""), "0", position("AAPL", "10", "100")), "ok"},
	} {
		assert.Equal(t, "max-position-size: "+tc.want, mps.Assess(context.Background(), tc.gc).String(), tc.name)
		assert.Equal(t, strings.HasSuffix(tc.want, "rejected"), mps.Check(context.Background(), tc.gc) != "", tc.name+": the decision agrees")
	}
	v = mps.Assess(context.Background(), ctxWith(git.Operation{Action: git.CancelOrder, OrderID: "7"}, "10000"))
	assert.Equal(t, "max-position-size: does not apply", v.String())
	cd := build(t, "cooldown", map[string]any{"minIntervalMs": 60000.0})
	gc := ctxWith(place("AAPL", trading.Buy, "1", "", ""), "10000")
	assert.Equal(t, "cooldown: ok", cd.Assess(context.Background(), gc).String())
	assert.Empty(t, cd.Check(context.Background(), gc), "Assess recorded nothing, so the first Check passes")
	assert.Empty(t, cd.Check(context.Background(), gc), "nor does Check: only an execution arms the cooldown")
	require.NoError(t, cd.(recorder).executed(gc, gc.Now))
	gc.Now = gc.Now.Add(10 * time.Second)
	assert.Equal(t, "cooldown: last order 10 s ago, limit 60 s → would be rejected", cd.Assess(context.Background(), gc).String())
}

func TestDailyLoss(t *testing.T) {
	g := build(t, "daily-loss", map[string]any{"maxLoss": "1000", "maxLossPercent": 5.0})
	steps := []struct {
		name   string
		equity string
		at     time.Duration
		op     git.Operation
		reject string
	}{
		{"first check sets the baseline", "100000", 0, place("AAPL", trading.Buy, "1", "", ""), ""},
		{"small loss allowed", "99500", time.Hour, place("AAPL", trading.Buy, "1", "", ""), ""},
		{"amount limit reached", "99000", 2 * time.Hour, place("AAPL", trading.Buy, "1", "", ""), "Daily loss 1000.00 reached the limit 1000"},
		{"closing stays allowed", "98000", 3 * time.Hour, git.Operation{Action: git.ClosePosition, Contract: &trading.Contract{Symbol: "AAPL"}}, ""},
		{"new day resets the baseline", "98000", 24 * time.Hour, place("AAPL", trading.Buy, "1", "", ""), ""},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			gc := ctxWith(s.op, s.equity)
			gc.Now = t0.Add(s.at)
			got := g.Check(context.Background(), gc)
			if s.reject == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, s.reject)
			}
		})
	}
	pct := build(t, "daily-loss", map[string]any{"maxLossPercent": "2"})
	gc := ctxWith(place("AAPL", trading.Buy, "1", "", ""), "9700")
	gc.DayStartEquity = d("10000")
	assert.Contains(t, pct.Check(context.Background(), gc), "Daily loss 3.00% reached the limit 2%", "snapshot baseline wins")
	_, err := DefaultRegistry()["daily-loss"](map[string]any{})
	assert.Error(t, err)
}

func TestPipelineShortCircuitsInOrder(t *testing.T) {
	p, _, err := NewPipeline(DefaultRegistry(), []config.Guard{
		{Type: "symbol-whitelist", Options: map[string]any{"symbols": []any{"AAPL"}}},
		{Type: "cooldown", Options: map[string]any{"minIntervalMs": 1000.0}},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, p.Len())
	ctx := context.Background()
	assert.Equal(t, "[guard:symbol-whitelist] Symbol TSLA is not in the whitelist",
		p.Check(ctx, ctxWith(place("TSLA", trading.Buy, "1", "", ""), "1000")))
	// TSLA never executed, so AAPL's first order passes; once it executed
	// its second is stopped by cooldown.
	first := ctxWith(place("AAPL", trading.Buy, "1", "", ""), "1000")
	assert.Empty(t, p.Check(ctx, first))
	require.NoError(t, p.Executed(first, first.Now))
	assert.Contains(t, p.Check(ctx, ctxWith(place("AAPL", trading.Buy, "1", "", ""), "1000")), "[guard:cooldown]")
}

// A misspelt guard protects nothing, so it is an error naming the guard,
// its index and the nearest known type — never skipped.
func TestUnknownGuardTypeIsAnError(t *testing.T) {
	_, idx, err := NewPipeline(DefaultRegistry(), []config.Guard{
		{Type: "cooldown", Options: map[string]any{"minIntervalMs": 1000.0}},
		{Type: "max-order-valu", Options: map[string]any{"maxValue": 5000}},
	}, nil)
	require.Error(t, err)
	assert.Equal(t, 1, idx)
	var ut *UnknownTypeError
	require.ErrorAs(t, err, &ut)
	assert.Contains(t, err.Error(), `unknown guard type "max-order-valu" (did you mean "max-order-value"?)`)
	_, _, err = NewPipeline(DefaultRegistry(), []config.Guard{{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquty": 5}}}, nil)
	assert.Contains(t, err.Error(), `unknown option "maxPercentOfEquty" (did you mean "maxPercentOfEquity"?)`)
}

func TestPipelineConfigErrors(t *testing.T) {
	cases := []struct {
		guards []config.Guard
		index  int
	}{
		{[]config.Guard{{Type: "cooldown"}, {Type: "max-order-value", Options: map[string]any{"maxValue": "abc"}}}, 1},
		{[]config.Guard{{Type: "max-position-size", Options: map[string]any{"maxPercent": 5.0}}}, 0},
		{[]config.Guard{{Type: "max-position-size", Options: map[string]any{"maxPercentOfEquity": -1.0}}}, 0},
	}
	for _, tc := range cases {
		_, idx, err := NewPipeline(DefaultRegistry(), tc.guards, nil)
		require.Error(t, err)
		assert.Equal(t, tc.index, idx)
	}
}

// Options out of their sane range are refused with a message naming the
// option and the range (a 500% position limit could never trigger).
func TestGuardOptionRanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typ string
		opts      map[string]any
		err       string // "" = accepted
	}{
		{"percent 500 refused", "max-position-size", map[string]any{"maxPercentOfEquity": 500}, "option maxPercentOfEquity: a percentage must be in (0, 100], got 500"},
		{"percent 100.01 refused", "max-position-size", map[string]any{"maxPercentOfEquity": "100.01"}, "in (0, 100]"},
		{"percent 100 accepted", "max-position-size", map[string]any{"maxPercentOfEquity": 100}, ""},
		{"percent 0.5 accepted", "max-position-size", map[string]any{"maxPercentOfEquity": "0.5"}, ""},
		{"percent 0 refused", "max-position-size", map[string]any{"maxPercentOfEquity": 0}, "must be > 0"},
		{"loss percent 150 refused", "daily-loss", map[string]any{"maxLossPercent": 150.0}, "option maxLossPercent: a percentage must be in (0, 100]"},
		{"loss percent 5 accepted", "daily-loss", map[string]any{"maxLossPercent": 5.0}, ""},
		{"cooldown of a year refused", "cooldown", map[string]any{"minIntervalMs": 31536000000.0}, "option minIntervalMs: must be at most 604800000 ms (7 days)"},
		{"cooldown of a day accepted", "cooldown", map[string]any{"minIntervalMs": 86400000.0}, ""},
		// a limit no order can reach protects nothing, like a misspelt guard
		{"max value 1e400 (a string) refused", "max-order-value", map[string]any{"maxValue": "1e400"}, "option maxValue: \"1e400\": write the number out in plain decimal notation"},
		{"max value 1e300 (a number) refused", "max-order-value", map[string]any{"maxValue": 1e300}, "option maxValue: must be at most 1000000000000 USD"},
		{"max value of 40 digits refused", "max-order-value", map[string]any{"maxValue": strings.Repeat("9", 40)}, "too long"},
		{"max value with 20 decimals refused", "max-order-value", map[string]any{"maxValue": "5000.00000000000000000001"}, "decimal places"},
		{"max value 1e-30 refused", "max-order-value", map[string]any{"maxValue": "1e-30"}, "plain decimal notation"},
		{"max value 5000.50 accepted", "max-order-value", map[string]any{"maxValue": "5000.50"}, ""},
		{"max loss 2e12 refused", "daily-loss", map[string]any{"maxLoss": 2e12}, "option maxLoss: must be at most 1000000000000 USD"},
		{"max loss NaN refused", "daily-loss", map[string]any{"maxLoss": "NaN"}, "not a decimal number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewPipeline(DefaultRegistry(), []config.Guard{{Type: tc.typ, Options: tc.opts}}, nil)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}
