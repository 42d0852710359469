//go:build ccxt

package ccxt

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

func newHarness(t *testing.T) *brokertest.Harness {
	v := brokertest.NewVenue(decimal.NewFromInt(100_000), map[string]decimal.Decimal{
		"BTC/USDT": decimal.NewFromInt(60_000), "ETH/USDT": decimal.NewFromInt(3_000)})
	fx := newFakeExchange(v)
	cfg := Config{Exchange: "okx", Quote: "USDT", TimeoutMs: 1000}
	b := newBroker("okx-test", cfg, nil, func() (exchange, error) { return fx, nil })
	c := trading.Contract{Symbol: "BTC/USDT", SecType: "CRYPTO", AssetClass: trading.Crypto}
	return &brokertest.Harness{
		Broker: b, Contract: c, Qty: decimal.RequireFromString("0.01"),
		Mid: func() decimal.Decimal {
			_, _, mid, err := v.Quote("BTC/USDT")
			if err != nil {
				t.Fatal(err)
			}
			return mid
		},
		SetMid: func(d decimal.Decimal) { v.SetPrice("BTC/USDT", d) },
		FillPartially: func(id string, q decimal.Decimal) {
			if _, err := v.FillPartially(id, q); err != nil {
				t.Fatal(err)
			}
		},
		SetFault:   fx.setFault,
		AlwaysOpen: true,
	}
}

// TestContract runs the broker contract suite against the CCXT adapter
// driving a fake CCXT exchange (unified API) over a brokertest.Venue.
func TestContract(t *testing.T) { brokertest.Run(t, newHarness) }
