package uta

import (
	"fmt"
	"strings"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/alpaca"
	"github.com/alice-trading/alice/trading/bybit"
	"github.com/alice-trading/alice/trading/ccxt"
	"github.com/alice-trading/alice/trading/ibkr"
	"github.com/alice-trading/alice/trading/sim"
)

// Declarations are every broker's declared capabilities, keyed by the
// presets that use them, in README order. Staging enforces the same
// values (UTA.Stage), so the README table cannot drift from behaviour.
func Declarations() []struct {
	Presets string
	Caps    trading.Capabilities
} {
	return []struct {
		Presets string
		Caps    trading.Capabilities
	}{
		{"simulator", sim.Declared()},
		{"alpaca", alpaca.Declared()},
		{"bybit", bybit.Declared()},
		{"okx, bitget, hyperliquid, ccxt-custom", ccxt.Declared()},
		{"ibkr-tws", ibkr.Declared()},
	}
}

// CapabilityTable renders Declarations as the README's markdown table.
func CapabilityTable() string {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "—"
	}
	join := func(xs []string) string { return strings.Join(xs, ", ") }
	var b strings.Builder
	b.WriteString("| preset | asset class | order types | time in force (default) | fractional | cash amount | extended hours | TP/SL |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, d := range Declarations() {
		for _, c := range d.Caps.Classes {
			var types, tifs []string
			for _, t := range c.OrderTypes {
				types = append(types, string(t))
			}
			for _, t := range c.TIFs {
				tifs = append(tifs, string(t))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s (%s) | %s | %s | %s | %s |\n", d.Presets, c.Class, join(types), join(tifs), c.DefaultTIF,
				yes(c.Fractional), yes(c.CashOrders), yes(c.ExtendedHours), yes(c.Brackets))
		}
	}
	return b.String()
}
