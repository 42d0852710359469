// Package marketdata is Alice's read-only view of the market: bars, quotes,
// symbol search and (where a backend has it) company profiles. The Source
// interface is small so the analysis evaluator and the research tools can
// run against the offline simulated market, Alpaca's data API or Yahoo's
// chart API interchangeably; the backend is chosen by market-data.json.
package marketdata

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// ErrUnsupported is returned (wrapped) when a backend lacks a capability,
// e.g. symbol search on Alpaca's data API.
var ErrUnsupported = errors.New("not supported by this market data backend")

// ErrNotFound is returned (wrapped) for an unknown symbol.
var ErrNotFound = errors.New("symbol not found")

// Source is what every market data backend provides.
type Source interface {
	// Name identifies the backend ("simulated", "alpaca", "yahoo").
	Name() string
	// Bars returns candles whose open time lies in [from, to), oldest first.
	Bars(ctx context.Context, symbol string, class trading.AssetClass, interval Interval, from, to time.Time) ([]Bar, error)
	// Quote returns the latest top-of-book snapshot.
	Quote(ctx context.Context, symbol string, class trading.AssetClass) (Quote, error)
	// Search finds instruments by symbol or name; class "" searches all.
	Search(ctx context.Context, query string, class trading.AssetClass, limit int) ([]Instrument, error)
}

// ProfileSource is implemented by backends that can describe a company.
type ProfileSource interface {
	Profile(ctx context.Context, symbol string) (Profile, error)
}

// Bar is one OHLCV candle. Prices are floats: bars feed indicators and
// charts, never account balances (quotes keep decimals).
type Bar struct {
	Time   time.Time `json:"time"`
	Open   float64   `json:"open"`
	High   float64   `json:"high"`
	Low    float64   `json:"low"`
	Close  float64   `json:"close"`
	Volume float64   `json:"volume"`
}

// Quote is a latest-price snapshot; zero decimals mean "not provided".
type Quote struct {
	Symbol     string             `json:"symbol"`
	AssetClass trading.AssetClass `json:"assetClass,omitempty"`
	Last       decimal.Decimal    `json:"last,omitzero"`
	Bid        decimal.Decimal    `json:"bid,omitzero"`
	Ask        decimal.Decimal    `json:"ask,omitzero"`
	High       decimal.Decimal    `json:"high,omitzero"`
	Low        decimal.Decimal    `json:"low,omitzero"`
	Volume     decimal.Decimal    `json:"volume,omitzero"`
	Currency   string             `json:"currency,omitempty"`
	Time       time.Time          `json:"time"`
	// Source is the backend that answered; Simulated marks a price from
	// the offline simulated market (the real provider did not answer).
	Source    string `json:"source,omitempty"`
	Simulated bool   `json:"simulated,omitempty"`
}

// Instrument is one search hit.
type Instrument struct {
	Symbol     string             `json:"symbol"`
	Name       string             `json:"name,omitempty"`
	AssetClass trading.AssetClass `json:"assetClass"`
	Exchange   string             `json:"exchange,omitempty"`
	// Simulated marks a hit from the simulated market's catalogue.
	Simulated bool `json:"simulated,omitempty"`
}

// Profile describes a company (or an instrument) for research.
type Profile struct {
	Symbol      string             `json:"symbol"`
	Name        string             `json:"name,omitempty"`
	AssetClass  trading.AssetClass `json:"assetClass,omitempty"`
	Exchange    string             `json:"exchange,omitempty"`
	Currency    string             `json:"currency,omitempty"`
	Sector      string             `json:"sector,omitempty"`
	Industry    string             `json:"industry,omitempty"`
	Description string             `json:"description,omitempty"`
	Price       decimal.Decimal    `json:"price,omitzero"`
	High52w     decimal.Decimal    `json:"fiftyTwoWeekHigh,omitzero"`
	Low52w      decimal.Decimal    `json:"fiftyTwoWeekLow,omitzero"`
	// Simulated marks synthetic data from the offline market, so the model
	// never mistakes it for a real company filing.
	Simulated bool   `json:"simulated,omitempty"`
	Source    string `json:"source"`
}

// Unit is the time unit of an Interval.
type Unit byte

const (
	Minute Unit = 'm'
	Hour   Unit = 'h'
	Day    Unit = 'd'
	Week   Unit = 'w'
)

// Interval is a bar size such as 5m, 1h, 1d or 1w.
type Interval struct {
	N    int
	Unit Unit
}

// ParseInterval accepts "<n><unit>" with unit m, h, d or w (case-insensitive
// except that "M" is read as minutes too); n defaults to 1 ("d" = "1d").
func ParseInterval(s string) (Interval, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return Interval{}, fmt.Errorf("empty interval (want e.g. 1d, 1h, 5m, 1w)")
	}
	u := Unit(t[len(t)-1])
	switch u {
	case Minute, Hour, Day, Week:
	default:
		return Interval{}, fmt.Errorf("invalid interval %q (want e.g. 1d, 1h, 5m, 1w)", s)
	}
	n := 1
	if num := t[:len(t)-1]; num != "" {
		v, err := strconv.Atoi(num)
		if err != nil || v < 1 || v > 1000 {
			return Interval{}, fmt.Errorf("invalid interval %q (count must be 1..1000)", s)
		}
		n = v
	}
	return Interval{N: n, Unit: u}, nil
}

// String renders the canonical form, e.g. "1d".
func (i Interval) String() string { return strconv.Itoa(i.N) + string(i.Unit) }

// Duration is the bar length.
func (i Interval) Duration() time.Duration {
	var d time.Duration
	switch i.Unit {
	case Minute:
		d = time.Minute
	case Hour:
		d = time.Hour
	case Day:
		d = 24 * time.Hour
	case Week:
		d = 7 * 24 * time.Hour
	}
	return time.Duration(i.N) * d
}

// Valid reports whether the interval is usable.
func (i Interval) Valid() bool { return i.N >= 1 && i.Duration() > 0 }

func checkRange(interval Interval, from, to time.Time) error {
	if !interval.Valid() {
		return fmt.Errorf("invalid interval %v", interval)
	}
	if !to.After(from) {
		return fmt.Errorf("empty time range: from %s is not before to %s", from.Format(time.RFC3339), to.Format(time.RFC3339))
	}
	return nil
}
