package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/analysis"
	"github.com/alice-trading/alice/trading/marketdata"
	"github.com/alice-trading/alice/trading/watchlist"
	"github.com/alice-trading/alice/tui/market"
	"github.com/shopspring/decimal"
)

var (
	_ market.MarketCore = (*Core)(nil)
	_ market.SimCore    = (*Core)(nil)
)

// callTool runs a ToolCenter tool (the same code path the agent and MCP
// clients use) and decodes its JSON result into out.
func (c *Core) callTool(ctx context.Context, name string, args any, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	// the Market pane's ticket is a person's order, not an agent's
	res, err := c.tools.Call(core.WithCaller(ctx, core.Caller{Channel: "tui", Agent: "a person (Market pane)", Person: true}), name, raw)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if r, ok := res.(*core.ToolResult); ok && r.IsError {
		return fmt.Errorf("%s: %s", name, core.ResultText(r))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal([]byte(core.ResultText(res)), out)
}

// source opens the configured market data backend. Opening is cheap (the
// simulated backend shares the App's market; HTTP backends only build a
// client), so each call opens its own rather than caching state here.
func (c *Core) source() (marketdata.Source, error) {
	return c.a.MarketData()
}

// SearchSymbols runs marketSearchForResearch.
func (c *Core) SearchSymbols(ctx context.Context, query string) ([]market.MarketInstrument, error) {
	var res marketdata.SearchResult
	if err := c.callTool(ctx, "marketSearchForResearch", map[string]any{"query": query, "limit": 10}, &res); err != nil {
		return nil, err
	}
	out := make([]market.MarketInstrument, 0, len(res.Results))
	for _, r := range res.Results {
		out = append(out, market.MarketInstrument{Symbol: r.Symbol, Name: r.Name, Class: string(r.AssetClass)})
	}
	return out, nil
}

// MarketQuote is the latest quote plus the change from the previous
// daily close.
func (c *Core) MarketQuote(ctx context.Context, symbol, class string) (market.MarketQuote, error) {
	src, err := c.source()
	if err != nil {
		return market.MarketQuote{}, err
	}
	q, err := src.Quote(ctx, symbol, trading.AssetClass(class))
	if err != nil {
		return market.MarketQuote{}, err
	}
	out := market.MarketQuote{Symbol: q.Symbol, Last: q.Last, Bid: q.Bid, Ask: q.Ask, Volume: q.Volume, Time: q.Time,
		Source: q.Source, Simulated: q.Simulated}
	if out.Source == "" {
		out.Source = src.Name()
	}
	now := time.Now()
	days, err := src.Bars(ctx, symbol, trading.AssetClass(class), marketdata.Interval{N: 1, Unit: marketdata.Day}, now.AddDate(0, 0, -10), now)
	if err == nil && len(days) >= 2 && !q.Last.IsZero() {
		prev := decimal.NewFromFloat(days[len(days)-2].Close)
		if prev.IsPositive() {
			out.Change = q.Last.Sub(prev)
			out.ChangePct = out.Change.Div(prev).Mul(decimal.NewFromInt(100))
		}
	}
	return out, nil
}

// Candles loads the last n bars of interval.
func (c *Core) Candles(ctx context.Context, symbol, class, interval string, n int) ([]market.Candle, error) {
	iv, err := marketdata.ParseInterval(interval)
	if err != nil {
		return nil, err
	}
	src, err := c.source()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	// Markets close at night and on weekends: look back three times the
	// span so n bars are usually there.
	from := now.Add(-3 * time.Duration(n) * iv.Duration())
	bars, err := src.Bars(ctx, symbol, trading.AssetClass(class), iv, from, now)
	if err != nil {
		return nil, err
	}
	if len(bars) > n {
		bars = bars[len(bars)-n:]
	}
	out := make([]market.Candle, len(bars))
	for i, b := range bars {
		out[i] = market.Candle{Time: b.Time, Open: b.Open, High: b.High, Low: b.Low, Close: b.Close, Volume: b.Volume}
	}
	return out, nil
}

// Indicator checks the formula with calculateIndicator (the agent's
// tool, so errors read the same), then evaluates it as of each time in at
// with the same evaluator over one cached fetch of bars.
func (c *Core) Indicator(ctx context.Context, class, formula string, at []time.Time) ([]float64, error) {
	var res struct {
		Value json.RawMessage `json:"value"`
	}
	if err := c.callTool(ctx, "calculateIndicator", map[string]any{"asset": class, "formula": formula, "precision": 6}, &res); err != nil {
		return nil, err
	}
	var series []float64
	if json.Unmarshal(res.Value, &series) == nil {
		return series, nil
	}
	var now float64
	if json.Unmarshal(res.Value, &now) != nil {
		return nil, errors.New("this formula returns several named values (BBANDS, MACD); overlay one number, e.g. BBANDS(...) is not drawable but SMA(...) is")
	}
	if len(at) == 0 {
		return []float64{now}, nil
	}
	src, err := c.source()
	if err != nil {
		return nil, err
	}
	cache := &barCache{src: src, bars: map[barKey]cachedBars{}}
	out := make([]float64, len(at))
	for i, t := range at {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		out[i] = math.NaN()
		r, err := analysis.NewEvaluator(cache, func() time.Time { return t }).Evaluate(ctx, formula, trading.AssetClass(class))
		if err != nil {
			continue // e.g. not enough bars yet this far back
		}
		if f, ok := r.Value.(float64); ok {
			out[i] = f
		}
	}
	return out, nil
}

type barKey struct {
	symbol string
	class  trading.AssetClass
	iv     marketdata.Interval
}

type cachedBars struct {
	from, to time.Time
	bars     []marketdata.Bar
}

// barCache serves an evaluation series from one fetch per symbol and
// interval: later as-of times ask for sub-ranges of the first window,
// widened once if a request reaches past it.
type barCache struct {
	src  marketdata.Source
	bars map[barKey]cachedBars
}

func (b *barCache) Bars(ctx context.Context, symbol string, class trading.AssetClass, iv marketdata.Interval, from, to time.Time) ([]marketdata.Bar, error) {
	k := barKey{symbol, class, iv}
	cb, ok := b.bars[k]
	if !ok || from.Before(cb.from) || to.After(cb.to) {
		f, t := from, time.Now()
		if ok && cb.from.Before(f) {
			f = cb.from
		}
		if to.After(t) {
			t = to
		}
		bars, err := b.src.Bars(ctx, symbol, class, iv, f, t)
		if err != nil {
			return nil, err
		}
		cb = cachedBars{from: f, to: t, bars: bars}
		b.bars[k] = cb
	}
	var out []marketdata.Bar
	for _, x := range cb.bars {
		if !x.Time.Before(from) && x.Time.Before(to) {
			out = append(out, x)
		}
	}
	return out, nil
}

// SymbolNews greps the news archive for the symbol (none when news is off).
func (c *Core) SymbolNews(ctx context.Context, symbol string, limit int) ([]market.NewsItem, error) {
	if _, ok := c.tools.Get("grepNews"); !ok {
		return nil, nil
	}
	var hits []struct {
		Title       string `json:"title"`
		MatchedText string `json:"matchedText"`
		Metadata    string `json:"metadata"`
	}
	pattern := `\b` + regexp.QuoteMeta(symbol) + `\b`
	if err := c.callTool(ctx, "grepNews", map[string]any{"pattern": pattern, "limit": limit}, &hits); err != nil {
		return nil, err
	}
	out := make([]market.NewsItem, 0, len(hits))
	for _, h := range hits {
		var meta struct {
			Source string `json:"source"`
		}
		_ = json.Unmarshal([]byte(h.Metadata), &meta) // the summary may be clipped
		out = append(out, market.NewsItem{Title: h.Title, Excerpt: h.MatchedText, Source: meta.Source})
	}
	return out, nil
}

// StageOrder stages the ticket with placeOrder, commits and requests the
// push, exactly as the agent would: guards run at push, and accounts
// without autoApprove wait for the person in Portfolio.
func (c *Core) StageOrder(ctx context.Context, t market.OrderTicket) (string, error) {
	args := map[string]any{"source": t.Account, "aliceId": trading.AliceID(t.Account, t.Symbol), "symbol": t.Symbol,
		"action": t.Action, "orderType": t.Type, "totalQuantity": t.Quantity.String()}
	if t.Type == "LMT" {
		args["lmtPrice"] = t.Limit.String()
	}
	if err := c.callTool(ctx, "placeOrder", args, nil); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("%s %s %s (staged in the alice UI)", t.Action, t.Quantity, t.Symbol)
	if err := c.callTool(ctx, "tradingCommit", map[string]any{"source": t.Account, "message": msg}, nil); err != nil {
		return "", err
	}
	var pushed []struct {
		Status string `json:"status"`
		Note   string `json:"note"`
	}
	if err := c.callTool(ctx, "tradingPush", map[string]any{"source": t.Account}, &pushed); err != nil {
		return "", err
	}
	for _, p := range pushed {
		if p.Status == "pushed" {
			return "staged and pushed (autoApprove is on for " + t.Account + "): " + msg, nil
		}
	}
	return "staged " + msg + "; it is waiting for your approval in Portfolio", nil
}

// ---- simulator controls ----

// IsSimulator reports whether account is a simulator.
func (c *Core) IsSimulator(account string) bool { return c.trading.IsSimulator(account) }

// SimPrice pins a symbol's mark.
func (c *Core) SimPrice(ctx context.Context, account, symbol, change string) (string, error) {
	old, next, err := c.trading.SimSetPrice(account, symbol, change)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s mark %s → %s on %s", strings.ToUpper(symbol), old.StringFixed(2), next.StringFixed(2), account), nil
}

// SimCash deposits or withdraws cash.
func (c *Core) SimCash(ctx context.Context, account string, amount decimal.Decimal) (string, error) {
	if err := c.trading.SimCash(account, amount); err != nil {
		return "", err
	}
	if amount.IsNegative() {
		return fmt.Sprintf("withdrew %s from %s", amount.Neg().StringFixed(2), account), nil
	}
	return fmt.Sprintf("deposited %s to %s", amount.StringFixed(2), account), nil
}

// SimFill force-fills resting orders in symbol.
func (c *Core) SimFill(ctx context.Context, account, symbol string) (string, error) {
	filled, err := c.trading.SimForceFill(ctx, account, symbol)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("filled %d resting %s order(s) on %s", len(filled), strings.ToUpper(symbol), account), nil
}

// SimAdvance moves the simulator account's clock forward.
func (c *Core) SimAdvance(ctx context.Context, account string, d time.Duration) (string, error) {
	now, err := c.trading.SimAdvance(account, d)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s clock advanced %s (now %s)", account, d, now.Format("2006-01-02 15:04")), nil
}

// SimMark is the simulator account's mark for symbol.
func (c *Core) SimMark(ctx context.Context, account, symbol string) (decimal.Decimal, error) {
	return c.trading.SimMark(account, symbol)
}

// Watchlist lists the Market pane's watchlist.
func (c *Core) Watchlist() ([]market.WatchItem, error) {
	items, err := c.a.Watchlist().List()
	return watchItems(items), err
}

// WatchAdd adds a symbol to the watchlist.
func (c *Core) WatchAdd(symbol, class string) ([]market.WatchItem, error) {
	items, err := c.a.Watchlist().Add(symbol, class)
	return watchItems(items), err
}

// WatchRemove removes a symbol from the watchlist.
func (c *Core) WatchRemove(symbol string) ([]market.WatchItem, error) {
	items, err := c.a.Watchlist().Remove(symbol)
	return watchItems(items), err
}

func watchItems(items []watchlist.Item) []market.WatchItem {
	out := make([]market.WatchItem, 0, len(items))
	for _, it := range items {
		out = append(out, market.WatchItem{Symbol: it.Symbol, Class: it.Class})
	}
	return out
}
