package live

import (
	"context"

	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/tui/portfolio"
)

var _ portfolio.HistoryCore = (*Core)(nil)

// by names who staged an order: a person, else the session or channel.
func by(p *git.Provenance) string {
	switch {
	case p == nil:
		return ""
	case p.Person:
		return "person"
	}
	return p.Key()
}

// OrderHistory is the account's orderHistory view (tui/portfolio.HistoryCore).
func (c *Core) OrderHistory(account string, limit int) ([]portfolio.HistoryOrder, error) {
	rows, err := c.trading.OrderHistory(account, limit)
	if err != nil {
		return nil, err
	}
	out := make([]portfolio.HistoryOrder, 0, len(rows))
	for _, r := range rows {
		out = append(out, portfolio.HistoryOrder{Time: r.Timestamp, ID: r.OrderID, Side: string(r.Side), Symbol: r.Contract.Symbol,
			Type: string(r.OrderType), Quantity: r.Quantity, Filled: r.FilledQty, AvgPrice: r.AvgFillPrice, Status: string(r.Status),
			External: r.Source == git.SourceExternal, By: by(r.StagedBy)})
	}
	return out, nil
}

// TradeHistory is the account's tradeHistory view.
func (c *Core) TradeHistory(account string, limit int) ([]portfolio.HistoryTrade, error) {
	rows, err := c.trading.TradeHistory(account, limit)
	if err != nil {
		return nil, err
	}
	out := make([]portfolio.HistoryTrade, 0, len(rows))
	for _, r := range rows {
		out = append(out, portfolio.HistoryTrade{Time: r.Timestamp, Side: string(r.Side), Symbol: r.Contract.Symbol, Quantity: r.Quantity,
			Price: r.Price, Value: r.Value, External: r.Source == git.TradeFromExternal, By: by(r.StagedBy)})
	}
	return out, nil
}

// SessionCosts is sessionCosts for the account: every session's tokens and
// cost, with the fills and realised P&L of its trades on this account.
func (c *Core) SessionCosts(ctx context.Context, account string) ([]portfolio.SessionCost, error) {
	rows, err := c.a.SessionCosts(ctx, account)
	if err != nil {
		return nil, err
	}
	out := make([]portfolio.SessionCost, 0, len(rows))
	for _, r := range rows {
		sc := portfolio.SessionCost{Session: r.Session, Turns: r.Turns, InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
			CostUSD: r.CostUSD, Unpriced: r.UnpricedTurns, Unreported: r.UnreportedTurns}
		for _, p := range r.RealizedPnL {
			if p.Account == account {
				sc.Fills += p.Fills
				sc.Realized = sc.Realized.Add(p.Realized)
				sc.Currency = p.Currency
			}
		}
		out = append(out, sc)
	}
	return out, nil
}
