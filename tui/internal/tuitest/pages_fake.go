package tuitest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui/activity"
	"github.com/alice-trading/alice/tui/market"
	"github.com/alice-trading/alice/tui/mcppage"
	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/shopspring/decimal"
)

// FakePages extends fakeCore with the Market, Simulator, Activity and MCP
// interfaces, so the new panes are tested without growing fake_test.go.
type FakePages struct {
	*FakeCore
	Pmu          sync.Mutex
	Tickets      []market.OrderTicket
	CandleSeries int // Candles calls
	Sims         []string
	evs          []activity.ActivityEvent
	calls        []activity.ToolCallRecord
	notes        []activity.NotificationRecord
	clients      []mcppage.MCPClient
	Marks        map[string]decimal.Decimal // simulator marks pinned by SimPrice "@x"
	Watch        []market.WatchItem
	// Retried lists the task ids RetryWork was asked to retry.
	Retried []string
	// QuoteSource names the provider MarketQuote reports; "" means the
	// simulated market (Simulated: true), as in a fresh install offline.
	QuoteSource string
}

var (
	_ market.MarketCore     = (*FakePages)(nil)
	_ market.SimCore        = (*FakePages)(nil)
	_ market.WatchCore      = (*FakePages)(nil)
	_ activity.ActivityCore = (*FakePages)(nil)
	_ activity.WorkRetrier  = (*FakePages)(nil)
	_ mcppage.MCPCore       = (*FakePages)(nil)
)

func NewFakePages() *FakePages {
	f := &FakePages{FakeCore: NewFakeCore()}
	f.evs = []activity.ActivityEvent{
		{Seq: 1, Time: T0, Type: "cron.fire", Payload: `{"jobId":"j1","jobName":"morning","payload":"check AAPL"}`},
		{Seq: 2, Time: T0.Add(time.Second), Type: "agent.work.requested", Payload: `{"source":"cron","prompt":"check AAPL"}`, CausedBy: 1},
		{Seq: 3, Time: T0.Add(4 * time.Second), Type: "agent.work.done", Payload: `{"source":"cron","reply":"AAPL is up","durationMs":3000,"delivered":true,"channel":"tui"}`, CausedBy: 2},
		{Seq: 4, Time: T0.Add(time.Minute), Type: "trade.commit", Payload: `{"accountId":"sim-paper","hash":"4d46698f"}`},
	}
	f.calls = []activity.ToolCallRecord{
		{Seq: 1, Session: "cron/default", Name: "calculateIndicator", Input: `{"asset":"equity","formula":"RSI(CLOSE('AAPL','1d'),14)"}`, Output: `{"value":61.2}`, Duration: 12 * time.Millisecond, Time: T0.Add(2 * time.Second)},
		{Seq: 2, Session: "tui/default", Name: "placeOrder", Input: `{"source":"sim-paper","aliceId":"sim-paper|AAPL"}`, Output: `guard rejected: max order value`, Error: true, Duration: 3 * time.Millisecond, Time: T0.Add(time.Minute)},
	}
	f.notes = []activity.NotificationRecord{
		{Time: T0.Add(4 * time.Second), Text: "AAPL is up", Source: "cron", Channel: "tui", Delivered: true},
		{Time: T0.Add(5 * time.Minute), Text: "Heartbeat: nothing to report", Source: "heartbeat"},
	}
	f.clients = []mcppage.MCPClient{{SessionID: "s1", Endpoint: "/mcp", Name: "alice-blackbox", Version: "1.0.0", Connected: T0.Add(-time.Minute),
		LastCall: T0.Add(-10 * time.Second), Calls: map[string]int{"listUTAs": 2, "calculateIndicator": 1}}}
	return f
}

// fakeCloses is a deterministic zig-zag price path.
func fakeCloses(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 180 + 10*math.Sin(float64(i)/6) + float64(i%5)
	}
	return out
}

func (f *FakePages) SearchSymbols(ctx context.Context, q string) ([]market.MarketInstrument, error) {
	all := []market.MarketInstrument{{Symbol: "AAPL", Name: "Apple Inc.", Class: "equity"}, {Symbol: "AMZN", Name: "Amazon.com", Class: "equity"},
		{Symbol: "BTCUSD", Name: "Bitcoin", Class: "crypto"}, {Symbol: "EURUSD", Name: "Euro / US Dollar", Class: "currency"}}
	var out []market.MarketInstrument
	for _, in := range all {
		if strings.Contains(strings.ToLower(in.Symbol+" "+in.Name), strings.ToLower(q)) {
			out = append(out, in)
		}
	}
	return out, nil
}

func (f *FakePages) MarketQuote(ctx context.Context, sym, class string) (market.MarketQuote, error) {
	if sym == "EURUSD" { // a currency pair: prices in the fourth decimal
		return market.MarketQuote{Symbol: sym, Last: decimal.RequireFromString("1.08432"), Change: decimal.RequireFromString("0.00087"),
			ChangePct: decimal.RequireFromString("0.08"), Bid: decimal.RequireFromString("1.08430"), Ask: decimal.RequireFromString("1.08434"),
			Time: T0, Source: f.quoteSource(), Simulated: f.quoteSource() == "simulated"}, nil
	}
	return market.MarketQuote{Symbol: sym, Last: decimal.RequireFromString("187.25"), Change: decimal.RequireFromString("1.75"),
		ChangePct: decimal.RequireFromString("0.94"), Bid: decimal.RequireFromString("187.20"), Ask: decimal.RequireFromString("187.30"),
		Volume: decimal.NewFromInt(48_200_000), Time: T0, Source: f.quoteSource(), Simulated: f.quoteSource() == "simulated"}, nil
}

func (f *FakePages) quoteSource() string {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	if f.QuoteSource == "" {
		return "simulated"
	}
	return f.QuoteSource
}

func (f *FakePages) Candles(ctx context.Context, sym, class, iv string, n int) ([]market.Candle, error) {
	f.Pmu.Lock()
	f.CandleSeries++
	f.Pmu.Unlock()
	closes := fakeCloses(n)
	step := map[string]time.Duration{"1m": time.Minute, "5m": 5 * time.Minute, "1h": time.Hour, "1d": 24 * time.Hour}[iv]
	out := make([]market.Candle, n)
	for i, c := range closes {
		o := c - 1.5
		if i%3 == 0 {
			o = c + 2
		}
		out[i] = market.Candle{Time: T0.Add(time.Duration(i-n) * step), Open: o, Close: c, High: math.Max(o, c) + 1, Low: math.Min(o, c) - 1, Volume: 1000}
	}
	return out, nil
}

var smaRe = regexp.MustCompile(`^SMA\(CLOSE\('([A-Z]+)','(\w+)'\),(\d+)\)$`)

// Indicator evaluates SMA(CLOSE(sym,iv),n) over the fake closes; anything
// else is a formula error, like the real tool's.
func (f *FakePages) Indicator(ctx context.Context, class, formula string, at []time.Time) ([]float64, error) {
	m := smaRe.FindStringSubmatch(strings.ReplaceAll(formula, " ", ""))
	if m == nil {
		return nil, fmt.Errorf("formula error at 0: unsupported in the fake: %s", formula)
	}
	p, _ := strconv.Atoi(m[3])
	closes := fakeCloses(market.CandleCount)
	// As of the k-th last candle's close: the mean of the p closes to it.
	sma := func(end int) float64 {
		if end < p {
			return math.NaN()
		}
		s := 0.0
		for _, c := range closes[end-p : end] {
			s += c
		}
		return s / float64(p)
	}
	if len(at) == 0 {
		return []float64{sma(len(closes))}, nil
	}
	out := make([]float64, len(at))
	for i := range at {
		out[i] = sma(len(closes) - len(at) + i + 1)
	}
	return out, nil
}

func (f *FakePages) SymbolNews(ctx context.Context, sym string, limit int) ([]market.NewsItem, error) {
	return []market.NewsItem{{Title: sym + " beats estimates on services revenue", Source: "wire"}, {Title: "Chip suppliers rally as " + sym + " orders rise", Source: "rss"}}, nil
}

func (f *FakePages) StageOrder(ctx context.Context, t market.OrderTicket) (string, error) {
	f.Pmu.Lock()
	f.Tickets = append(f.Tickets, t)
	f.Pmu.Unlock()
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.PendingCommits = []portfolio.PendingCommit{{Account: t.Account, Hash: "9f8e7d6c", Message: "UI: " + t.Describe(),
		Operations: []string{fmt.Sprintf("placeOrder %s %s %s (%s)", t.Action, t.Quantity, t.Symbol, t.Type)}}}
	return "staged " + t.Describe() + "; commit 9f8e7d6c is waiting for approval in Portfolio", nil
}

func (f *FakePages) IsSimulator(account string) bool { return account == "sim-paper" }

func (f *FakePages) SimPrice(ctx context.Context, account, sym, change string) (string, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	f.Sims = append(f.Sims, "price "+account+" "+sym+" "+change)
	if v, ok := strings.CutPrefix(change, "@"); ok {
		if f.Marks == nil {
			f.Marks = map[string]decimal.Decimal{}
		}
		f.Marks[sym] = decimal.RequireFromString(v)
	}
	return sym + " mark set " + change, nil
}

func (f *FakePages) SimMark(ctx context.Context, account, sym string) (decimal.Decimal, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	if m, ok := f.Marks[sym]; ok {
		return m, nil
	}
	if sym == "EURUSD" {
		return decimal.RequireFromString("1.08432"), nil
	}
	return decimal.RequireFromString("187.25"), nil
}

func (f *FakePages) Watchlist() ([]market.WatchItem, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	return append([]market.WatchItem(nil), f.Watch...), nil
}

func (f *FakePages) WatchAdd(sym, class string) ([]market.WatchItem, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	for _, w := range f.Watch {
		if w.Symbol == sym {
			return append([]market.WatchItem(nil), f.Watch...), nil
		}
	}
	f.Watch = append(f.Watch, market.WatchItem{Symbol: sym, Class: class})
	return append([]market.WatchItem(nil), f.Watch...), nil
}

func (f *FakePages) WatchRemove(sym string) ([]market.WatchItem, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	var out []market.WatchItem
	for _, w := range f.Watch {
		if w.Symbol != sym {
			out = append(out, w)
		}
	}
	f.Watch = out
	return append([]market.WatchItem(nil), f.Watch...), nil
}

func (f *FakePages) SimCash(ctx context.Context, account string, amount decimal.Decimal) (string, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	if amount.LessThan(decimal.NewFromInt(-1_000_000)) {
		return "", errors.New("withdrawal exceeds cash")
	}
	f.Sims = append(f.Sims, "cash "+account+" "+amount.String())
	return "cash " + amount.String(), nil
}

func (f *FakePages) SimFill(ctx context.Context, account, sym string) (string, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	f.Sims = append(f.Sims, "fill "+account+" "+sym)
	return "filled 1 resting order in " + sym, nil
}

func (f *FakePages) SimAdvance(ctx context.Context, account string, d time.Duration) (string, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	f.Sims = append(f.Sims, "advance "+account+" "+d.String())
	return "clock advanced " + d.String(), nil
}

func (f *FakePages) RecentEvents(limit int) ([]activity.ActivityEvent, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	return append([]activity.ActivityEvent(nil), f.evs...), nil
}

func (f *FakePages) ToolCalls(limit int) ([]activity.ToolCallRecord, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	return append([]activity.ToolCallRecord(nil), f.calls...), nil
}

func (f *FakePages) NotificationLog(limit int) ([]activity.NotificationRecord, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	return append([]activity.NotificationRecord(nil), f.notes...), nil
}

func (f *FakePages) MCPEndpoints() mcppage.MCPEndpoints {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	eps := mcppage.MCPEndpoints{Main: "http://127.0.0.1:3001/mcp", Ask: "http://127.0.0.1:3003/mcp"}
	for _, w := range f.Workspace {
		eps.Workspaces = append(eps.Workspaces, mcppage.WorkspaceEndpoint{ID: w.ID, Tag: w.Tag, URL: "http://127.0.0.1:3001/mcp/" + w.ID})
	}
	return eps
}

func (f *FakePages) MCPClients() []mcppage.MCPClient {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	return append([]mcppage.MCPClient(nil), f.clients...)
}

// RetryWork records the retry and answers a new task id, as the queue does.
func (f *FakePages) RetryWork(taskID string) (string, error) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	f.Retried = append(f.Retried, taskID)
	return "retry-" + taskID, nil
}

// AddEvent appends an event as the core would and returns it.
func (f *FakePages) AddEvent(typ, payload string, causedBy int64) activity.ActivityEvent {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	e := activity.ActivityEvent{Seq: f.evs[len(f.evs)-1].Seq + 1, Time: T0.Add(time.Duration(len(f.evs)) * time.Minute), Type: typ, Payload: payload, CausedBy: causedBy}
	f.evs = append(f.evs, e)
	return e
}

// NewPagesHarness is newHarness over fakePages.
func NewPagesHarness(t *testing.T, w, h int) (*Harness, *FakePages) {
	t.Helper()
	f := NewFakePages()
	hs := NewHarnessOver(t, f, f.FakeCore, w, h)
	hs.Run(hs.M.LoadAll())
	return hs, f
}

// AddToolCall records a successful tool call as the newest.
func (f *FakePages) AddToolCall(name, input string) {
	f.Pmu.Lock()
	defer f.Pmu.Unlock()
	n := int64(len(f.calls) + 1)
	f.calls = append(f.calls, activity.ToolCallRecord{Seq: n, Session: "tui/default", Name: name, Input: input, Output: "{}", Time: T0.Add(time.Duration(n) * time.Hour)})
}
