package ccxt

import "github.com/alice-trading/alice/trading"

// Declared is what the CCXT adapter sends through the unified API: a 24/7
// market (no DAY), orders sized in base units (no cash amounts), TP/SL as
// unified params. It builds without the ccxt tag so the README's
// capability table and its test see it.
func Declared() trading.Capabilities {
	return trading.Declare("CCXT exchanges", trading.ClassCaps{Class: trading.Crypto,
		OrderTypes: []trading.OrderType{trading.Market, trading.Limit, trading.Stop, trading.StopLimit},
		TIFs:       []trading.TIF{trading.GTC, trading.IOC, trading.FOK}, DefaultTIF: trading.GTC,
		Fractional: true, Brackets: true})
}
