package uta

import (
	"context"
	"sort"

	"github.com/alice-trading/alice/trading/git"
)

// AccountOrder is an order-history row tagged with its account.
type AccountOrder struct {
	Account string `json:"account"`
	git.OrderHistoryEntry
}

// AccountTrade is a trade-history row tagged with its account.
type AccountTrade struct {
	Account string `json:"account"`
	git.TradeHistoryEntry
}

// OrderHistory merges the matching accounts' order views, newest first,
// at most limit rows per account (OpenAlice's orderHistory).
func (m *Manager) OrderHistory(source string, limit int) ([]AccountOrder, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	out := []AccountOrder{}
	for _, u := range utas {
		for _, e := range u.git.OrderHistory(limit) {
			out = append(out, AccountOrder{Account: u.ID(), OrderHistoryEntry: e})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	return out, nil
}

// TradeHistory merges the matching accounts' fills, newest first, at most
// limit rows per account (OpenAlice's tradeHistory).
func (m *Manager) TradeHistory(source string, limit int) ([]AccountTrade, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	out := []AccountTrade{}
	for _, u := range utas {
		for _, e := range u.git.TradeHistory(limit) {
			out = append(out, AccountTrade{Account: u.ID(), TradeHistoryEntry: e})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Timestamp.After(out[j].Timestamp) })
	return out, nil
}

// AccountSessionPnL is one session's trading on one account.
type AccountSessionPnL struct {
	Account  string `json:"account"`
	Currency string `json:"currency,omitempty"`
	git.SessionPnL
}

// SessionPnL attributes each matching account's fills and realised P&L
// to the sessions that staged them (git.RealizedBySession).
func (m *Manager) SessionPnL(ctx context.Context, source string) ([]AccountSessionPnL, error) {
	utas, err := m.Resolve(source)
	if err != nil {
		return nil, err
	}
	out := []AccountSessionPnL{}
	for _, u := range utas {
		ccy := ""
		if a, err := u.Account(ctx); err == nil {
			ccy = a.BaseCurrency
		}
		for _, s := range git.RealizedBySession(u.git.Commits()) {
			out = append(out, AccountSessionPnL{Account: u.ID(), Currency: ccy, SessionPnL: s})
		}
	}
	return out, nil
}
