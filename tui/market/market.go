package market

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// marketBase is what the Market pane reads for the symbol's position and
// orders (the Portfolio pane's calls).
type marketBase interface {
	Accounts() ([]portfolio.AccountSummary, error)
	Positions(account string) ([]portfolio.Position, error)
	Orders(account string) ([]portfolio.Order, error)
}

// MarketCore is what the Market pane needs beyond Core. The root Core
// provides it when it can (tui/live does); otherwise the pane explains that
// market data is unavailable. Every call goes through the same tools the
// agent uses, so what the pane shows and stages is what Alice would see
// and stage.
type MarketCore interface {
	// SearchSymbols runs marketSearchForResearch.
	SearchSymbols(ctx context.Context, query string) ([]MarketInstrument, error)
	// MarketQuote is the latest quote with the change since the previous
	// daily close.
	MarketQuote(ctx context.Context, symbol, class string) (MarketQuote, error)
	// Candles returns up to n bars of interval ("1m", "5m", "1h", "1d"),
	// oldest first, ending now.
	Candles(ctx context.Context, symbol, class, interval string, n int) ([]Candle, error)
	// Indicator evaluates a calculateIndicator formula as of each time in
	// at (oldest first), so a scalar formula such as SMA(CLOSE('AAPL','1d'),20)
	// becomes a line over the chart; values[i] is NaN where the formula
	// cannot be evaluated. With no times it returns the current value. A
	// formula that yields a series returns that series.
	Indicator(ctx context.Context, class, formula string, at []time.Time) ([]float64, error)
	// SymbolNews is the archive's recent items mentioning symbol.
	SymbolNews(ctx context.Context, symbol string, limit int) ([]NewsItem, error)
	// StageOrder stages the ticket with placeOrder, commits it and
	// requests a push: guards and the human approval apply as usual.
	StageOrder(ctx context.Context, t OrderTicket) (string, error)
}

// MarketInstrument is one search hit.
type MarketInstrument struct {
	Symbol string
	Name   string
	Class  string // equity | crypto | currency | commodity
}

// MarketQuote is a quote with its daily change; zero means not provided.
type MarketQuote struct {
	Symbol    string
	Last      decimal.Decimal
	Change    decimal.Decimal
	ChangePct decimal.Decimal
	Bid, Ask  decimal.Decimal
	Volume    decimal.Decimal
	Time      time.Time
	// Source names the provider that answered (yahoo, openbb, …);
	// Simulated marks a price from alice's offline simulated market,
	// which the pane labels so it is never taken for a real one.
	Source    string
	Simulated bool
}

// Candle is one OHLCV bar (floats: charting only).
type Candle struct {
	Time                   time.Time
	Open, High, Low, Close float64
	Volume                 float64
}

// NewsItem is one headline about a symbol.
type NewsItem struct {
	Title   string
	Excerpt string
	Source  string
}

// OrderTicket is what the stage-order form submits (placeOrder's fields).
type OrderTicket struct {
	Account  string
	Symbol   string
	Action   string // BUY | SELL
	Type     string // MKT | LMT
	Quantity decimal.Decimal
	Limit    decimal.Decimal
}

// MarketIntervals are the chart's bar sizes, cycled with t.
var MarketIntervals = []string{"1m", "5m", "1h", "1d"}

// marketMode is what the pane's keys currently drive.
type marketMode int

const (
	MkBrowse    marketMode = iota
	mkSearch               // typing a search query
	mkIndicator            // typing a formula
	MkOrder                // the stage-order form
	MkSim                  // a simulator command
)

// overlay is one indicator drawn over the candles.
type overlay struct {
	formula string
	Values  []float64
	Err     string
}

// marketPane: search, quote, candles with indicator overlays, news,
// the symbol's position and orders, and the order/simulator forms.
type Pane struct {
	m       kit.Host
	base    marketBase
	w, h    int
	focused bool
	Mode    marketMode
	keys    marketKeys
	Input   textinput.Model

	results  []MarketInstrument
	sel      int
	Symbol   string
	class    string
	quote    MarketQuote
	Candles  []Candle
	Interval int
	Zoom     int // columns per candle, 1..4
	Overlays []overlay
	news     []NewsItem

	accounts  []portfolio.AccountSummary
	acct      int
	positions []portfolio.Position
	orders    []portfolio.Order

	Form      orderForm
	simNote   string
	refreshed time.Time // last periodic symbol reload (pages.go)

	// The start list: watchlist and holdings with their quotes; picking
	// is true while search results are listed for choosing.
	watch     []WatchItem
	rowQuotes map[string]listRow
	listSel   int
	picking   bool
	// searching is the query whose answer is awaited ("" for none): the
	// pane says so, enter waits for it, esc gives it up.
	searching string
}

func New(m kit.Host, core marketBase) *Pane {
	in := textinput.New()
	in.Prompt = "› "
	in.CharLimit = 400
	return &Pane{m: m, base: core, keys: DefaultMarketKeys(), Input: in, Interval: 3, Zoom: 2, rowQuotes: map[string]listRow{}}
}

// core returns the MarketCore, if the root Core implements it.
func (p *Pane) core() (MarketCore, bool) {
	mc, ok := p.base.(MarketCore)
	return mc, ok
}

// SetSize fits the input into the line left after its label ("Indicator "
// and "Simulator " are the longest), its prompt and the cursor.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.Input.SetWidth(max(10, w-ansi.StringWidth("Indicator ")-ansi.StringWidth(p.Input.Prompt)-1))
}

// Focus reloads everything on the next tick (a simulator move or a trade
// made elsewhere must show on re-entry).
func (p *Pane) Focus()          { p.focused, p.refreshed = true, time.Time{} }
func (p *Pane) Blur()           { p.focused = false; p.Input.Blur() }
func (p *Pane) Capturing() bool { return p.Mode != MkBrowse }

func (p *Pane) ShortHelp() []key.Binding {
	k := p.keys
	switch p.Mode {
	case MkOrder:
		return []key.Binding{k.FormNext, k.FormPrev, k.FormCycle, k.Submit, k.Back}
	case mkSearch, mkIndicator, MkSim:
		return []key.Binding{k.Submit, k.Back}
	}
	if p.Symbol == "" && !p.picking {
		return []key.Binding{k.Search, k.ListUp, k.ListDown, k.Select, k.Unwatch, k.PrevAccount, k.NextAccount}
	}
	return []key.Binding{k.Search, k.Up, k.Down, k.Interval, k.ZoomIn, k.ZoomOut, k.Indicator, k.DropIndicator,
		k.Ask, k.Order, k.Sim, k.PrevAccount, k.NextAccount, k.Refresh, k.Select, k.Watch, k.List}
}

// AllKeys is every Market binding, for the help overlay (the footer shows
// only the ones that apply to the current view).
func (p *Pane) AllKeys() []key.Binding {
	k := p.keys
	return []key.Binding{k.Search, k.ListUp, k.ListDown, k.Unwatch, k.Up, k.Down, k.Interval, k.ZoomIn, k.ZoomOut, k.Indicator,
		k.DropIndicator, k.Ask, k.Order, k.Sim, k.PrevAccount, k.NextAccount, k.Refresh, k.Select, k.Watch, k.List}
}

// current is the selected trading account's id.
func (p *Pane) current() string {
	if p.acct < len(p.accounts) {
		return p.accounts[p.acct].ID
	}
	return ""
}

// Messages the pane's Cmds return.
type (
	marketSearchMsg struct {
		query   string
		results []MarketInstrument
		err     error
	}
	marketDataMsg struct {
		symbol, interval string
		quote            MarketQuote
		candles          []Candle
		news             []NewsItem
		err              error
	}
	marketIndicatorMsg struct {
		formula string
		values  []float64
		err     error
	}
	marketAccountMsg struct {
		accounts  []portfolio.AccountSummary
		account   string
		positions []portfolio.Position
		orders    []portfolio.Order
		err       error
	}
	// AskAliceMsg asks the root to open the chat with text prefilled.
	AskAliceMsg struct{ Text string }
	// orderStagedMsg reports a staged order and reloads the portfolio.
	orderStagedMsg struct{ text string }
)

// Load refreshes the accounts part (positions and orders in the symbol);
// the first load also reads the watchlist.
func (p *Pane) Load() tea.Cmd {
	var watch tea.Cmd
	if p.watch == nil {
		p.watch = []WatchItem{}
		watch = p.loadWatchlist()
	}
	return tea.Batch(watch, p.loadAccount())
}

func (p *Pane) loadAccount() tea.Cmd {
	core, want, at := p.base, p.current(), p.acct
	return func() tea.Msg {
		var r marketAccountMsg
		if r.accounts, r.err = core.Accounts(); r.err != nil {
			return r
		}
		// An account removed since it was chosen: its neighbour, not an
		// error from asking the core for it (as in Portfolio).
		if i := kit.Reselect(r.accounts, func(a portfolio.AccountSummary) string { return a.ID }, want, at); i < len(r.accounts) {
			want = r.accounts[i].ID
		} else {
			want = ""
		}
		r.account = want
		if want == "" {
			return r
		}
		var err error
		if r.positions, err = core.Positions(want); err != nil {
			r.err = err
		}
		if r.orders, err = core.Orders(want); err != nil && r.err == nil {
			r.err = err
		}
		return r
	}
}

// search runs marketSearchForResearch in a Cmd.
func (p *Pane) search(q string) tea.Cmd {
	mc, ok := p.core()
	if !ok {
		return kit.ErrCmd(errNoMarket)
	}
	ctx := p.m.AppContext()
	p.searching = q
	return func() tea.Msg {
		res, err := mc.SearchSymbols(ctx, q)
		return marketSearchMsg{query: q, results: res, err: err}
	}
}

// CandleCount is how many bars a load asks for: enough for the widest
// chart at the densest zoom.
const CandleCount = 400

// loadSymbol fetches quote, candles and news for the shown symbol.
func (p *Pane) loadSymbol() tea.Cmd {
	mc, ok := p.core()
	if !ok || p.Symbol == "" {
		return nil
	}
	ctx, sym, class, iv := p.m.AppContext(), p.Symbol, p.class, MarketIntervals[p.Interval]
	sc, sim := p.base.(SimCore)
	acct := p.current()
	sim = sim && p.onSimulator()
	return func() tea.Msg {
		r := marketDataMsg{symbol: sym, interval: iv}
		var errs []error
		var err error
		if r.quote, err = mc.MarketQuote(ctx, sym, class); err != nil {
			errs = append(errs, err)
		}
		var mark decimal.Decimal
		if sim {
			// A simulator account trades at its own mark (which a
			// simulator move pins away from the feed): show that.
			if m, err := sc.SimMark(ctx, acct, sym); err == nil && m.IsPositive() {
				mark = m
				r.quote = withLast(r.quote, mark)
			}
		}
		if r.candles, err = mc.Candles(ctx, sym, class, iv, CandleCount); err != nil {
			errs = append(errs, err)
		}
		r.candles = atMark(r.candles, mark)
		if r.news, err = mc.SymbolNews(ctx, sym, 5); err != nil {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			r.err = errs[0]
		}
		return r
	}
}

// withLast replaces a quote's last price, keeping the change relative to
// the same previous close.
// The feed's bid/ask belong to the feed's price: at another mark they are
// dropped rather than shown beside a last price they do not surround.
func withLast(q MarketQuote, last decimal.Decimal) MarketQuote {
	prev := q.Last.Sub(q.Change)
	if !last.Equal(q.Last) {
		q.Bid, q.Ask = decimal.Decimal{}, decimal.Decimal{}
	}
	q.Last = last
	if prev.IsPositive() {
		q.Change = last.Sub(prev)
		q.ChangePct = q.Change.Div(prev).Mul(decimal.NewFromInt(100))
	}
	return q
}

// atMark is candles with the last one closing at mark (its high and low
// stretched to take it in), so the chart ends where the quote line says
// the price is: the feed's bars know nothing of a simulator's pinned mark.
// A zero mark (not a simulator, or no mark) leaves candles as they are;
// the slice is copied, never changed in place.
func atMark(candles []Candle, mark decimal.Decimal) []Candle {
	if len(candles) == 0 || !mark.IsPositive() {
		return candles
	}
	m := mark.InexactFloat64()
	out := append([]Candle(nil), candles...)
	last := &out[len(out)-1]
	last.Close, last.High, last.Low = m, max(last.High, m), min(last.Low, m)
	return out
}

// evalIndicator runs one formula in a Cmd.
func (p *Pane) evalIndicator(formula string) tea.Cmd {
	mc, ok := p.core()
	if !ok {
		return kit.ErrCmd(errNoMarket)
	}
	ctx, class, at := p.m.AppContext(), p.class, overlayTimes(p.Candles, OverlayBars)
	if class == "" {
		class = "equity"
	}
	return func() tea.Msg {
		vals, err := mc.Indicator(ctx, class, formula, at)
		return marketIndicatorMsg{formula: formula, values: vals, err: err}
	}
}

// OverlayBars caps how many candles an overlay is evaluated at (the
// widest chart shows about this many).
const OverlayBars = 160

// overlayTimes are the as-of times for the last n candles: each candle's
// close, i.e. the next candle's open (the last one extrapolated).
func overlayTimes(cs []Candle, n int) []time.Time {
	if len(cs) < 2 {
		return nil
	}
	start := max(0, len(cs)-n)
	out := make([]time.Time, 0, len(cs)-start)
	for i := start; i < len(cs); i++ {
		if i+1 < len(cs) {
			out = append(out, cs[i+1].Time)
		} else {
			out = append(out, cs[i].Time.Add(cs[i].Time.Sub(cs[i-1].Time)))
		}
	}
	return out
}

// reloadIndicators re-evaluates every overlay (after a refresh).
func (p *Pane) reloadIndicators() tea.Cmd {
	var cmds []tea.Cmd
	for _, o := range p.Overlays {
		cmds = append(cmds, p.evalIndicator(o.formula))
	}
	return tea.Batch(cmds...)
}

// marketError is a typed error for the pane's own failures.
type marketError string

func (e marketError) Error() string { return string(e) }

const errNoMarket = marketError("market data is not available in this build of the core")
