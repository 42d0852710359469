package market_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/activity"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/market"
	"github.com/alice-trading/alice/tui/mcppage"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"
)

// openAAPL searches "apple" in the Market pane and picks the hit.
func openAAPL(h *tuitest.Harness) {
	h.Alt('5')
	h.Key("/")
	h.TypeText("apple")
	h.Key("enter", "enter")
}

func TestPageBindingsHaveHelpText(t *testing.T) {
	t.Parallel()
	for _, group := range []any{market.DefaultMarketKeys(), activity.DefaultActivityKeys(), mcppage.DefaultMCPKeys()} {
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
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 120, 36)
	openAAPL(h)
	p := h.M.Market
	require.Equal(t, h.M.PaneIndex(h.M.Market), h.M.Focus)
	require.Equal(t, "AAPL", p.Symbol)
	s := h.Screen()
	require.Contains(t, s, "AAPL Apple Inc. · equity")
	require.Contains(t, s, "187.25 +1.75 (+0.94%)")
	require.Contains(t, s, "vol 48.2M")
	require.Contains(t, s, "AAPL beats estimates", "news for the symbol")
	require.Contains(t, s, "┃", "candles are drawn")

	// The formula prompt shows an example for the shown symbol and
	// interval as its placeholder: not part of the value, so typing
	// replaces it, and enter on the empty line adds it.
	h.Key("i")
	require.Empty(t, p.Input.Value())
	require.Contains(t, h.Screen(), "Indicator › SMA(CLOSE('AAPL','1d'),20)")
	h.TypeText("X")
	require.Equal(t, "X", p.Input.Value(), "typing replaces the example")
	require.NotContains(t, h.Screen(), "Indicator › XSMA")
	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	require.Contains(t, h.Screen(), "Indicator › SMA(CLOSE('AAPL','1d'),20)", "shown again once empty")
	h.Key("enter")
	require.Len(t, p.Overlays, 1)
	require.Empty(t, p.Overlays[0].Err)
	require.Len(t, p.Overlays[0].Values, market.OverlayBars, "evaluated as of each recent candle")
	require.Contains(t, h.Screen(), "• SMA(CLOSE('AAPL','1d'),20)")
	require.Contains(t, h.Screen(), "•", "overlay dots drawn")

	// A bad formula is shown as an error and keeps the good overlay.
	h.Key("i")
	p.Input.SetValue("RSI(")
	h.Key("enter")
	require.Len(t, p.Overlays, 2)
	require.Contains(t, p.Overlays[1].Err, "formula error")
	require.Contains(t, h.Toast(), "formula error")
	h.Key("D")
	require.Len(t, p.Overlays, 1)

	// Interval and zoom.
	h.Key("t")
	require.Equal(t, "1m", market.MarketIntervals[p.Interval])
	require.NotEmpty(t, p.Candles, "bars reloaded for the new interval")
	h.Key("+", "+", "+", "+")
	require.Equal(t, 4, p.Zoom)
	h.Key("-", "-", "-", "-", "-")
	require.Equal(t, 1, p.Zoom)

	// Ask Alice prefills the chat input and focuses the chat.
	h.Key("a")
	require.Equal(t, tui.FocusChat, h.M.Focus)
	v := h.M.Chat.Input.Value()
	require.Contains(t, v, "What do you think about AAPL (last 187.25, +0.94% today)")
	require.Contains(t, v, "SMA(CLOSE('AAPL','1d'),20)")
	require.Empty(t, h.F.Sent, "prefilled, not sent")
}

// Typing a ticker into the pane without a symbol starts a search with it
// (the single-letter actions need a symbol, so nothing is lost).
func TestMarketTypingATickerStartsASearch(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 100, 30)
	h.Alt('5')
	h.TypeText("aapl")
	require.NotEqual(t, market.MkBrowse, h.M.Market.Mode)
	require.Equal(t, "AAPL", strings.ToUpper(h.M.Market.Input.Value()))
	h.Key("enter")
	s := h.Screen()
	require.Contains(t, s, "Results (1)")
	require.Contains(t, s, "Apple Inc.", "the results are drawn")
	h.Key("enter")
	require.Equal(t, "AAPL", h.M.Market.Symbol)
	h.Key("esc")
	require.Empty(t, h.M.Market.Symbol, "esc goes back to the start list")
	h.Key("/")
	h.TypeText("zzz")
	h.Key("enter")
	require.Contains(t, h.Toast(), `no symbol matches "zzz"`)
}

func TestMarketStageOrderNeedsConfirmAndWaitsInPortfolio(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 36)
	f.Mu.Lock()
	f.PendingCommits = nil
	f.Mu.Unlock()
	h.Run(h.M.Portfolio.Load())
	openAAPL(h)
	h.Key("o")
	require.Equal(t, market.MkOrder, h.M.Market.Mode)
	require.True(t, h.M.Market.Capturing(), "global letter keys are off while typing")
	require.Contains(t, h.Screen(), "Stage an order")

	// Invalid quantity is refused with a clear error and nothing staged.
	h.Key("enter")
	require.Contains(t, h.Screen(), `quantity must be a positive decimal number, got ""`)
	// Switch to a limit order: up to Type, change it, then quantity and limit.
	h.Key("up", "right", "down")
	h.TypeText("1x0")
	require.Equal(t, "1x0", h.M.Market.Form.Qty, "what is typed is what the field holds")
	require.Contains(t, h.Screen(), `quantity must be a positive decimal number, got "1x0"`, "the shown refusal follows the edit")
	h.Key("backspace", "backspace")
	h.TypeText("0")
	require.Equal(t, "10", h.M.Market.Form.Qty)
	require.NotContains(t, h.Screen(), "quantity must be", "a fixed quantity clears its refusal")
	h.Key("enter")
	h.TypeText("185.5")
	h.Key("enter")
	require.NotNil(t, h.M.Dialog)
	require.Contains(t, h.Screen(), "BUY 10 AAPL LMT @185.50 on sim-paper")
	h.Key("y") // too soon: a stray key
	require.Empty(t, f.Tickets)
	h.Now = h.Now.Add(time.Second)
	h.Key("y")
	require.Len(t, f.Tickets, 1)
	tk := f.Tickets[0]
	require.Equal(t, market.OrderTicket{Account: "sim-paper", Symbol: "AAPL", Action: "BUY", Type: "LMT",
		Quantity: decimal.NewFromInt(10), Limit: decimal.RequireFromString("185.5")}.Describe(), tk.Describe())
	require.Contains(t, h.Toast(), "waiting for approval")
	require.Empty(t, f.Approved, "staging never pushes")

	h.Key("alt+3")
	s := h.Screen()
	require.Contains(t, s, "Pending approval: sim-paper 9f8e7d6c")
	require.Contains(t, s, "placeOrder BUY 10 AAPL (LMT)")
}

func TestSimCommandParsing(t *testing.T) {
	t.Parallel()
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
		got, err := market.ParseSimCommand(c.in)
		if c.err != "" {
			require.ErrorContains(t, err, c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.kind, got.Kind, c.in)
		require.Equal(t, c.change, got.Change, c.in)
		if c.amount != "" {
			require.Equal(t, c.amount, got.Amount.String(), c.in)
		}
	}
}

func TestMarketSimulatorControls(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 36)
	openAAPL(h)
	for _, cmd := range []string{"@150", "-5%", "deposit 1000", "withdraw 2000000", "advance 2h", "fill"} {
		h.Key("s")
		require.Equal(t, market.MkSim, h.M.Market.Mode)
		h.TypeText(cmd)
		h.Key("enter")
	}
	require.Equal(t, []string{"price sim-paper AAPL @150", "price sim-paper AAPL -5%", "cash sim-paper 1000", "advance sim-paper 2h0m0s", "fill sim-paper AAPL"}, f.Sims)
	require.Contains(t, h.Toast(), "filled 1 resting order")
	// The position line shows the account's mark, which a simulator may pin.
	f.Mu.Lock()
	f.PositionList = append(f.PositionList, portfolio.Position{Symbol: "AAPL", Side: "long", Quantity: decimal.NewFromInt(5), AvgCost: decimal.RequireFromString("199.82"),
		MarketPrice: decimal.RequireFromString("219.79"), MarketValue: decimal.RequireFromString("1098.95"), UnrealizedPnL: decimal.RequireFromString("99.85")})
	f.Mu.Unlock()
	h.Key("r")
	require.Contains(t, h.Screen(), "long 5 @ 199.82  mark 219.79  value 1098.95  P&L +99.85")
	h.Key("s")
	h.TypeText("bogus")
	h.Key("enter")
	require.Contains(t, h.Toast(), "unknown simulator command")
}

func TestCandleChartDrawsBodiesWicksAndOverlay(t *testing.T) {
	t.Parallel()
	c := market.CandleChart{W: 4 + market.AxisWidth, H: 4, Cw: 1, Candles: []market.Candle{
		{Open: 10, Close: 14, High: 16, Low: 8},  // up
		{Open: 14, Close: 10, High: 14, Low: 10}, // down, no wicks
	}, Overlays: [][]float64{{12}}}
	g, lo, hi := c.Grid()
	require.Equal(t, 8.0, lo)
	require.Equal(t, 16.0, hi)
	col := func(x int) string {
		var b strings.Builder
		for r := range g {
			b.WriteRune(g[r][x].R)
		}
		return b.String()
	}
	require.Equal(t, "│┃┃│", col(0), "wick top, body, wick bottom")
	require.Equal(t, market.CellUp, g[1][0].Kind)
	require.Equal(t, " ┃• ", col(1), "overlay value 12 drawn on the last candle")
	require.Equal(t, market.CellOverlay0, g[2][1].Kind)
	require.Equal(t, market.CellDown, g[1][1].Kind)
	// An overlay on another scale is left out instead of flattening candles.
	c.Overlays = [][]float64{{1000, 1001}}
	g, lo, hi = c.Grid()
	require.Equal(t, 8.0, lo)
	require.Equal(t, 16.0, hi)
	require.NotContains(t, col(0)+col(1), "•")
	out := ansi.Strip(c.Render(kit.NewStyles(true)))
	require.Contains(t, out, "16.000")
	require.Contains(t, out, "8.000")
}

func TestGoldenPageViews(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		for _, name := range []string{"market", "activity", "mcp"} {
			name := fmt.Sprintf("%s_%dx%d", name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				h, _ := tuitest.NewPagesHarness(t, size[0], size[1])
				p := map[string]kit.Pane{"market": h.M.Market, "activity": h.M.Activity, "mcp": h.M.MCPPage}[strings.Split(name, "_")[0]]
				if p == h.M.Market {
					openAAPL(h)
					h.Key("i", "enter")
				}
				h.M.SetFocus(h.M.PaneIndex(p))
				golden.RequireEqual(t, []byte(h.Screen()))
			})
		}
	}
	t.Run("market_order_80x24", func(t *testing.T) {
		h, _ := tuitest.NewPagesHarness(t, 80, 24)
		openAAPL(h)
		h.Key("o")
		h.TypeText("10")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	// a typed "-1" is shown as typed, and Enter refuses it by name
	t.Run("market_order_refused_80x24", func(t *testing.T) {
		h, _ := tuitest.NewPagesHarness(t, 80, 24)
		openAAPL(h)
		h.Key("o")
		h.TypeText("-1")
		h.Key("enter")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
	t.Run("activity_detail_160x45", func(t *testing.T) {
		h, _ := tuitest.NewPagesHarness(t, 160, 45)
		h.Alt('6')
		h.Key("down", "down", "enter")
		golden.RequireEqual(t, []byte(h.Screen()))
	})
}

func TestMarketTickRefreshesQuotesAtMostEvery30s(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 100, 30)
	openAAPL(h)
	count := func() int { f.Pmu.Lock(); defer f.Pmu.Unlock(); return f.CandleSeries }
	base := count()
	h.Send(tui.TickMsg(h.Now))
	require.Equal(t, base+1, count(), "the first tick reloads the symbol")
	h.Now = h.Now.Add(5 * time.Second)
	h.Send(tui.TickMsg(h.Now))
	require.Equal(t, base+1, count(), "5 s later only positions reload")
	h.Now = h.Now.Add(30 * time.Second)
	h.Send(tui.TickMsg(h.Now))
	require.Equal(t, base+2, count())
}

// After a simulator move the header shows the account's new mark (what
// the position line and Portfolio use), also after leaving and coming
// back to the pane.
func TestMarketHeaderFollowsSimulatorMoves(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 120, 30)
	openAAPL(h)
	require.Contains(t, h.Screen(), "187.25 +1.75 (+0.94%)")
	h.Key("s")
	h.TypeText("@197.04")
	h.Key("enter")
	require.Contains(t, h.Screen(), "197.04 +11.54 (+6.22%)", "the header follows the pinned mark")
	h.Alt('3')
	h.Alt('5')
	h.Send(tui.TickMsg(h.Now))
	require.Contains(t, h.Screen(), "197.04", "and still does after re-entry")
}

// After a pin the chart ends where the quote line says the price is: the
// last candle closes at the pinned mark (its high or low stretched to take
// it in). A pin made elsewhere (a
// tool, another client) reaches the pane as the core's event, with no tick.
func TestMarketChartEndsAtThePinnedMark(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 30)
	openAAPL(h)
	p := h.M.Market
	last := func() market.Candle { return p.Candles[len(p.Candles)-1] }
	require.InDelta(t, 187.25, last().Close, 1e-9, "the chart ends at the quote before any pin")

	h.Key("s")
	h.TypeText("@250")
	h.Key("enter")
	require.Contains(t, h.Screen(), "250.00", "the quote shows the pin")
	require.InDelta(t, 250, last().Close, 1e-9, "the chart's last point is the quote")
	require.InDelta(t, 250, last().High, 1e-9, "the bar's high takes the mark in")

	// a pin from elsewhere: the core's event reloads the symbol
	f.Pmu.Lock()
	f.Marks["AAPL"] = decimal.RequireFromString("150")
	f.Pmu.Unlock()
	h.F.EventCh <- tui.TradingChangedEvent{MarkMoved: true}
	h.Run(h.M.WaitEvent())
	require.Contains(t, h.Screen(), "150.00", "the quote follows the event")
	require.InDelta(t, 150, last().Close, 1e-9, "and so does the chart")
	require.InDelta(t, 150, last().Low, 1e-9)
}

// The start list: holdings and the watchlist with last, change and a
// sparkline; w adds the shown symbol (persisted through the core) and
// removes it again.
func TestMarketWatchlist(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 30)
	h.Alt('5')
	s := h.Screen()
	require.Contains(t, s, "Watchlist and holdings")
	require.Regexp(t, `● +MSFT +187\.25 +\+0\.94% +[▁▂▃▄▅▆▇█]+`, s, "held symbols are listed with quote and sparkline")
	openAAPL(h)
	h.Key("w")
	require.Contains(t, h.Toast(), "AAPL added to the watchlist")
	require.Equal(t, []market.WatchItem{{Symbol: "AAPL", Class: "equity"}}, f.Watch)
	h.Key("esc")
	s = h.Screen()
	require.Regexp(t, `★ +AAPL +187\.25`, s)
	require.Contains(t, s, "MSFT")
	h.Key("enter")
	require.Equal(t, "AAPL", h.M.Market.Symbol, "enter opens the selected row")
	h.Key("w")
	require.Empty(t, f.Watch)
	require.Contains(t, h.Toast(), "AAPL removed from the watchlist")
}

func TestSparklineNeverExaggeratesAFlatLine(t *testing.T) {
	t.Parallel()
	require.Equal(t, "▁▁▁▁", market.Sparkline([]float64{100, 100.01, 99.99, 100}, 10))
	require.Equal(t, "▁▄█", market.Sparkline([]float64{1, 1.5, 2}, 10))
	require.Equal(t, "▁█", market.Sparkline([]float64{1, 1.5, 2}, 2), "the newest values fit the width")
	require.Empty(t, market.Sparkline(nil, 5))
}

// On the start list, tickers that begin with a pane key are typed, not
// obeyed: "wmt" searches (the watchlist is untouched), "jpm" searches
// (the selection does not move), and the text is kept as typed.
func TestMarketTypedTickersNeverRunPaneKeys(t *testing.T) {
	t.Parallel()
	for _, ticker := range []string{"wmt", "jpm", "kO", "rivn"} {
		h, _ := tuitest.NewPagesHarness(t, 100, 30)
		h.Alt('5')
		before := h.Screen()
		h.TypeText(ticker)
		require.Equal(t, ticker, h.M.Market.Input.Value(), "typed as is")
		require.NotContains(t, h.Toast(), "watchlist", "%s: no watchlist change", ticker)
		h.Key("esc")
		require.Equal(t, before, h.Screen(), "%s: the start list is as it was", ticker)
	}
}

// A reload that adds a holding above the selected row (or re-orders
// the list) keeps the cursor on the symbol.
func TestMarketListCursorKeepsTheSymbol(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 120, 30)
	f.Pmu.Lock()
	f.Watch = []market.WatchItem{{Symbol: "NVDA", Class: "equity"}}
	f.Pmu.Unlock()
	h.Alt('5')
	h.Run(h.M.Market.Load())
	h.Key("up")
	require.Equal(t, "NVDA", h.M.Market.ListSelected())
	h.Key("down")
	require.Equal(t, "MSFT", h.M.Market.ListSelected())
	h.F.Mu.Lock()
	h.F.PositionList = append([]portfolio.Position{{Symbol: "AAPL", Side: "long", Quantity: decimal.NewFromInt(1)}}, h.F.PositionList...)
	h.F.Mu.Unlock()
	h.Run(h.M.Market.Load())
	require.Contains(t, h.Screen(), "AAPL")
	require.Equal(t, "MSFT", h.M.Market.ListSelected())
	h.Key("up", "up", "delete")
	require.Empty(t, f.Watch)
	require.Equal(t, "AAPL", h.M.Market.ListSelected(), "a removed row leaves the cursor on its neighbour")
}

// A price from the simulated market is labelled "simulated" on the quote
// line and over the start list; a real provider's name is shown instead
// when it answered.
func TestMarketLabelsSimulatedPricesAndNamesTheSource(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 80, 24)
	h.Alt('5')
	require.Contains(t, h.Screen(), "Watchlist and holdings simulated prices")
	openAAPL(h)
	require.Contains(t, h.Screen(), "AAPL Apple Inc. · equity · simulated   187.25")

	f := tuitest.NewFakePages()
	f.QuoteSource = "yahoo"
	h = tuitest.NewHarnessOver(t, f, f.FakeCore, 80, 24)
	h.Run(h.M.LoadAll())
	h.Alt('5')
	s := h.Screen()
	require.Contains(t, s, "Watchlist and holdings · yahoo")
	require.NotContains(t, s, "simulated")
	openAAPL(h)
	s = h.Screen()
	require.Contains(t, s, "AAPL Apple Inc. · equity · yahoo   187.25")
	require.NotContains(t, s, "simulated")
}

// A simulator move shows on the start list too: the row of a watched
// symbol carries the account's mark, the same price as the quote line
// (found in tmux: the list said 196.19 while the header said 206.00).
func TestMarketListFollowsSimulatorMoves(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 120, 30)
	openAAPL(h)
	h.Key("w")
	h.Key("s")
	h.TypeText("@197.04")
	h.Key("enter")
	require.Contains(t, h.Screen(), "197.04 +11.54 (+6.22%)")
	h.Key("esc")
	require.Regexp(t, `★ +AAPL +197\.04 +\+6\.22%`, h.Screen(), "the list row shows the account's mark")
}

// A long search keeps its end and the cursor on screen (the input was
// wider than the line left after "Search ", so the line was cut at the
// pane edge and the text being typed hid behind an ellipsis).
func TestMarketLongSearchStaysVisible(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 80, 24)
	h.Alt('5')
	h.Key("/")
	h.TypeText(strings.Repeat("abcdefghij", 8) + "XYZ")
	require.Contains(t, h.Screen(), "hijXYZ", "the end of what was typed is shown")
}

// While a search is under way the pane says so, and an enter pressed
// before the answer does not open the start list's selected row (found
// in tmux: "EURUSD", enter, enter opened AAPL from the watchlist, and the
// EURUSD results popped up afterwards); esc gives the search up.
func TestMarketEnterWhileSearchingWaitsForTheResults(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 100, 30)
	h.Alt('5')
	require.Contains(t, h.Screen(), "MSFT", "the start list has a row enter could open")
	h.TypeText("apple")
	_, search := h.M.Update(tuitest.KeyMsg("enter"))
	require.Contains(t, h.Screen(), `Searching "apple"…`)
	_, cmd := h.M.Update(tuitest.KeyMsg("enter"))
	h.Run(cmd)
	require.Empty(t, h.M.Market.Symbol, "enter waits for the results")
	h.Run(search)
	require.Contains(t, h.Screen(), "Results (1)")
	h.Key("enter")
	require.Equal(t, "AAPL", h.M.Market.Symbol)

	h.Key("esc")
	h.TypeText("apple")
	_, search = h.M.Update(tuitest.KeyMsg("enter"))
	h.Key("esc")
	require.NotContains(t, h.Screen(), "Searching")
	h.Run(search)
	require.NotContains(t, h.Screen(), "Results (1)", "a search given up does not pop up later")
}

// A simulator account's mark replaces the feed's last price; the feed's
// bid/ask around the old price is not shown beside it (found in tmux:
// "206.00 +3.98 (+1.97%) … bid/ask 195.83/195.85").
func TestMarketHeaderDropsTheFeedsBidAskAtAPinnedMark(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 160, 30)
	openAAPL(h)
	h.Key("s")
	h.TypeText("@187.25")
	h.Key("enter")
	require.Contains(t, h.Screen(), "bid/ask 187.20/187.30", "the mark equals the feed's last: its bid/ask stay")
	h.Key("s")
	h.TypeText("@197.04")
	h.Key("enter")
	s := h.Screen()
	require.Contains(t, s, "197.04 +11.54 (+6.22%)")
	require.NotContains(t, s, "bid/ask 187.20/187.30", "no bid/ask 10 dollars away from the last price")
}

// A currency pair's price is shown in its own precision: "1.0843
// +0.0009", not "1.08 0.00" (found in tmux on EURUSD); equities keep
// two decimals. The start list shows the same.
func TestMarketCurrencyQuotesKeepTheirDecimals(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 160, 30)
	h.Alt('5')
	h.Key("/")
	h.TypeText("EURUSD")
	h.Key("enter", "enter")
	require.Equal(t, "EURUSD", h.M.Market.Symbol)
	s := h.Screen()
	require.Contains(t, s, "1.0843 +0.0009 (+0.08%)")
	require.Contains(t, s, "bid/ask 1.0843/1.0843")
	h.Key("w", "esc")
	require.Regexp(t, `★ +EURUSD +1\.0843 +\+0\.08%`, h.Screen())
}

// On a market order the hidden limit-price field is never focused: ↓
// from the quantity stays there, so what is typed next is the quantity
// (it went into the invisible limit field, leaving no field marked).
func TestMarketOrderTicketNeverFocusesAHiddenField(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 100, 30)
	openAAPL(h)
	h.Key("o")
	require.Contains(t, h.Screen(), "Stage an order")
	h.Key("down", "down")
	h.TypeText("5")
	require.Equal(t, "5", h.M.Market.Form.Qty)
	require.Contains(t, h.Screen(), "Quantity     5▏")
}

// The ticket's quantity holds exactly what was typed or pasted (a tester
// typed "-1", the field showed 1 and Enter opened "Stage this order? BUY
// 1 BTC MKT"; "1,5" became 15, "1e9" 19). Enter refuses it by name, with
// the text as typed, and opens no confirmation: nothing can be staged.
func TestMarketOrderQuantityIsNeverRewritten(t *testing.T) {
	t.Parallel()
	notNumber := `quantity must be a positive decimal number, got "%s"`
	noExp := `quantity "%s" refused: write the number out in plain decimal notation (no exponent)`
	for _, tc := range []struct {
		typed string
		paste bool
		want  string
	}{
		{"-1", false, notNumber}, {"1,5", false, notNumber}, {"1e9", false, noExp}, {"1.2.3", false, notNumber},
		{"1e-12", false, noExp}, {"-1,5e3", true, noExp}, {"0", false, notNumber},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			t.Parallel()
			h, f := tuitest.NewPagesHarness(t, 100, 30)
			openAAPL(h)
			h.Key("o")
			if tc.paste {
				h.Send(tea.PasteMsg{Content: tc.typed})
			} else {
				h.TypeText(tc.typed)
			}
			require.Equal(t, tc.typed, h.M.Market.Form.Qty)
			require.Contains(t, h.Screen(), "Quantity     "+tc.typed+"▏")
			h.Key("enter")
			require.Nil(t, h.M.Dialog, "no confirmation opens")
			require.Equal(t, market.MkOrder, h.M.Market.Mode, "the ticket stays open to be fixed")
			require.Contains(t, h.Screen(), fmt.Sprintf(tc.want, tc.typed))
			h.Now = h.Now.Add(time.Second)
			h.Key("y")
			require.Empty(t, f.Tickets, "nothing is staged")
		})
	}
}

// A refusal goes once the quantity is fixed, and the fixed value is the
// one staged.
func TestMarketOrderRefusalClearsOnceFixed(t *testing.T) {
	t.Parallel()
	h, f := tuitest.NewPagesHarness(t, 100, 30)
	openAAPL(h)
	h.Key("o")
	h.TypeText("-1")
	h.Key("enter")
	require.Contains(t, h.Screen(), `quantity must be a positive decimal number, got "-1"`)
	h.Key("backspace")
	require.Contains(t, h.Screen(), `quantity must be a positive decimal number, got "-"`, "the refusal names what the field holds now")
	h.Key("backspace")
	h.TypeText("1.5")
	require.NotContains(t, h.Screen(), "quantity must be")
	h.Key("enter")
	require.NotNil(t, h.M.Dialog)
	require.Contains(t, h.Screen(), "BUY 1.5 AAPL MKT on sim-paper")
	h.Confirm()
	require.Len(t, f.Tickets, 1)
	require.Equal(t, "1.5", f.Tickets[0].Quantity.String())
}

// A pasted ticker is typed: on the start list it starts a search, in the
// search line it is inserted, in the order ticket it fills the focused
// number (found in tmux: a paste into the Market pane did nothing).
func TestMarketPasteIsTyped(t *testing.T) {
	t.Parallel()
	h, _ := tuitest.NewPagesHarness(t, 100, 30)
	h.Alt('5')
	h.Send(tea.PasteMsg{Content: "app"})
	require.Equal(t, "app", h.M.Market.Input.Value(), "the list starts a search with the paste")
	h.Send(tea.PasteMsg{Content: "le\n"})
	require.Equal(t, "apple", h.M.Market.Input.Value())
	h.Key("enter")
	require.Contains(t, h.Screen(), "Results (1)")
	h.Key("enter", "o")
	h.Send(tea.PasteMsg{Content: " 12.5\n"})
	require.Equal(t, "12.5", h.M.Market.Form.Qty)
}

// An account removed while the Market pane has it selected (Settings →
// Accounts → d) gives way to its neighbour on the next load, without an
// "unknown or disabled account" error.
func TestMarketRemovedAccountFallsBackWithoutAnError(t *testing.T) {
	t.Parallel()
	f := tuitest.NewFakePages()
	f.AccountIDs = []string{"sim-paper", "sim2", "sim3"}
	h := tuitest.NewHarnessOver(t, f, f.FakeCore, 100, 30)
	h.Run(h.M.LoadAll())
	h.Alt('5')
	h.Key("]", "]")
	require.Contains(t, h.Screen(), "sim3")
	f.RemoveAccount("sim3")
	h.Now = h.Now.Add(5 * time.Second)
	h.Send(tui.TickMsg(h.Now))
	require.Empty(t, h.Toast(), "no error for an account that is gone")
	require.NotContains(t, h.Screen(), "sim3")
	h.Key("[", "[")
	require.Empty(t, h.Toast())
}
