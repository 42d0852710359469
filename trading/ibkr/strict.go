package ibkr

import (
	"fmt"
	"math"
	"strings"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// TWS numbers reach alice as float64 (prices, values) and fixed-point
// Decimal (quantities), with IB's own "unset" markers (Double.MAX_VALUE,
// a NaN Decimal). Where a number must be there — it feeds equity,
// positions, the guards or the staging checks — an unset, NaN or
// infinite value is a BAD_DATA error for that call, never a zero.

func badData(format string, a ...any) error {
	return &broker.Error{Code: broker.CodeBadData, Msg: fmt.Sprintf(format, a...)}
}

// usable reports whether f is a real number TWS set.
func usable(f float64) bool {
	return f != ibapi.UNSET_FLOAT && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// required converts a float TWS must have set.
func required(field, sym string, f float64) (decimal.Decimal, error) {
	if !usable(f) {
		return decimal.Zero, badData("TWS sent no usable %s for %s (%s)", field, sym, floatText(f))
	}
	return decimal.NewFromFloat(f), nil
}

func floatText(f float64) string {
	if f == ibapi.UNSET_FLOAT {
		return "unset"
	}
	return fmt.Sprint(f)
}

// decimalOf converts an IB Decimal; ok is false when it is unset.
func decimalOf(d ibapi.Decimal) (decimal.Decimal, bool) {
	if d == ibapi.UNSET_DECIMAL {
		return decimal.Zero, false
	}
	v, err := decimal.NewFromString(d.String())
	if err != nil {
		return decimal.Zero, false
	}
	return v, true
}

// detailsOf builds the contract specification staging checks orders
// against. The minimum tick must be a positive number. The lot is IB's
// size increment and the minimum its minimum size; when IB sends no
// increment (absent, or zero), the lot is one whole unit — the documented fallback, which refuses
// fractions rather than sending a size IB may not accept. Stocks always
// trade in whole shares (Declared).
func detailsOf(d ibapi.ContractDetails, c trading.Contract, types []trading.OrderType) (*trading.ContractDetails, error) {
	sym := c.Symbol
	tick, err := required("minimum tick", sym, d.MinTick)
	if err != nil {
		return nil, err
	}
	if !tick.IsPositive() {
		return nil, badData("TWS sent a minimum tick of %s for %s; alice cannot check prices against it", tick, sym)
	}
	one := decimal.NewFromInt(1)
	lot, hasInc := decimalOf(d.SizeIncrement)
	minQty, hasMin := decimalOf(d.MinSize)
	if hasInc && lot.IsNegative() {
		return nil, badData("TWS sent a size increment of %s for %s", lot, sym)
	}
	// zero is how the protobuf wire decodes an absent increment (and how
	// the API library's 7-decimal Decimal holds one finer than that)
	hasInc = hasInc && lot.IsPositive()
	if hasMin && minQty.IsNegative() {
		return nil, badData("TWS sent a minimum size of %s for %s", minQty, sym)
	}
	if !hasInc {
		lot = one
	}
	if !hasMin {
		minQty = decimal.Zero
	}
	if c.AssetClass == trading.Equity && lot.LessThan(one) {
		lot = one
		if minQty.LessThan(one) {
			minQty = decimal.Zero
		}
	}
	mult := d.Contract.Multiplier
	if mult == "" {
		mult = "1"
	}
	return &trading.ContractDetails{Contract: c, MinTick: tick, LotSize: lot, MinQty: minQty, Multiplier: mult, Tradable: true,
		Fractionable: lot.LessThan(one), OrderTypes: types}, nil
}

// positionOf converts one updatePortfolio row. Quantity, market price,
// market value and average cost must be set; unrealized and realized P&L
// that IB leaves unset ("not available") are zero, a NaN there is still
// an error.
func positionOf(r portfolioRow) (trading.Position, error) {
	sym := r.contract.Symbol
	qty, ok := decimalOf(r.qty)
	if !ok {
		return trading.Position{}, badData("TWS sent no usable position size for %s", sym)
	}
	p := trading.Position{Currency: r.contract.Currency, Side: trading.Long, Quantity: qty.Abs()}
	if qty.IsNegative() {
		p.Side = trading.Short
	}
	var err error
	for _, f := range []struct {
		name string
		v    float64
		dst  *decimal.Decimal
	}{{"marketPrice", r.price, &p.MarketPrice}, {"marketValue", r.value, &p.MarketValue}, {"averageCost", r.avgCost, &p.AvgCost}} {
		if *f.dst, err = required(f.name, sym, f.v); err != nil {
			return trading.Position{}, err
		}
	}
	for _, f := range []struct {
		name string
		v    float64
		dst  *decimal.Decimal
	}{{"unrealizedPNL", r.unreal, &p.UnrealizedPnL}, {"realizedPNL", r.realized, &p.RealizedPnL}} {
		if f.v == ibapi.UNSET_FLOAT {
			continue
		}
		if *f.dst, err = required(f.name, sym, f.v); err != nil {
			return trading.Position{}, err
		}
	}
	p.Multiplier = r.contract.Multiplier
	if p.Multiplier == "" || p.Multiplier == "0" { // IB's "none" for stocks and forex
		p.Multiplier = "1"
	}
	return p, nil
}

// wireFloat converts a price or amount for TWS, whose API takes doubles:
// one a double cannot carry exactly is refused rather than rounded.
func wireFloat(field string, d decimal.Decimal) (float64, error) {
	f := d.InexactFloat64()
	if !decimal.NewFromFloat(f).Equal(d) {
		return 0, &broker.Error{Code: broker.CodeExchange, Msg: fmt.Sprintf("%s %s cannot be sent to IB exactly (its API takes prices as doubles; nearest %s): round it", field, d, strings.TrimRight(decimal.NewFromFloat(f).String(), "."))}
	}
	return f, nil
}
