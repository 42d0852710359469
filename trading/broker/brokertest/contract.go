package brokertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// Fault is a failure the venue behind a broker can be told to produce.
type Fault int

const (
	FaultNone      Fault = iota
	FaultAuth            // credentials refused
	FaultNetwork         // connection refused / 5xx
	FaultRateLimit       // throttled
)

// Harness is one broker under test and the controls of its venue.
type Harness struct {
	Broker broker.Broker
	// Contract is tradable at the venue; Qty an order size it accepts.
	Contract trading.Contract
	Qty      decimal.Decimal
	// Mid reads and SetMid moves the market price; resting orders match.
	Mid    func() decimal.Decimal
	SetMid func(decimal.Decimal)
	// FillPartially executes qty of a resting order at the venue.
	FillPartially func(orderID string, qty decimal.Decimal)
	// SetFault makes every following request fail that way (FaultNone
	// heals); nil for brokers without a wire (the simulator).
	SetFault func(Fault)
	// AlwaysOpen marks 24/7 venues (crypto).
	AlwaysOpen bool
	// Inexpressible names faults the broker's wire protocol has no way to
	// report, each with the reason; the fault behaviour skips them.
	Inexpressible map[Fault]string
}

// Run runs every behaviour against a fresh harness from newHarness.
func Run(t *testing.T, newHarness func(t *testing.T) *Harness) {
	for _, b := range behaviours {
		t.Run(b.name, func(t *testing.T) {
			h := newHarness(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			require.NoError(t, h.Broker.Init(ctx))
			t.Cleanup(func() { _ = h.Broker.Close() })
			b.run(ctx, t, h)
		})
	}
}

type behaviour struct {
	name string
	run  func(ctx context.Context, t *testing.T, h *Harness)
}

// frac returns mid × f rounded to cents.
func frac(h *Harness, f string) decimal.Decimal {
	return h.Mid().Mul(decimal.RequireFromString(f)).Round(2)
}

// settle polls the order until pred holds (venues may fill asynchronously).
func settle(ctx context.Context, t *testing.T, h *Harness, id string, what string, pred func(trading.OpenOrder) bool) trading.OpenOrder {
	t.Helper()
	var last *trading.OpenOrder
	for i := 0; i < 50; i++ {
		o, err := h.Broker.Order(ctx, id)
		require.NoError(t, err)
		require.NotNil(t, o)
		if pred(*o) {
			return *o
		}
		last = o
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("order %s never became %s; last %+v", id, what, last)
	return trading.OpenOrder{}
}

func position(ctx context.Context, t *testing.T, h *Harness) decimal.Decimal {
	t.Helper()
	ps, err := h.Broker.Positions(ctx)
	require.NoError(t, err)
	for _, p := range ps {
		if strings.EqualFold(p.Contract.Symbol, h.Contract.Symbol) {
			if p.Side == trading.Short {
				return p.Quantity.Abs().Neg()
			}
			return p.Quantity
		}
	}
	return decimal.Zero
}

func place(ctx context.Context, t *testing.T, h *Harness, o trading.Order) trading.OrderResult {
	t.Helper()
	if o.TIF == "" {
		o.TIF = trading.GTC
	}
	if o.TotalQuantity.IsZero() {
		o.TotalQuantity = h.Qty
	}
	res, err := h.Broker.PlaceOrder(ctx, h.Contract, o, nil)
	require.NoError(t, err)
	require.NotEmpty(t, res.OrderID)
	return res
}

var behaviours = []behaviour{
	{"account has equity and cash", func(ctx context.Context, t *testing.T, h *Harness) {
		a, err := h.Broker.Account(ctx)
		require.NoError(t, err)
		require.True(t, a.NetLiquidation.IsPositive(), "equity %s", a.NetLiquidation)
		require.False(t, a.TotalCashValue.IsNegative(), "cash %s", a.TotalCashValue)
		require.NotEmpty(t, a.BaseCurrency)
	}},
	{"quote has bid at or below ask", func(ctx context.Context, t *testing.T, h *Harness) {
		q, err := h.Broker.Quote(ctx, h.Contract)
		require.NoError(t, err)
		require.True(t, q.Bid.IsPositive() && q.Ask.IsPositive(), "%+v", q)
		require.True(t, q.Bid.LessThanOrEqual(q.Ask), "bid %s ask %s", q.Bid, q.Ask)
		require.True(t, q.Last.IsPositive())
	}},
	{"clock answers", func(ctx context.Context, t *testing.T, h *Harness) {
		c, err := h.Broker.MarketClock(ctx)
		require.NoError(t, err)
		require.False(t, c.Timestamp.IsZero())
		if h.AlwaysOpen {
			require.True(t, c.IsOpen, "24/7 venue reports open")
		}
	}},
	{"contract search and details", func(ctx context.Context, t *testing.T, h *Harness) {
		cs, err := h.Broker.SearchContracts(ctx, h.Contract.Symbol, "")
		require.NoError(t, err)
		found := false
		for _, c := range cs {
			found = found || strings.EqualFold(c.Symbol, h.Contract.Symbol)
		}
		require.True(t, found, "search %q finds it: %+v", h.Contract.Symbol, cs)
		d, err := h.Broker.ContractDetails(ctx, h.Contract)
		require.NoError(t, err)
		require.True(t, d.Tradable)
		key := h.Broker.NativeKey(h.Contract)
		back, err := h.Broker.ResolveNativeKey(ctx, key)
		require.NoError(t, err)
		require.True(t, strings.EqualFold(back.Symbol, h.Contract.Symbol))
	}},
	{"market buy fills at the touch and opens a position", func(ctx context.Context, t *testing.T, h *Harness) {
		q, err := h.Broker.Quote(ctx, h.Contract)
		require.NoError(t, err)
		before := position(ctx, t, h)
		res := place(ctx, t, h, trading.Order{Action: trading.Buy, OrderType: trading.Market})
		o := settle(ctx, t, h, res.OrderID, "filled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusFilled })
		require.True(t, o.FilledQty.Equal(h.Qty), "filled %s", o.FilledQty)
		tol := q.Ask.Mul(decimal.RequireFromString("0.01"))
		require.True(t, o.AvgFillPrice.GreaterThanOrEqual(q.Bid.Sub(tol)) && o.AvgFillPrice.LessThanOrEqual(q.Ask.Add(tol)),
			"fill %s within bid %s / ask %s", o.AvgFillPrice, q.Bid, q.Ask)
		require.True(t, position(ctx, t, h).Sub(before).Equal(h.Qty), "position grew by the order")
	}},
	{"limit order rests, is modified and cancelled", func(ctx context.Context, t *testing.T, h *Harness) {
		res := place(ctx, t, h, trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: frac(h, "0.9")})
		o := settle(ctx, t, h, res.OrderID, "working", func(o trading.OpenOrder) bool { return o.Status.Pending() })
		require.True(t, o.FilledQty.IsZero())
		open, err := h.Broker.Orders(ctx, nil)
		require.NoError(t, err)
		listed := false
		for _, oo := range open {
			listed = listed || oo.Order.OrderID == res.OrderID
		}
		require.True(t, listed, "resting order listed")

		newPx := frac(h, "0.8")
		mod, err := h.Broker.ModifyOrder(ctx, res.OrderID, trading.OrderChanges{LmtPrice: newPx})
		require.NoError(t, err)
		id := mod.OrderID // a venue may replace the order under a new id
		o = settle(ctx, t, h, id, "repriced", func(o trading.OpenOrder) bool { return o.Order.LmtPrice.Equal(newPx) })
		require.True(t, o.Status.Pending())

		_, err = h.Broker.CancelOrder(ctx, id)
		require.NoError(t, err)
		settle(ctx, t, h, id, "cancelled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusCancelled })
		require.True(t, position(ctx, t, h).IsZero())
	}},
	{"limit order fills when the market crosses it", func(ctx context.Context, t *testing.T, h *Harness) {
		res := place(ctx, t, h, trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: frac(h, "0.95")})
		settle(ctx, t, h, res.OrderID, "working", func(o trading.OpenOrder) bool { return o.Status.Pending() })
		h.SetMid(frac(h, "0.9"))
		o := settle(ctx, t, h, res.OrderID, "filled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusFilled })
		require.True(t, o.FilledQty.Equal(h.Qty))
		require.True(t, position(ctx, t, h).Equal(h.Qty))
	}},
	{"stop order triggers on the way down", func(ctx context.Context, t *testing.T, h *Harness) {
		buy := place(ctx, t, h, trading.Order{Action: trading.Buy, OrderType: trading.Market})
		settle(ctx, t, h, buy.OrderID, "filled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusFilled })
		stop := place(ctx, t, h, trading.Order{Action: trading.Sell, OrderType: trading.Stop, AuxPrice: frac(h, "0.95")})
		settle(ctx, t, h, stop.OrderID, "working", func(o trading.OpenOrder) bool { return o.Status.Pending() })
		h.SetMid(frac(h, "0.9"))
		settle(ctx, t, h, stop.OrderID, "filled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusFilled })
		require.True(t, position(ctx, t, h).IsZero(), "stop closed the position")
	}},
	{"partial fill keeps the order working, cancel keeps the fill", func(ctx context.Context, t *testing.T, h *Harness) {
		res := place(ctx, t, h, trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: frac(h, "0.9")})
		settle(ctx, t, h, res.OrderID, "working", func(o trading.OpenOrder) bool { return o.Status.Pending() })
		half := h.Qty.Div(decimal.NewFromInt(2))
		h.FillPartially(res.OrderID, half)
		o := settle(ctx, t, h, res.OrderID, "partly filled", func(o trading.OpenOrder) bool { return o.FilledQty.Equal(half) })
		require.True(t, o.Status.Pending(), "still working after a partial fill: %s", o.Status)
		_, err := h.Broker.CancelOrder(ctx, res.OrderID)
		require.NoError(t, err)
		o = settle(ctx, t, h, res.OrderID, "cancelled", func(o trading.OpenOrder) bool { return o.Status == trading.StatusCancelled })
		require.True(t, o.FilledQty.Equal(half))
		require.True(t, position(ctx, t, h).Equal(half))
	}},
	{"a repeated client order id never makes a second order", func(ctx context.Context, t *testing.T, h *Harness) {
		o := trading.Order{Action: trading.Buy, OrderType: trading.Limit, LmtPrice: frac(h, "0.9"), TotalQuantity: h.Qty, TIF: trading.GTC, ClientOrderID: "alice-contract-1"}
		first, err := h.Broker.PlaceOrder(ctx, h.Contract, o, nil)
		require.NoError(t, err)
		second, err := h.Broker.PlaceOrder(ctx, h.Contract, o, nil)
		if err == nil {
			require.Equal(t, first.OrderID, second.OrderID, "a repeat returns the original order")
		} else {
			require.Equal(t, broker.CodeExchange, broker.CodeOf(err), "a repeat is refused as an exchange error: %v", err)
		}
		all, err := h.Broker.Orders(ctx, nil)
		require.NoError(t, err)
		n := 0
		for _, oo := range all {
			if oo.Status.Pending() {
				n++
			}
		}
		require.Equal(t, 1, n, "exactly one working order")
	}},
	{"unknown order is NOT_FOUND", func(ctx context.Context, t *testing.T, h *Harness) {
		_, err := h.Broker.Order(ctx, "no-such-order")
		require.Error(t, err)
		require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)
		_, err = h.Broker.CancelOrder(ctx, "no-such-order")
		require.Error(t, err)
		require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)
	}},
	{"an order beyond the account's means is refused", func(ctx context.Context, t *testing.T, h *Harness) {
		huge := h.Qty.Mul(decimal.NewFromInt(1_000_000_000))
		_, err := h.Broker.PlaceOrder(ctx, h.Contract, trading.Order{Action: trading.Buy, OrderType: trading.Market, TotalQuantity: huge, TIF: trading.GTC}, nil)
		require.Error(t, err)
		require.Equal(t, broker.CodeExchange, broker.CodeOf(err), "%v", err)
		require.False(t, broker.CodeOf(err).Transient())
	}},
	{"venue failures map to typed errors", func(ctx context.Context, t *testing.T, h *Harness) {
		if h.SetFault == nil {
			t.Skip("no wire: the simulator cannot fail this way")
		}
		for _, c := range []struct {
			f         Fault
			code      broker.Code
			transient bool
		}{{FaultAuth, broker.CodeAuth, false}, {FaultNetwork, broker.CodeNetwork, true}, {FaultRateLimit, broker.CodeNetwork, true}} {
			if why, ok := h.Inexpressible[c.f]; ok {
				t.Logf("fault %d not expressible on this wire: %s", c.f, why)
				continue
			}
			h.SetFault(c.f)
			_, err := h.Broker.Account(ctx)
			require.Error(t, err, fmt.Sprint(c.f))
			require.Equal(t, c.code, broker.CodeOf(err), "%v", err)
			require.Equal(t, c.transient, broker.CodeOf(err).Transient())
		}
		h.SetFault(FaultNone)
		_, err := h.Broker.Account(ctx)
		require.NoError(t, err)
	}},
}
