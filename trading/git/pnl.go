package git

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// SessionPnL is what the trades one session staged did: how many fills
// it originated and the profit or loss realised on the lots it opened.
type SessionPnL struct {
	Session     string          `json:"session"`
	Fills       int             `json:"fills"`
	Volume      decimal.Decimal `json:"volume"` // Σ quantity × price of its fills
	RealizedPnL decimal.Decimal `json:"realizedPnL"`
}

// lot is an open quantity at a price, owned by the session that opened it
// (negative quantity: short).
type lot struct {
	qty, price decimal.Decimal
	owner      string
}

// RealizedBySession attributes realised P&L to sessions, first in, first
// out per symbol: a fill that reduces a position closes the oldest lots,
// and each closed piece's profit or loss goes to the session that opened
// that lot (the one whose trade it was). Fills staged outside any session
// (orders placed outside alice, or before provenance was recorded) are
// owned by "external" or "unknown".
func RealizedBySession(commits []Commit) []SessionPnL {
	trades := ProjectTrades(commits, 0)
	sort.SliceStable(trades, func(i, j int) bool { return trades[i].Timestamp.Before(trades[j].Timestamp) })
	by := map[string]*SessionPnL{}
	get := func(k string) *SessionPnL {
		if by[k] == nil {
			by[k] = &SessionPnL{Session: k}
		}
		return by[k]
	}
	book := map[string][]lot{}
	for _, tr := range trades {
		owner := tr.StagedBy.Key()
		if tr.Source == TradeFromExternal {
			owner = "external"
		}
		s := get(owner)
		s.Fills++
		s.Volume = s.Volume.Add(tr.Value)
		sym := strings.ToUpper(tr.Contract.Symbol)
		qty := tr.Quantity
		if tr.Side == trading.Sell {
			qty = qty.Neg()
		}
		lots := book[sym]
		for len(lots) > 0 && !qty.IsZero() && lots[0].qty.Sign() != qty.Sign() {
			l := &lots[0]
			n := decimal.Min(l.qty.Abs(), qty.Abs())
			// long lot closed by a sell: (sell − buy) × n; short lot closed by a buy: (sell − buy) × n too.
			pnl := tr.Price.Sub(l.price).Mul(n)
			if l.qty.IsNegative() {
				pnl = l.price.Sub(tr.Price).Mul(n)
			}
			o := get(l.owner)
			o.RealizedPnL = o.RealizedPnL.Add(pnl)
			if l.qty.IsPositive() {
				l.qty, qty = l.qty.Sub(n), qty.Add(n)
			} else {
				l.qty, qty = l.qty.Add(n), qty.Sub(n)
			}
			if l.qty.IsZero() {
				lots = lots[1:]
			}
		}
		if !qty.IsZero() {
			lots = append(lots, lot{qty: qty, price: tr.Price, owner: owner})
		}
		book[sym] = lots
	}
	out := make([]SessionPnL, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Session < out[j].Session })
	return out
}
