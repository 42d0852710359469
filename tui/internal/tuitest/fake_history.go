package tuitest

import (
	"context"
	"time"

	"github.com/alice-trading/alice/tui/portfolio"
	"github.com/shopspring/decimal"
)

var _ portfolio.HistoryCore = (*FakeCore)(nil)

// OrderHistory: an agent's filled buy, an order placed on the venue's own
// app (external), a person's rejected order and a resting limit order.
func (f *FakeCore) OrderHistory(account string, limit int) ([]portfolio.HistoryOrder, error) {
	if err := f.known(account); err != nil {
		return nil, err
	}
	d := decimal.RequireFromString
	rows := []portfolio.HistoryOrder{
		{Time: T0.Add(50 * time.Minute), ID: "mock-ord-2", Side: "BUY", Symbol: "TSLA", Type: "LMT", Quantity: d("3"), Status: "submitted", By: "tui/default"},
		{Time: T0.Add(40 * time.Minute), ID: "ext-77", Side: "SELL", Symbol: "MSFT", Type: "MKT", Quantity: d("1"), Filled: d("1"), AvgPrice: d("402.10"), Status: "filled", External: true},
		{Time: T0.Add(20 * time.Minute), Side: "BUY", Symbol: "NVDA", Type: "MKT", Quantity: d("4"), Status: "user-rejected", By: "person"},
		{Time: T0, ID: "mock-ord-1", Side: "BUY", Symbol: "MSFT", Type: "MKT", Quantity: d("5"), Filled: d("5"), AvgPrice: d("400"), Status: "filled", By: "cron/default"},
	}
	return rows[:min(limit, len(rows))], nil
}

// TradeHistory: the fills of the orders above.
func (f *FakeCore) TradeHistory(account string, limit int) ([]portfolio.HistoryTrade, error) {
	d := decimal.RequireFromString
	rows := []portfolio.HistoryTrade{
		{Time: T0.Add(40 * time.Minute), Side: "SELL", Symbol: "MSFT", Quantity: d("1"), Price: d("402.10"), Value: d("402.10"), External: true},
		{Time: T0, Side: "BUY", Symbol: "MSFT", Quantity: d("5"), Price: d("400"), Value: d("2000"), By: "cron/default"},
	}
	return rows[:min(limit, len(rows))], nil
}

// SessionCosts: the cron session that bought MSFT and a chat session that
// only talked (no fills), plus the external session's realised sale and
// a session on a backend that reports no token usage.
func (f *FakeCore) SessionCosts(ctx context.Context, account string) ([]portfolio.SessionCost, error) {
	d := decimal.RequireFromString
	return []portfolio.SessionCost{
		{Session: "cron/default", Turns: 6, InputTokens: 48_210, OutputTokens: 1_930, CostUSD: d("0.0084"), Fills: 1, Realized: d("10.50"), Currency: "USD"},
		{Session: "external", Fills: 1, Realized: d("-3.25"), Currency: "USD"},
		{Session: "tui/default", Turns: 3, InputTokens: 9_400, OutputTokens: 620, CostUSD: d("0.0018"), Unpriced: 1},
		{Session: "telegram/1", Turns: 2, Unreported: 2}, // a backend that reports no usage (mock LLM, CLI)
	}, nil
}
