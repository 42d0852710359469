package tui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// openAAPL searches "apple" in the Market pane and picks the hit.
func openAAPL(h *harness) {
	h.alt('5')
	h.key("/")
	h.typeText("apple")
	h.key("enter", "enter")
}

func TestPageBindingsHaveHelpText(t *testing.T) {
	for _, group := range []any{defaultMarketKeys(), defaultActivityKeys(), defaultMCPKeys()} {
		v := reflect.ValueOf(group)
		for i := 0; i < v.NumField(); i++ {
			b := v.Field(i).Interface().(key.Binding)
			name := v.Type().Name() + "." + v.Type().Field(i).Name
			require.NotEmpty(t, b.Keys(), name)
			require.NotEmpty(t, b.Help().Key, name)
			require.NotEmpty(t, b.Help().Desc, name)
		}
	}
}

func TestMarketSearchQuoteChartIndicatorAndAsk(t *testing.T) {
	h, _ := newPagesHarness(t, 120, 36)
	openAAPL(h)
	p := h.m.market
	require.Equal(t, h.m.paneIndex(h.m.market), h.m.focus)
	require.Equal(t, "AAPL", p.symbol)
	s := h.screen()
	require.Contains(t, s, "AAPL Apple Inc. · equity")
	require.Contains(t, s, "187.25 +1.75 (+0.94%)")
	require.Contains(t, s, "vol 48.2M")
	require.Contains(t, s, "AAPL beats estimates", "news for the symbol")
	require.Contains(t, s, "┃", "candles are drawn")

	// The formula prompt is prefilled with the shown symbol and interval.
	h.key("i")
	require.Equal(t, "SMA(CLOSE('AAPL','1d'),20)", p.input.Value())
	h.key("enter")
	require.Len(t, p.overlays, 1)
	require.Empty(t, p.overlays[0].err)
	require.Len(t, p.overlays[0].values, overlayBars, "evaluated as of each recent candle")
	require.Contains(t, h.screen(), "• SMA(CLOSE('AAPL','1d'),20)")
	require.Contains(t, h.screen(), "•", "overlay dots drawn")

	// A bad formula is shown as an error and keeps the good overlay.
	h.key("i")
	p.input.SetValue("RSI(")
	h.key("enter")
	require.Len(t, p.overlays, 2)
	require.Contains(t, p.overlays[1].err, "formula error")
	require.Contains(t, h.toast(), "formula error")
	h.key("D")
	require.Len(t, p.overlays, 1)

	// Interval and zoom.
	h.key("t")
	require.Equal(t, "1m", marketIntervals[p.interval])
	require.NotEmpty(t, p.candles, "bars reloaded for the new interval")
	h.key("+", "+", "+", "+")
	require.Equal(t, 4, p.zoom)
	h.key("-", "-", "-", "-", "-")
	require.Equal(t, 1, p.zoom)

	// Ask Alice prefills the chat input and focuses the chat.
	h.key("a")
	require.Equal(t, focusChat, h.m.focus)
	v := h.m.chat.input.Value()
	require.Contains(t, v, "What do you think about AAPL (last 187.25, +0.94% today)")
	require.Contains(t, v, "SMA(CLOSE('AAPL','1d'),20)")
	require.Empty(t, h.f.sent, "prefilled, not sent")
}

func TestMarketNeedsASymbolBeforeActions(t *testing.T) {
	h, _ := newPagesHarness(t, 100, 30)
	h.alt('5')
	for _, k := range []string{"i", "a", "o", "s"} {
		h.key(k)
		require.Contains(t, h.toast(), "pick a symbol first", k)
		require.Equal(t, mkBrowse, h.m.market.mode)
	}
	h.key("/")
	h.typeText("zzz")
	h.key("enter")
	require.Contains(t, h.toast(), `no symbol matches "zzz"`)
}

func TestMarketStageOrderNeedsConfirmAndWaitsInPortfolio(t *testing.T) {
	h, f := newPagesHarness(t, 120, 36)
	f.mu.Lock()
	f.pending = nil
	f.mu.Unlock()
	h.run(h.m.portfolio.load())
	openAAPL(h)
	h.key("o")
	require.Equal(t, mkOrder, h.m.market.mode)
	require.True(t, h.m.market.Capturing(), "global letter keys are off while typing")
	require.Contains(t, h.screen(), "Stage an order")

	// Invalid quantity is refused with a clear error and nothing staged.
	h.key("enter")
	require.Contains(t, h.screen(), "quantity must be a number > 0")
	// Switch to a limit order: up to Type, change it, then quantity and limit.
	h.key("up", "right", "down")
	h.typeText("1x0")
	require.Equal(t, "10", h.m.market.form.qty, "only digits are accepted")
	h.key("enter")
	h.typeText("185.5")
	h.key("enter")
	require.NotNil(t, h.m.dialog)
	require.Contains(t, h.screen(), "BUY 10 AAPL LMT @185.50 on sim-paper")
	h.key("y") // too soon: a stray key
	require.Empty(t, f.tickets)
	h.now = h.now.Add(time.Second)
	h.key("y")
	require.Len(t, f.tickets, 1)
	tk := f.tickets[0]
	require.Equal(t, OrderTicket{Account: "sim-paper", Symbol: "AAPL", Action: "BUY", Type: "LMT",
		Quantity: decimal.NewFromInt(10), Limit: decimal.RequireFromString("185.5")}.describe(), tk.describe())
	require.Contains(t, h.toast(), "waiting for approval")
	require.Empty(t, f.approved, "staging never pushes")

	h.key("alt+3")
	s := h.screen()
	require.Contains(t, s, "Pending approval: sim-paper 9f8e7d6c")
	require.Contains(t, s, "placeOrder BUY 10 AAPL (LMT)")
}

func TestSimCommandParsing(t *testing.T) {
	cases := []struct {
		in, kind, change, amount, err string
	}{
		{in: "@150", kind: "price", change: "@150"},
		{in: " +5% ", kind: "price", change: "+5%"},
		{in: "-3.5%", kind: "price", change: "-3.5%"},
		{in: "deposit 1000", kind: "cash", amount: "1000"},
		{in: "WITHDRAW 250.5", kind: "cash", amount: "-250.5"},
		{in: "fill", kind: "fill"},
		{in: "advance 90m", kind: "advance"},
		{in: "advance 2d", kind: "advance"},
		{in: "advance soon", err: "advance needs a duration"},
		{in: "advance -1h", err: "advance needs a duration"},
		{in: "@0", err: "price must be"},
		{in: "@abc", err: "price must be"},
		{in: "-100%", err: "cannot fall"},
		{in: "+x%", err: "move must look like"},
		{in: "deposit -5", err: "needs an amount > 0"},
		{in: "teleport", err: "unknown simulator command"},
		{in: "", err: "empty"},
	}
	for _, c := range cases {
		got, err := parseSimCommand(c.in)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.kind, got.kind, c.in)
		require.Equal(t, c.change, got.change, c.in)
		if c.amount != "" {
			require.Equal(t, c.amount, got.amount.String(), c.in)
		}
	}
}

func TestMarketSimulatorControls(t *testing.T) {
	h, f := newPagesHarness(t, 120, 36)
	openAAPL(h)
	for _, cmd := range []string{"@150", "-5%", "deposit 1000", "withdraw 2000000", "advance 2h", "fill"} {
		h.key("s")
		require.Equal(t, mkSim, h.m.market.mode)
		h.typeText(cmd)
		h.key("enter")
	}
	require.Equal(t, []string{"price sim-paper AAPL @150", "price sim-paper AAPL -5%", "cash sim-paper 1000", "advance sim-paper 2h0m0s", "fill sim-paper AAPL"}, f.sims)
	require.Contains(t, h.toast(), "filled 1 resting order")
	// The position line shows the account's mark, which a simulator may pin.
	f.mu.Lock()
	f.positions = append(f.positions, Position{Symbol: "AAPL", Side: "long", Quantity: decimal.NewFromInt(5), AvgCost: decimal.RequireFromString("199.82"),
		MarketPrice: decimal.RequireFromString("219.79"), MarketValue: decimal.RequireFromString("1098.95"), UnrealizedPnL: decimal.RequireFromString("99.85")})
	f.mu.Unlock()
	h.key("r")
	require.Contains(t, h.screen(), "long 5 @ 199.82  mark 219.79  value 1098.95  P&L +99.85")
	h.key("s")
	h.typeText("bogus")
	h.key("enter")
	require.Contains(t, h.toast(), "unknown simulator command")
}

func TestCandleChartDrawsBodiesWicksAndOverlay(t *testing.T) {
	c := candleChart{w: 4 + axisWidth, h: 4, cw: 1, candles: []Candle{
		{Open: 10, Close: 14, High: 16, Low: 8},  // up
		{Open: 14, Close: 10, High: 14, Low: 10}, // down, no wicks
	}, overlays: [][]float64{{12}}}
	g, lo, hi := c.grid()
	require.Equal(t, 8.0, lo)
	require.Equal(t, 16.0, hi)
	col := func(x int) string {
		var b strings.Builder
		for r := range g {
			b.WriteRune(g[r][x].r)
		}
		return b.String()
	}
	require.Equal(t, "│┃┃│", col(0), "wick top, body, wick bottom")
	require.Equal(t, cellUp, g[1][0].kind)
	require.Equal(t, " ┃• ", col(1), "overlay value 12 drawn on the last candle")
	require.Equal(t, cellOverlay0, g[2][1].kind)
	require.Equal(t, cellDown, g[1][1].kind)
	// An overlay on another scale is left out instead of flattening candles.
	c.overlays = [][]float64{{1000, 1001}}
	g, lo, hi = c.grid()
	require.Equal(t, 8.0, lo)
	require.Equal(t, 16.0, hi)
	require.NotContains(t, col(0)+col(1), "•")
	out := ansi.Strip(c.render(NewStyles(true)))
	require.Contains(t, out, "16.000")
	require.Contains(t, out, "8.000")
}

func TestGoldenPageViews(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, name := range []string{"market", "activity", "mcp"} {
			name := fmt.Sprintf("%s_%dx%d", name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				h, _ := newPagesHarness(t, size[0], size[1])
				p := map[string]pane{"market": h.m.market, "activity": h.m.activity, "mcp": h.m.mcpPage}[strings.Split(name, "_")[0]]
				if p == h.m.market {
					openAAPL(h)
					h.key("i", "enter")
				}
				h.m.setFocus(h.m.paneIndex(p))
				golden.RequireEqual(t, []byte(h.screen()))
			})
		}
	}
	t.Run("market_order_80x24", func(t *testing.T) {
		h, _ := newPagesHarness(t, 80, 24)
		openAAPL(h)
		h.key("o")
		h.typeText("10")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("activity_detail_160x45", func(t *testing.T) {
		h, _ := newPagesHarness(t, 160, 45)
		h.alt('6')
		h.key("down", "down", "enter")
		golden.RequireEqual(t, []byte(h.screen()))
	})
}

func TestMarketTickRefreshesQuotesAtMostEvery30s(t *testing.T) {
	h, f := newPagesHarness(t, 100, 30)
	openAAPL(h)
	count := func() int { f.pmu.Lock(); defer f.pmu.Unlock(); return f.candles }
	base := count()
	h.send(tickMsg(h.now))
	require.Equal(t, base+1, count(), "the first tick reloads the symbol")
	h.now = h.now.Add(5 * time.Second)
	h.send(tickMsg(h.now))
	require.Equal(t, base+1, count(), "5 s later only positions reload")
	h.now = h.now.Add(30 * time.Second)
	h.send(tickMsg(h.now))
	require.Equal(t, base+2, count())
}
