package trading

import (
	"fmt"
	"strings"
	"time"

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
	if err := o.checkStrings(); err != nil {
		return err
	}
	if err := o.checkApplicable(); err != nil {
		return err
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

// MaxIDChars bounds an order's id-like strings (orderId, clientOrderId,
// parentId, ocaGroup) and goodTillDate, so a megabyte of text never
// reaches a broker, a guard or an approval.
const MaxIDChars = 64

// MaxOCAGroupChars bounds an OCA group as staged: the order model adds
// the commit's prefix (CommitOCAGroup), and the result stays within
// MaxIDChars.
const MaxOCAGroupChars = 32

// checkStrings bounds an order's free-text fields.
func (o Order) checkStrings() error {
	for _, f := range []struct{ name, v string }{
		{"orderId", o.OrderID}, {"clientOrderId", o.ClientOrderID}, {"parentId", o.ParentID},
		{"ocaGroup", o.OCAGroup}, {"goodTillDate", o.GoodTillDate},
	} {
		if len(f.v) > MaxIDChars {
			return fmt.Errorf("%s: %d characters is too long (at most %d)", f.name, len(f.v), MaxIDChars)
		}
	}
	return nil
}

// usesLmtPrice, usesAuxPrice and usesTrail say which price fields an
// order type takes; a field set on a type that ignores it is refused, so
// nothing the approval shows is silently dropped (or acted on) by a venue.
func usesLmtPrice(t OrderType) bool { return t == Limit || t == StopLimit || t == TrailLimit }
func usesAuxPrice(t OrderType) bool { return t == Stop || t == StopLimit }
func usesTrail(t OrderType) bool    { return t == Trail || t == TrailLimit }

// dropInapplicable clears the prices o's type does not take (a modify
// that changes the type leaves the old type's prices behind).
func (o Order) dropInapplicable() Order {
	if !usesLmtPrice(o.OrderType) {
		o.LmtPrice = decimal.Zero
	}
	if !usesAuxPrice(o.OrderType) {
		o.AuxPrice = decimal.Zero
	}
	if !usesTrail(o.OrderType) {
		o.TrailStopPrice, o.TrailingPercent = decimal.Zero, decimal.Zero
	}
	return o
}

// checkApplicable refuses fields that do not apply to the order's type or
// time in force, and a goodTillDate that is not a date-time.
func (o Order) checkApplicable() error {
	for _, f := range []struct {
		name string
		v    decimal.Decimal
		uses bool
		want string
	}{
		{"lmtPrice", o.LmtPrice, usesLmtPrice(o.OrderType), "LMT, STP LMT and TRAIL LIMIT"},
		{"auxPrice", o.AuxPrice, usesAuxPrice(o.OrderType), "STP and STP LMT"},
		{"trailStopPrice", o.TrailStopPrice, usesTrail(o.OrderType), "TRAIL and TRAIL LIMIT"},
		{"trailingPercent", o.TrailingPercent, usesTrail(o.OrderType), "TRAIL and TRAIL LIMIT"},
	} {
		if !f.v.IsZero() && !f.uses {
			return fmt.Errorf("%s does not apply to %s orders (only to %s); leave it out", f.name, o.OrderType, f.want)
		}
	}
	if o.GoodTillDate != "" {
		if o.TIF != GTD {
			return fmt.Errorf("goodTillDate applies only to tif GTD (this order's tif is %q); leave it out", o.TIF)
		}
		if _, err := ParseGoodTillDate(o.GoodTillDate); err != nil {
			return err
		}
	}
	return nil
}

// goodTillLayouts are the date-time forms goodTillDate accepts: RFC 3339,
// and IB's "yyyyMMdd HH:mm:ss" (exchange time) and "yyyyMMdd-HH:mm:ss"
// (UTC).
var goodTillLayouts = []string{time.RFC3339, "20060102 15:04:05", "20060102-15:04:05"}

// ParseGoodTillDate parses a goodTillDate: one of goodTillLayouts, or IB's
// "yyyyMMdd HH:mm:ss Zone" with a known IANA time zone.
func ParseGoodTillDate(s string) (time.Time, error) {
	if len(s) > MaxIDChars {
		return time.Time{}, fmt.Errorf("goodTillDate: %d characters is too long (at most %d)", len(s), MaxIDChars)
	}
	for _, l := range goodTillLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		zone := s[i+1:]
		if zoneName(zone) {
			if loc, err := time.LoadLocation(zone); err == nil {
				if t, err := time.ParseInLocation("20060102 15:04:05", s[:i], loc); err == nil {
					return t, nil
				}
			}
		}
	}
	return time.Time{}, fmt.Errorf("goodTillDate: %q is not a date-time (write RFC 3339, e.g. 2030-01-31T16:00:00Z, or \"20300131 16:00:00 America/New_York\")", s)
}

// zoneName admits only the characters of IANA zone names, so no path
// reaches the zone database loader.
func zoneName(s string) bool {
	if s == "" || strings.Contains(s, "..") || strings.HasPrefix(s, "/") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '/' || r == '-' || r == '+') {
			return false
		}
	}
	return true
}

// ocaGroupName admits letters, digits and . _ - only.
func ocaGroupName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return s != ""
}

// ocaPrefix marks a group the order model created for a commit.
const ocaPrefix = "alice-"

// CheckNew is the part of staging a new order that depends on what
// already rests at the broker (open is every order the broker reports).
// Beyond Validate:
//
//   - parentId is refused: no venue attaches a staged order to another
//     by it (take-profit/stop-loss legs are attached with takeProfit and
//     stopLoss, and the venue links them);
//   - ocaGroup may only name a new group for orders of this commit: a
//     group that any pending order at the broker belongs to is refused
//     (joining it would let this order cancel those, e.g. a person's
//     stop-loss), and the commit's prefix is added when the commit is
//     made (CommitOCAGroup), so the group can never be one the venue or
//     another commit created.
func (o Order) CheckNew(open []OpenOrder) error {
	if o.ParentID != "" {
		return fmt.Errorf("parentId is not accepted on a new order: attach take-profit/stop-loss legs with takeProfit and stopLoss (the venue links them to the order)")
	}
	g := o.OCAGroup
	if g == "" {
		return nil
	}
	switch {
	case len(g) > MaxOCAGroupChars:
		return fmt.Errorf("ocaGroup: %d characters is too long (at most %d)", len(g), MaxOCAGroupChars)
	case !ocaGroupName(g):
		return fmt.Errorf("ocaGroup: %q may use only letters, digits, '.', '_' and '-'", g)
	case strings.HasPrefix(strings.ToLower(g), ocaPrefix):
		return fmt.Errorf("ocaGroup: %q: names starting %q are reserved for the groups alice creates", g, ocaPrefix)
	}
	for _, x := range open {
		if !final(x.Status) && x.Order.OCAGroup != "" && strings.EqualFold(x.Order.OCAGroup, g) {
			return fmt.Errorf("ocaGroup: %q already has open orders at the broker (e.g. %s %s %s, order %s); an order may not join an existing one-cancels-all group, "+
				"since its fill would cancel them. Use a new group name, shared only by orders of this commit; nothing was staged",
				g, x.Order.Action, x.Order.OrderType, x.Contract.Symbol, x.Order.OrderID)
		}
	}
	return nil
}

// CommitOCAGroup is the OCA group an order of commit hash is sent with:
// the staged name under the commit's prefix, so orders of one commit
// share it and nothing outside the commit can.
func CommitOCAGroup(hash, group string) string {
	if group == "" {
		return ""
	}
	return ocaPrefix + hash + "-" + group
}

// final reports a status no order leaves; anything else (including a
// status a venue reports that alice does not name) counts as open.
func final(s OrderStatus) bool {
	return s == StatusFilled || s == StatusCancelled || s == StatusRejected
}

// Validate checks a modification on its own: a new type must not come
// with prices it does not take, and a goodTillDate must be a date-time.
func (c OrderChanges) Validate() error {
	if c.OrderType != "" {
		probe := Order{OrderType: c.OrderType, LmtPrice: c.LmtPrice, AuxPrice: c.AuxPrice,
			TrailStopPrice: c.TrailStopPrice, TrailingPercent: c.TrailingPercent, TIF: GTD, GoodTillDate: c.GoodTillDate}
		if err := probe.checkApplicable(); err != nil {
			return err
		}
	}
	if c.GoodTillDate != "" {
		if c.TIF != "" && c.TIF != GTD {
			return fmt.Errorf("goodTillDate applies only to tif GTD (this change sets tif %q); leave it out", c.TIF)
		}
		if _, err := ParseGoodTillDate(c.GoodTillDate); err != nil {
			return err
		}
	}
	return nil
}
