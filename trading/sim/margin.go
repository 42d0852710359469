package sim

import (
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// The simulator's margin model. With presetConfig "leverage" 1 (the
// default) the account is a cash account: buys need the cash, positions
// carry no risk block (never an implied 1×). Above 1 it is a cross-margin
// account, long only (the simulator does not sell short):
//
//   - initial margin: after a buy, equity must cover the gross position
//     value divided by the leverage (equity ≥ gross / leverage); the cash
//     balance may go negative (borrowed);
//   - maintenance margin rate: half the initial rate, 1 / (2 × leverage);
//   - each position reports leverage, marginMode "cross" and its
//     liquidation price: the price of that symbol, others unchanged, at
//     which equity falls to the maintenance margin. A position that no
//     price above zero liquidates (fully paid) reports none;
//   - buying power is equity × leverage − gross value.
//
// The simulator reports the liquidation price; it does not force-close a
// position that crosses it (a paper account, and a person decides).

// MaxLeverage bounds presetConfig "leverage".
var maxLeverage = decimal.NewFromInt(100)

// leverage is the account's leverage (1 for a cash account).
func (b *Broker) leverage() decimal.Decimal {
	if b.opts.Leverage.GreaterThan(decimal.NewFromInt(1)) {
		return b.opts.Leverage
	}
	return decimal.NewFromInt(1)
}

func (b *Broker) margined() bool { return b.leverage().GreaterThan(decimal.NewFromInt(1)) }

// maintenanceRate is 1 / (2 × leverage).
func (b *Broker) maintenanceRate() decimal.Decimal {
	return decimal.NewFromInt(1).DivRound(b.leverage().Mul(decimal.NewFromInt(2)), 12)
}

// exposure is equity (cash + market values) and gross position value at
// the marks.
func exposure(cash decimal.Decimal, pos []trading.Position) (equity, gross decimal.Decimal) {
	equity = cash
	for _, p := range pos {
		equity = equity.Add(p.MarketValue)
		gross = gross.Add(p.MarketValue.Abs())
	}
	return equity, gross
}

// checkMarginLocked refuses a buy of value that would leave equity below
// the initial margin of the gross value after it.
func (b *Broker) checkMarginLocked(value decimal.Decimal) error {
	pos, err := b.positionsLocked()
	if err != nil {
		return err
	}
	equity, gross := exposure(b.st.Cash, pos)
	need := gross.Add(value).DivRound(b.leverage(), 8)
	if equity.LessThan(need) {
		power := decimal.Max(decimal.Zero, equity.Mul(b.leverage()).Sub(gross))
		return rejectErr("insufficient margin: %s more at %s× leverage needs equity %s, have %s (buying power %s)",
			value.StringFixed(2), b.leverage(), need.StringFixed(2), equity.StringFixed(2), power.StringFixed(2))
	}
	return nil
}

// addRisk sets each position's risk block on a margined account.
func (b *Broker) addRisk(cash decimal.Decimal, pos []trading.Position) {
	if !b.margined() {
		return
	}
	equity, gross := exposure(cash, pos)
	mm := b.maintenanceRate()
	one := decimal.NewFromInt(1)
	for i := range pos {
		p := &pos[i]
		liq := decimal.Zero
		if p.Quantity.IsPositive() {
			// equity + q(x−m) = mm·(gross + q(x−m))  ⇒  x = m + (mm·gross − equity) / (q·(1−mm))
			x := p.MarketPrice.Add(mm.Mul(gross).Sub(equity).DivRound(p.Quantity.Mul(one.Sub(mm)), 12))
			if x.IsPositive() {
				liq = x.Round(4)
			}
		}
		p.Risk = trading.NewPositionRisk(b.leverage(), liq, trading.Cross)
	}
}

// buyingPower is cash on a cash account, else equity × leverage − gross.
func (b *Broker) buyingPower(cash decimal.Decimal, pos []trading.Position) decimal.Decimal {
	if !b.margined() {
		return cash
	}
	equity, gross := exposure(cash, pos)
	return decimal.Max(decimal.Zero, equity.Mul(b.leverage()).Sub(gross))
}
