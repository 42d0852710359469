package portfolio

import (
	"context"
	"time"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/shopspring/decimal"
)

// portfolioCore is what the Portfolio pane needs from alice.
type Core interface {
	Accounts() ([]AccountSummary, error)
	Positions(account string) ([]Position, error)
	Orders(account string) ([]Order, error)
	Pending() ([]PendingCommit, error)
	// Approve and Reject decide the commit with hash — the one the person
	// was shown; the core refuses if the account's commit changed since.
	Approve(ctx context.Context, account, hash string) (string, error)
	Reject(ctx context.Context, account, hash, reason string) error
	TradingLog(account string, limit int) ([]CommitLogEntry, error)
	EquityCurve(account string) ([]kit.EquityPoint, error)
}

// AccountSummary is one trading account's headline numbers.
type AccountSummary struct {
	ID            string
	Label         string
	Broker        string
	Health        string
	AutoApprove   bool
	NetLiq        decimal.Decimal
	Cash          decimal.Decimal
	UnrealizedPnL decimal.Decimal
	RealizedPnL   decimal.Decimal
	Error         string
}

// Position is one holding.
type Position struct {
	Symbol        string
	Side          string
	Quantity      decimal.Decimal
	AvgCost       decimal.Decimal
	MarketPrice   decimal.Decimal
	MarketValue   decimal.Decimal
	UnrealizedPnL decimal.Decimal
}

// Order is one open order.
type Order struct {
	ID       string
	Symbol   string
	Action   string
	Type     string
	Quantity decimal.Decimal
	Limit    decimal.Decimal
	Status   string
}

// PendingCommit awaits a person's approval.
type PendingCommit struct {
	Account    string
	Hash       string
	Message    string
	Operations []string
	// Evidence is what a person judges the commit by (built by the trading
	// domain, rendered as is): per operation the notional at the current
	// quote, position and cash after, each guard's verdict with headroom,
	// the time in force and who staged it. Empty: only Operations show.
	Evidence string
}

// CommitLogEntry is one Trading-as-Git commit.
type CommitLogEntry struct {
	Hash    string
	Message string
	Time    time.Time
	Changes []string
}
