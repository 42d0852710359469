package sim

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker/brokertest"
	"github.com/alice-trading/alice/trading/simmarket"
)

// TestBrokerContract runs the shared broker behaviours against the
// simulator itself, with its god-view as the venue controls.
func TestBrokerContract(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness {
		clock := time.Date(2026, 1, 6, 15, 0, 0, 0, time.UTC)
		b, err := New(Options{AccountID: "contract", Market: simmarket.New(7), Cash: decimal.NewFromInt(100_000),
			Now: func() time.Time { return clock }, StatePath: t.TempDir() + "/sim-state.json"})
		require.NoError(t, err)
		cs, err := b.SearchContracts(context.Background(), "AAPL", trading.Equity)
		require.NoError(t, err)
		require.NotEmpty(t, cs)
		mark, err := b.Mark("AAPL")
		require.NoError(t, err)
		require.NoError(t, b.SetMarkPrice("AAPL", mark.Round(2)))
		return &brokertest.Harness{
			Broker: b, Contract: cs[0], Qty: decimal.NewFromInt(10),
			Mid:    func() decimal.Decimal { m, _ := b.Mark("AAPL"); return m },
			SetMid: func(p decimal.Decimal) { require.NoError(t, b.SetMarkPrice("AAPL", p)) },
			FillPartially: func(id string, qty decimal.Decimal) {
				o, err := b.Order(context.Background(), id)
				require.NoError(t, err)
				_, err = b.FillOrder(id, qty, o.Order.LmtPrice)
				require.NoError(t, err)
			},
		}
	})
}
