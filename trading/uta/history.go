package uta

import (
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
