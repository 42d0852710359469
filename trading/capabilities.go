package trading

import (
	"fmt"
	"slices"
	"strings"
)

// ClassCaps is what a venue accepts for one asset class. Staging refuses
// anything outside it, naming the venue and what it accepts, so nothing is
// remapped at the broker.
type ClassCaps struct {
	Class      AssetClass  `json:"class"`
	OrderTypes []OrderType `json:"orderTypes"`
	TIFs       []TIF       `json:"tifs"`
	// DefaultTIF is used (and said) when an order names none.
	DefaultTIF    TIF  `json:"defaultTif"`
	Fractional    bool `json:"fractional"`
	CashOrders    bool `json:"cashOrders"`
	ExtendedHours bool `json:"extendedHours"`
	Brackets      bool `json:"brackets"`
}

// Capabilities is what a broker supports, declared per asset class. The
// README's capability table is generated from the same declarations.
type Capabilities struct {
	Venue   string      `json:"venue"`
	Classes []ClassCaps `json:"classes"`
	// SupportedSecTypes and SupportedOrderTypes summarise Classes for the
	// account list.
	SupportedSecTypes   []string    `json:"supportedSecTypes"`
	SupportedOrderTypes []OrderType `json:"supportedOrderTypes"`
}

// secTypeOf maps asset classes to the IBKR-style security types.
func secTypeOf(c AssetClass) string {
	switch c {
	case Equity:
		return "STK"
	case Crypto:
		return "CRYPTO"
	case Currency:
		return "CASH"
	case Commodity:
		return "CMDTY"
	}
	return strings.ToUpper(string(c))
}

// Declare builds Capabilities from per-class declarations, filling the
// summary fields.
func Declare(venue string, classes ...ClassCaps) Capabilities {
	c := Capabilities{Venue: venue, Classes: classes}
	for _, cc := range classes {
		c.SupportedSecTypes = append(c.SupportedSecTypes, secTypeOf(cc.Class))
		for _, t := range cc.OrderTypes {
			if !slices.Contains(c.SupportedOrderTypes, t) {
				c.SupportedOrderTypes = append(c.SupportedOrderTypes, t)
			}
		}
	}
	return c
}

// For returns the declaration for an asset class; an instrument without a
// class falls back to the only class a single-class venue declares.
func (c Capabilities) For(class AssetClass) (ClassCaps, bool) {
	for _, cc := range c.Classes {
		if cc.Class == class {
			return cc, true
		}
	}
	if len(c.Classes) == 1 && (class == "" || class == Unknown) {
		return c.Classes[0], true
	}
	return ClassCaps{}, false
}

func joinOf[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// Check refuses an order the venue cannot execute as written. An empty TIF
// is not accepted here: the stager resolves it to DefaultTIF first, and
// says so.
func (c Capabilities) Check(class AssetClass, o Order, tpsl *TPSL) error {
	cc, ok := c.For(class)
	if !ok {
		var have []AssetClass
		for _, x := range c.Classes {
			have = append(have, x.Class)
		}
		return fmt.Errorf("%s does not trade %s instruments (it trades %s)", c.Venue, class, joinOf(have))
	}
	if !slices.Contains(cc.OrderTypes, o.OrderType) {
		return fmt.Errorf("orderType: %s does not accept %s orders for %s (it accepts %s)", c.Venue, o.OrderType, cc.Class, joinOf(cc.OrderTypes))
	}
	if !slices.Contains(cc.TIFs, o.TIF) {
		return fmt.Errorf("tif: %s does not accept time in force %q for %s (it accepts %s)", c.Venue, o.TIF, cc.Class, joinOf(cc.TIFs))
	}
	if o.CashQty.IsPositive() && !cc.CashOrders {
		return fmt.Errorf("cashQty: %s does not accept cash-amount orders for %s; give totalQuantity instead", c.Venue, cc.Class)
	}
	if o.OutsideRTH && !cc.ExtendedHours {
		return fmt.Errorf("outsideRth: %s does not trade %s outside regular hours", c.Venue, cc.Class)
	}
	if tpsl != nil && (tpsl.TakeProfit != nil || tpsl.StopLoss != nil) && !cc.Brackets {
		return fmt.Errorf("takeProfit/stopLoss: %s does not accept attached take-profit/stop-loss orders for %s", c.Venue, cc.Class)
	}
	return nil
}

// CheckChanges refuses a modification the venue cannot execute.
func (c Capabilities) CheckChanges(class AssetClass, ch OrderChanges) error {
	cc, ok := c.For(class)
	if !ok {
		return nil // the order exists at the venue; its class is not ours to judge
	}
	if ch.OrderType != "" && !slices.Contains(cc.OrderTypes, ch.OrderType) {
		return fmt.Errorf("orderType: %s does not accept %s orders for %s (it accepts %s)", c.Venue, ch.OrderType, cc.Class, joinOf(cc.OrderTypes))
	}
	if ch.TIF != "" && !slices.Contains(cc.TIFs, ch.TIF) {
		return fmt.Errorf("tif: %s does not accept time in force %q for %s (it accepts %s)", c.Venue, ch.TIF, cc.Class, joinOf(cc.TIFs))
	}
	return nil
}
