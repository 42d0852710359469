package sim

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/simmarket"
)

func newMarginBroker(t *testing.T, cash, leverage string) *Broker {
	t.Helper()
	o := Options{AccountID: "sim", Market: simmarket.New(42), Cash: d(cash),
		Now: (&clock{t: time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)}).Now}
	if leverage != "" {
		o.Leverage = d(leverage)
	}
	b, err := New(o)
	require.NoError(t, err)
	return b
}

// A cash account's positions carry no risk block (never an implied 1×) and
// its buying power is its cash.
func TestCashAccountHasNoRiskBlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, lev := range []string{"", "1"} {
		b := newMarginBroker(t, "10000", lev)
		require.NoError(t, b.SetMarkPrice("AAPL", d("100")))
		_, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "10"), nil)
		require.NoError(t, err)
		pos, err := b.Positions(ctx)
		require.NoError(t, err)
		require.Len(t, pos, 1)
		assert.Nil(t, pos[0].Risk, "leverage %q", lev)
		acct, err := b.Account(ctx)
		require.NoError(t, err)
		assert.True(t, acct.BuyingPower.Equal(acct.TotalCashValue))
		_, err = b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, "100"), nil)
		require.ErrorContains(t, err, "insufficient cash")
	}
}

// The cross-margin model (table): what a buy may add, the cash it borrows,
// buying power, and each position's leverage, margin mode and liquidation
// price — the mark at which equity falls to the maintenance margin
// (1/(2×leverage) of gross). Spreads are removed by pinning the mark and
// reading fills at the ask, so figures are computed from the fill.
func TestMarginModelRiskFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name, cash, lev, qty string
		rejected             bool
	}{
		{"2x, half borrowed", "10000", "2", "190", false},
		{"4x, three quarters borrowed", "10000", "4", "390", false},
		{"4x, fully paid (no liquidation price)", "10000", "4", "50", false},
		{"2x, more than the margin allows", "10000", "2", "210", true},
		{"10x at the limit", "1000", "10", "99", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newMarginBroker(t, c.cash, c.lev)
			require.NoError(t, b.SetMarkPrice("AAPL", d("100")))
			res, err := b.PlaceOrder(ctx, aapl(), order(trading.Buy, trading.Market, c.qty), nil)
			if c.rejected {
				require.ErrorContains(t, err, "insufficient margin")
				require.ErrorContains(t, err, "buying power")
				pos, _ := b.Positions(ctx)
				require.Empty(t, pos, "nothing executed")
				return
			}
			require.NoError(t, err)
			require.Equal(t, trading.StatusFilled, res.Status)
			pos, err := b.Positions(ctx)
			require.NoError(t, err)
			require.Len(t, pos, 1)
			p := pos[0]
			require.NotNil(t, p.Risk)
			lev := d(c.lev)
			assert.True(t, p.Risk.Leverage.Equal(lev), p.Risk.Leverage.String())
			assert.Equal(t, trading.Cross, p.Risk.MarginMode)

			acct, err := b.Account(ctx)
			require.NoError(t, err)
			cash := d(c.cash).Sub(res.FilledPrice.Mul(d(c.qty)))
			require.True(t, acct.TotalCashValue.Equal(cash), "cash %s, want %s", acct.TotalCashValue, cash)
			equity := cash.Add(p.MarketValue)
			assert.True(t, acct.BuyingPower.Equal(equity.Mul(lev).Sub(p.MarketValue)), "buying power %s", acct.BuyingPower)

			if !cash.IsNegative() {
				assert.True(t, p.Risk.LiquidationPrice.IsZero(), "a fully paid position cannot be liquidated: %s", p.Risk.LiquidationPrice)
				return
			}
			// At the liquidation price equity equals the maintenance margin.
			liq := p.Risk.LiquidationPrice
			require.True(t, liq.IsPositive() && liq.LessThan(p.MarketPrice), "liquidation %s below the mark %s", liq, p.MarketPrice)
			mm := d("1").Div(lev.Mul(d("2")))
			eqAt := cash.Add(p.Quantity.Mul(liq))
			mmAt := mm.Mul(p.Quantity.Mul(liq))
			assert.True(t, eqAt.Sub(mmAt).Abs().LessThan(d("0.01")), "at %s equity %s vs maintenance %s", liq, eqAt, mmAt)
			// The broker reports it, and it moves with the mark only through equity.
			require.NoError(t, b.SetMarkPrice("AAPL", liq.Add(d("1"))))
			pos, err = b.Positions(ctx)
			require.NoError(t, err)
			assert.True(t, pos[0].Risk.LiquidationPrice.Sub(liq).Abs().LessThan(d("0.0002")), "same liquidation price at another mark: %s vs %s",
				pos[0].Risk.LiquidationPrice, liq)
		})
	}
}

func TestParseConfigLeverage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ raw, key, want string }{
		{`{"leverage":2}`, "", "2"},
		{`{"leverage":"2.5"}`, "", "2.5"},
		{`{"leverage":1}`, "", "1"},
		{`{}`, "", "0"},
		{`{"leverage":0.5}`, "leverage", ""},
		{`{"leverage":101}`, "leverage", ""},
		{`{"leverage":"lots"}`, "leverage", ""},
	} {
		cfg, key, err := ParseConfig([]byte(c.raw))
		if c.key != "" {
			require.Error(t, err, c.raw)
			assert.Equal(t, c.key, key, c.raw)
			continue
		}
		require.NoError(t, err, c.raw)
		assert.True(t, cfg.Leverage.Equal(d(c.want)), c.raw)
	}
}
