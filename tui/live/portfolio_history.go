package live

import (
	"context"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading/snapshot"
)

// PositionHistory returns, per held symbol, its market price in each of
// the account's snapshots over the last 30 days (oldest first), for the
// positions' sparklines (tui.PositionHistoryCore).
func (c *Core) PositionHistory(account string) (map[string][]float64, error) {
	snaps, err := c.trading.Snapshots(account, time.Now().Add(-30*24*time.Hour), 200)
	if err != nil {
		return nil, err
	}
	out := map[string][]float64{}
	for _, s := range snaps {
		for _, p := range s.Positions {
			sym := p.AliceID
			if i := strings.LastIndexByte(sym, '|'); i >= 0 {
				sym = sym[i+1:]
			}
			f, _ := p.MarketPrice.Float64()
			out[sym] = append(out[sym], f)
		}
	}
	return out, nil
}

// TakeSnapshot records the account's state now (tui.SnapshotCore).
func (c *Core) TakeSnapshot(ctx context.Context, account string) error {
	_, err := c.trading.TakeSnapshot(ctx, account, snapshot.Manual)
	return err
}
