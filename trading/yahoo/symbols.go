package yahoo

import (
	"strings"

	"github.com/alice-trading/alice/trading"
)

// Commodity is one entry of the canonical commodity catalogue: alice's
// name for it and Yahoo's front-month futures symbol.
type Commodity struct{ Key, Name, Symbol string }

// Commodities is the catalogue (gold, crude_oil, …). It returns a fresh
// slice each call.
func Commodities() []Commodity {
	return []Commodity{
		{"gold", "Gold", "GC=F"}, {"silver", "Silver", "SI=F"}, {"platinum", "Platinum", "PL=F"},
		{"palladium", "Palladium", "PA=F"}, {"copper", "Copper", "HG=F"}, {"crude_oil", "WTI crude oil", "CL=F"},
		{"brent", "Brent crude oil", "BZ=F"}, {"natural_gas", "Natural gas", "NG=F"}, {"gasoline", "RBOB gasoline", "RB=F"},
		{"heating_oil", "Heating oil", "HO=F"}, {"corn", "Corn", "ZC=F"}, {"wheat", "Wheat", "ZW=F"},
		{"soybeans", "Soybeans", "ZS=F"}, {"coffee", "Coffee", "KC=F"}, {"sugar", "Sugar", "SB=F"},
		{"cotton", "Cotton", "CT=F"}, {"cocoa", "Cocoa", "CC=F"}, {"live_cattle", "Live cattle", "LE=F"},
	}
}

// commodityAlias maps common tickers to catalogue keys.
func commodityAlias(up string) (string, bool) {
	switch up {
	case "XAU":
		return "gold", true
	case "XAG":
		return "silver", true
	case "WTI", "OIL":
		return "crude_oil", true
	case "NATGAS":
		return "natural_gas", true
	}
	return "", false
}

// Symbol maps alice's symbol conventions to Yahoo's: BTC → BTC-USD,
// EURUSD → EURUSD=X, gold/XAU → GC=F; symbols already in Yahoo's form
// (containing = or ^) pass through.
func Symbol(symbol string, class trading.AssetClass) string {
	s := strings.TrimSpace(symbol)
	up := strings.ToUpper(s)
	if strings.ContainsAny(up, "=^") {
		return up
	}
	switch class {
	case trading.Crypto:
		if strings.Contains(up, "-") {
			return up
		}
		up = strings.ReplaceAll(up, "/", "")
		for _, q := range []string{"USDT", "USD"} {
			if base, ok := strings.CutSuffix(up, q); ok && base != "" {
				return base + "-USD"
			}
		}
		return up + "-USD"
	case trading.Currency:
		return strings.ReplaceAll(up, "/", "") + "=X"
	case trading.Commodity:
		key := strings.ToLower(s)
		if a, ok := commodityAlias(up); ok {
			key = a
		}
		for _, c := range Commodities() {
			if c.Key == key {
				return c.Symbol
			}
		}
	}
	return up
}

// Class maps Yahoo's quoteType/instrumentType to an asset class.
func Class(quoteType string) trading.AssetClass {
	switch strings.ToUpper(quoteType) {
	case "EQUITY", "ETF", "MUTUALFUND", "INDEX":
		return trading.Equity
	case "CRYPTOCURRENCY":
		return trading.Crypto
	case "CURRENCY":
		return trading.Currency
	case "FUTURE", "COMMODITY":
		return trading.Commodity
	}
	return trading.Unknown
}
