package trading

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// The one order model's bounds. Every surface (MCP tools, chat, the Market
// pane, Telegram) stages through the same validation, and every broker and
// guard reads the order it produced, so these limits hold everywhere.
const (
	// MaxNumberChars bounds a decimal string before it is parsed, so a
	// megabyte of digits is refused without being converted.
	MaxNumberChars = 32
	// MaxSignificantDigits bounds any decimal field of an order.
	MaxSignificantDigits = 18
	// MaxDecimalPlaces bounds decimals when the instrument says nothing
	// finer (its lot or tick size decides when it does).
	MaxDecimalPlaces = 10
	// CashPlaces is how many decimals a cash amount (cashQty) may carry.
	CashPlaces = 2
)

// Upper bounds no real order reaches; a value above one is a mistake.
var (
	MaxQuantity = decimal.New(1, 12) // 1,000,000,000,000 units
	MaxPrice    = decimal.New(1, 12)
	MaxCash     = decimal.New(1, 12)
	MaxTrailPct = decimal.NewFromInt(100)
)

// ParsePositive parses a decimal string that must be > 0; "" is unset and
// yields zero. This is the "positiveNumeric" of the tool schemas. The
// string's length is checked before it is parsed, and the value is bounded
// in significant digits and decimal places.
func ParsePositive(field, s string) (decimal.Decimal, error) {
	if len(s) > 4*MaxNumberChars {
		return decimal.Zero, fmt.Errorf("%s: a number of %d characters is too long (at most %d)", field, len(s), MaxNumberChars)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Zero, nil
	}
	if len(s) > MaxNumberChars {
		return decimal.Zero, fmt.Errorf("%s: a number of %d characters is too long (at most %d)", field, len(s), MaxNumberChars)
	}
	if strings.ContainsAny(s, "eE") {
		return decimal.Zero, fmt.Errorf("%s: %q: write the number out in plain decimal notation (no exponent)", field, s)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, fmt.Errorf("%s: %q is not a decimal number", field, s)
	}
	if !d.IsPositive() {
		return decimal.Zero, fmt.Errorf("%s: must be > 0, got %s", field, s)
	}
	return d, checkDigits(field, d, MaxDecimalPlaces)
}

// places is the number of decimal places d needs (trailing zeros ignored).
func places(d decimal.Decimal) int32 {
	s := d.String()
	if !strings.Contains(s, ".") {
		return 0
	}
	return int32(len(strings.TrimRight(s[strings.Index(s, ".")+1:], "0")))
}

// significant counts d's significant digits (trailing zeros of the
// fraction ignored).
func significant(d decimal.Decimal) int {
	s := d.Abs().String()
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
	}
	s = strings.TrimLeft(strings.ReplaceAll(s, ".", ""), "0")
	return len(s)
}

func checkDigits(field string, d decimal.Decimal, maxPlaces int32) error {
	if p := places(d); p > maxPlaces {
		return fmt.Errorf("%s: %s has %d decimal places (at most %d)", field, d, p, maxPlaces)
	}
	if n := significant(d); n > MaxSignificantDigits {
		return fmt.Errorf("%s: %s has %d significant digits (at most %d)", field, d, n, MaxSignificantDigits)
	}
	return nil
}

// decimalField is one of an order's numeric fields with its name and
// ceiling.
type decimalField struct {
	name string
	v    decimal.Decimal
	max  decimal.Decimal
}

func (o Order) fields() []decimalField {
	return []decimalField{
		{"totalQuantity", o.TotalQuantity, MaxQuantity}, {"cashQty", o.CashQty, MaxCash},
		{"lmtPrice", o.LmtPrice, MaxPrice}, {"auxPrice", o.AuxPrice, MaxPrice},
		{"trailStopPrice", o.TrailStopPrice, MaxPrice}, {"trailingPercent", o.TrailingPercent, MaxTrailPct},
	}
}

// Validate checks the fields an order type needs and the bounds every
// order obeys: exactly one of totalQuantity and cashQty decides the fill,
// nothing is negative, nothing is absurd, and TIF is explicit.
func (o Order) Validate() error {
	if _, err := ParseAction(string(o.Action)); err != nil {
		return err
	}
	if _, err := ParseOrderType(string(o.OrderType)); err != nil {
		return err
	}
	if o.TIF != "" {
		if _, err := ParseTIF(string(o.TIF)); err != nil {
			return err
		}
	}
	for _, f := range o.fields() {
		if f.v.IsNegative() {
			return fmt.Errorf("%s: must be > 0, got %s", f.name, f.v)
		}
		if f.v.GreaterThan(f.max) {
			return fmt.Errorf("%s: %s is above the limit %s", f.name, f.v, f.max)
		}
		if !f.v.IsZero() {
			if err := checkDigits(f.name, f.v, MaxDecimalPlaces); err != nil {
				return err
			}
		}
	}
	switch {
	case o.TotalQuantity.IsZero() && o.CashQty.IsZero():
		return fmt.Errorf("totalQuantity or cashQty is required")
	case !o.TotalQuantity.IsZero() && !o.CashQty.IsZero():
		return fmt.Errorf("set exactly one of totalQuantity (units) and cashQty (an amount of money), not both: " +
			"the one you set is what executes and what the guards value")
	}
	if p := places(o.CashQty); p > CashPlaces {
		return fmt.Errorf("cashQty: %s has %d decimal places (at most %d)", o.CashQty, p, CashPlaces)
	}
	if o.TrailingPercent.GreaterThanOrEqual(MaxTrailPct) {
		return fmt.Errorf("trailingPercent: %s must be below %s", o.TrailingPercent, MaxTrailPct)
	}
	if o.TIF == GTD && o.GoodTillDate == "" {
		return fmt.Errorf("tif GTD needs goodTillDate")
	}
	switch o.OrderType {
	case Limit:
		if !o.LmtPrice.IsPositive() {
			return fmt.Errorf("LMT orders need lmtPrice")
		}
	case Stop:
		if !o.AuxPrice.IsPositive() {
			return fmt.Errorf("STP orders need auxPrice (the stop price)")
		}
	case StopLimit:
		if !o.AuxPrice.IsPositive() || !o.LmtPrice.IsPositive() {
			return fmt.Errorf("STP LMT orders need auxPrice and lmtPrice")
		}
	case Trail, TrailLimit:
		if !o.TrailStopPrice.IsPositive() && !o.TrailingPercent.IsPositive() {
			return fmt.Errorf("%s orders need trailStopPrice or trailingPercent", o.OrderType)
		}
	}
	return nil
}

// ValidateFor checks an order against the instrument it trades: the
// quantity is a whole number of lots and at least the minimum, prices sit
// on the tick grid, and a non-fractionable instrument gets whole units.
// Messages name the field, the instrument and the limit.
func (o Order) ValidateFor(d ContractDetails) error {
	sym := d.Contract.Symbol
	if !o.TotalQuantity.IsZero() {
		if err := d.CheckQuantity("totalQuantity", o.TotalQuantity); err != nil {
			return err
		}
	}
	if tick := d.MinTick; tick.IsPositive() {
		for _, f := range []decimalField{{"lmtPrice", o.LmtPrice, MaxPrice}, {"auxPrice", o.AuxPrice, MaxPrice}, {"trailStopPrice", o.TrailStopPrice, MaxPrice}} {
			if !f.v.IsZero() && !f.v.Mod(tick).IsZero() {
				return fmt.Errorf("%s: %s is not a multiple of %s's tick size %s", f.name, f.v, sym, tick)
			}
		}
	}
	return nil
}

// LotStep is the quantity increment of the instrument: its declared lot
// size, else 1 for a non-fractionable instrument, else 10^-MaxDecimalPlaces.
func (d ContractDetails) LotStep() decimal.Decimal {
	switch {
	case d.LotSize.IsPositive():
		return d.LotSize
	case !d.Fractionable:
		return decimal.NewFromInt(1)
	}
	return decimal.New(1, -MaxDecimalPlaces)
}

// CheckQuantity checks a quantity (an order's, or a partial close's)
// against the lot step and the minimum.
func (d ContractDetails) CheckQuantity(field string, q decimal.Decimal) error {
	sym := d.Contract.Symbol
	step := d.LotStep()
	if !q.Mod(step).IsZero() {
		if step.Equal(decimal.NewFromInt(1)) {
			return fmt.Errorf("%s: %s is not a whole number; %s trades in whole units here (no fractional quantities)", field, q, sym)
		}
		return fmt.Errorf("%s: %s is not a multiple of %s's lot size %s", field, q, sym, step)
	}
	if d.MinQty.IsPositive() && q.LessThan(d.MinQty) {
		return fmt.Errorf("%s: %s is below %s's minimum quantity %s", field, q, sym, d.MinQty)
	}
	return nil
}

// FillPrice is the price an order can fill at, valued conservatively from
// the quote: a buy at its limit (it never pays more), a stop at the worse
// of its stop and the ask, and a market or trailing order at the ask; a
// sell at the better of its price and the bid (the most it can bring in).
// Zero when neither the order nor the quote says.
func (o Order) FillPrice(q Quote) decimal.Decimal {
	touch := q.Ask
	if o.Action == Sell {
		touch = q.Bid
	}
	if !touch.IsPositive() {
		touch = q.Last
	}
	var px decimal.Decimal
	switch o.OrderType {
	case Limit, StopLimit, TrailLimit:
		px = o.LmtPrice
		if o.Action == Sell {
			px = decimal.Max(px, touch)
		}
	case Stop:
		px = decimal.Max(o.AuxPrice, touch)
	default:
		px = touch
	}
	if o.OrderType == TrailLimit && !px.IsPositive() {
		px = touch
	}
	return px
}

// Notional is what the order will execute for: a cash order's cash, else
// quantity × FillPrice. Zero when the price is unknown. An order carrying
// both (Validate refuses it) is valued at the larger, so no reader of an
// invalid order can undervalue it.
func (o Order) Notional(q Quote) decimal.Decimal {
	byQty := o.TotalQuantity.Mul(o.FillPrice(q))
	if o.CashQty.IsPositive() {
		return decimal.Max(o.CashQty, byQty)
	}
	return byQty
}

// FitQuantity is the largest quantity, in whole steps, whose value at
// price stays within limit (zero when not even one step fits). It is how
// a too-large order is split into parts each within a value guard.
func FitQuantity(limit, price, step decimal.Decimal) decimal.Decimal {
	if !limit.IsPositive() || !price.IsPositive() || !step.IsPositive() {
		return decimal.Zero
	}
	n := limit.DivRound(price.Mul(step), 8).Floor()
	for n.IsPositive() && n.Mul(step).Mul(price).GreaterThan(limit) {
		n = n.Sub(decimal.NewFromInt(1)) // DivRound may round up by a hair
	}
	return n.Mul(step)
}

// QuantityStep is the increment a quantity is written in: 1 for a whole
// number, 0.1 for one decimal place, and so on.
func QuantityStep(q decimal.Decimal) decimal.Decimal { return decimal.New(1, -places(q)) }
