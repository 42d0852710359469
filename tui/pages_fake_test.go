package tui

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

	"github.com/shopspring/decimal"
)

// fakePages extends fakeCore with the Market, Simulator, Activity and MCP
// interfaces, so the new panes are tested without growing fake_test.go.
type fakePages struct {
	*fakeCore
	pmu     sync.Mutex
	tickets []OrderTicket
	candles int // Candles calls
	sims    []string
	evs     []ActivityEvent
	calls   []ToolCallRecord
	notes   []NotificationRecord
	clients []MCPClient
}

var (
	_ MarketCore   = (*fakePages)(nil)
	_ SimCore      = (*fakePages)(nil)
	_ ActivityCore = (*fakePages)(nil)
	_ MCPCore      = (*fakePages)(nil)
)

func newFakePages() *fakePages {
	f := &fakePages{fakeCore: newFakeCore()}
	f.evs = []ActivityEvent{
		{Seq: 1, Time: t0, Type: "cron.fire", Payload: `{"jobId":"j1","jobName":"morning","payload":"check AAPL"}`},
		{Seq: 2, Time: t0.Add(time.Second), Type: "agent.work.requested", Payload: `{"source":"cron","prompt":"check AAPL"}`, CausedBy: 1},
		{Seq: 3, Time: t0.Add(4 * time.Second), Type: "agent.work.done", Payload: `{"source":"cron","reply":"AAPL is up","durationMs":3000,"delivered":true,"channel":"tui"}`, CausedBy: 2},
		{Seq: 4, Time: t0.Add(time.Minute), Type: "trade.commit", Payload: `{"accountId":"sim-paper","hash":"4d46698f"}`},
	}
	f.calls = []ToolCallRecord{
		{Seq: 1, Session: "cron/default", Name: "calculateIndicator", Input: `{"asset":"equity","formula":"RSI(CLOSE('AAPL','1d'),14)"}`, Output: `{"value":61.2}`, Duration: 12 * time.Millisecond, Time: t0.Add(2 * time.Second)},
		{Seq: 2, Session: "tui/default", Name: "placeOrder", Input: `{"source":"sim-paper","aliceId":"sim-paper|AAPL"}`, Output: `guard rejected: max order value`, Error: true, Duration: 3 * time.Millisecond, Time: t0.Add(time.Minute)},
	}
	f.notes = []NotificationRecord{
		{Time: t0.Add(4 * time.Second), Text: "AAPL is up", Source: "cron", Channel: "tui", Delivered: true},
		{Time: t0.Add(5 * time.Minute), Text: "Heartbeat: nothing to report", Source: "heartbeat"},
	}
	f.clients = []MCPClient{{SessionID: "s1", Endpoint: "/mcp", Name: "alice-blackbox", Version: "1.0.0", Connected: t0.Add(-time.Minute),
		LastCall: t0.Add(-10 * time.Second), Calls: map[string]int{"listUTAs": 2, "calculateIndicator": 1}}}
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

func (f *fakePages) SearchSymbols(ctx context.Context, q string) ([]MarketInstrument, error) {
	all := []MarketInstrument{{Symbol: "AAPL", Name: "Apple Inc.", Class: "equity"}, {Symbol: "AMZN", Name: "Amazon.com", Class: "equity"},
		{Symbol: "BTCUSD", Name: "Bitcoin", Class: "crypto"}}
	var out []MarketInstrument
	for _, in := range all {
		if strings.Contains(strings.ToLower(in.Symbol+" "+in.Name), strings.ToLower(q)) {
			out = append(out, in)
		}
	}
	return out, nil
}

func (f *fakePages) MarketQuote(ctx context.Context, sym, class string) (MarketQuote, error) {
	return MarketQuote{Symbol: sym, Last: decimal.RequireFromString("187.25"), Change: decimal.RequireFromString("1.75"),
		ChangePct: decimal.RequireFromString("0.94"), Bid: decimal.RequireFromString("187.20"), Ask: decimal.RequireFromString("187.30"),
		Volume: decimal.NewFromInt(48_200_000), Time: t0}, nil
}

func (f *fakePages) Candles(ctx context.Context, sym, class, iv string, n int) ([]Candle, error) {
	f.pmu.Lock()
	f.candles++
	f.pmu.Unlock()
	closes := fakeCloses(n)
	step := map[string]time.Duration{"1m": time.Minute, "5m": 5 * time.Minute, "1h": time.Hour, "1d": 24 * time.Hour}[iv]
	out := make([]Candle, n)
	for i, c := range closes {
		o := c - 1.5
		if i%3 == 0 {
			o = c + 2
		}
		out[i] = Candle{Time: t0.Add(time.Duration(i-n) * step), Open: o, Close: c, High: math.Max(o, c) + 1, Low: math.Min(o, c) - 1, Volume: 1000}
	}
	return out, nil
}

var smaRe = regexp.MustCompile(`^SMA\(CLOSE\('([A-Z]+)','(\w+)'\),(\d+)\)$`)

// Indicator evaluates SMA(CLOSE(sym,iv),n) over the fake closes; anything
// else is a formula error, like the real tool's.
func (f *fakePages) Indicator(ctx context.Context, class, formula string, at []time.Time) ([]float64, error) {
	m := smaRe.FindStringSubmatch(strings.ReplaceAll(formula, " ", ""))
	if m == nil {
		return nil, fmt.Errorf("formula error at 0: unsupported in the fake: %s", formula)
	}
	p, _ := strconv.Atoi(m[3])
	closes := fakeCloses(candleCount)
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

func (f *fakePages) SymbolNews(ctx context.Context, sym string, limit int) ([]NewsItem, error) {
	return []NewsItem{{Title: sym + " beats estimates on services revenue", Source: "wire"}, {Title: "Chip suppliers rally as " + sym + " orders rise", Source: "rss"}}, nil
}

func (f *fakePages) StageOrder(ctx context.Context, t OrderTicket) (string, error) {
	f.pmu.Lock()
	f.tickets = append(f.tickets, t)
	f.pmu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = []PendingCommit{{Account: t.Account, Hash: "9f8e7d6c", Message: "UI: " + t.describe(),
		Operations: []string{fmt.Sprintf("placeOrder %s %s %s (%s)", t.Action, t.Quantity, t.Symbol, t.Type)}}}
	return "staged " + t.describe() + "; commit 9f8e7d6c is waiting for approval in Portfolio", nil
}

func (f *fakePages) IsSimulator(account string) bool { return account == "sim-paper" }

func (f *fakePages) SimPrice(ctx context.Context, account, sym, change string) (string, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	f.sims = append(f.sims, "price "+account+" "+sym+" "+change)
	return sym + " mark set " + change, nil
}

func (f *fakePages) SimCash(ctx context.Context, account string, amount decimal.Decimal) (string, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	if amount.LessThan(decimal.NewFromInt(-1_000_000)) {
		return "", errors.New("withdrawal exceeds cash")
	}
	f.sims = append(f.sims, "cash "+account+" "+amount.String())
	return "cash " + amount.String(), nil
}

func (f *fakePages) SimFill(ctx context.Context, account, sym string) (string, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	f.sims = append(f.sims, "fill "+account+" "+sym)
	return "filled 1 resting order in " + sym, nil
}

func (f *fakePages) SimAdvance(ctx context.Context, account string, d time.Duration) (string, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	f.sims = append(f.sims, "advance "+account+" "+d.String())
	return "clock advanced " + d.String(), nil
}

func (f *fakePages) RecentEvents(limit int) ([]ActivityEvent, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	return append([]ActivityEvent(nil), f.evs...), nil
}

func (f *fakePages) ToolCalls(limit int) ([]ToolCallRecord, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	return append([]ToolCallRecord(nil), f.calls...), nil
}

func (f *fakePages) NotificationLog(limit int) ([]NotificationRecord, error) {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	return append([]NotificationRecord(nil), f.notes...), nil
}

func (f *fakePages) MCPEndpoints() MCPEndpoints {
	return MCPEndpoints{Main: "http://127.0.0.1:3001/mcp", Ask: "http://127.0.0.1:3003/mcp",
		Workspaces: []WorkspaceEndpoint{{ID: "ws1", Tag: "research-aapl", URL: "http://127.0.0.1:3001/mcp/ws1"}}}
}

func (f *fakePages) MCPClients() []MCPClient {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	return append([]MCPClient(nil), f.clients...)
}

// addEvent appends an event as the core would and returns it.
func (f *fakePages) addEvent(typ, payload string, causedBy int64) ActivityEvent {
	f.pmu.Lock()
	defer f.pmu.Unlock()
	e := ActivityEvent{Seq: f.evs[len(f.evs)-1].Seq + 1, Time: t0.Add(time.Duration(len(f.evs)) * time.Minute), Type: typ, Payload: payload, CausedBy: causedBy}
	f.evs = append(f.evs, e)
	return e
}

// newPagesHarness is newHarness over fakePages.
func newPagesHarness(t *testing.T, w, h int) (*harness, *fakePages) {
	t.Helper()
	f := newFakePages()
	hs := newHarnessOver(t, f, f.fakeCore, w, h)
	hs.run(hs.m.loadAll())
	return hs, f
}
