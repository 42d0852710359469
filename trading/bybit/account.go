package bybit

import (
	"context"
	"net/url"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

func (b *Broker) wallet(ctx context.Context) (wireWallet, error) {
	var l list[wireWallet]
	if err := b.c.get(ctx, "/v5/account/wallet-balance", url.Values{"accountType": {"UNIFIED"}}, &l); err != nil {
		return wireWallet{}, err
	}
	if len(l.List) == 0 {
		return wireWallet{}, broker.Errorf(broker.CodeConfig, "Bybit returned no UNIFIED wallet; the key's account must be a Unified Trading Account")
	}
	return l.List[0], nil
}

// Account reports balances in the settlement coin (USDT): equity includes
// unrealised P&L of perpetuals; realised P&L is Bybit's cumulative figure,
// which is net of trading and funding fees.
func (b *Broker) Account(ctx context.Context) (trading.AccountInfo, error) {
	w, err := b.wallet(ctx)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	info := trading.AccountInfo{BaseCurrency: b.c.cfg.SettleCoin, NetLiquidation: w.TotalEquity.dec(),
		TotalCashValue: w.TotalWalletBalance.dec(), UnrealizedPnL: w.TotalPerpUPL.dec(), BuyingPower: w.TotalAvailableBalance.dec()}
	for _, c := range w.Coin {
		if c.Coin == b.c.cfg.SettleCoin {
			info.TotalCashValue = c.WalletBalance.dec()
		}
		info.RealizedPnL = info.RealizedPnL.Add(c.CumRealisedPnl.dec())
	}
	return info, nil
}

// Positions lists perpetual positions (side from Bybit's Buy/Sell) or, for
// spot, every non-settlement coin held, valued at the last price.
func (b *Broker) Positions(ctx context.Context) ([]trading.Position, error) {
	if b.category() == "spot" {
		return b.spotPositions(ctx)
	}
	var l list[wirePosition]
	q := url.Values{"category": {"linear"}, "settleCoin": {b.c.cfg.SettleCoin}, "limit": {"200"}}
	if err := b.c.get(ctx, "/v5/position/list", q, &l); err != nil {
		return nil, err
	}
	out := []trading.Position{}
	for _, p := range l.List {
		size := p.Size.dec()
		if size.IsZero() || p.Side == "" || p.Side == "None" {
			continue
		}
		side := trading.Long
		if p.Side == "Sell" {
			side = trading.Short
		}
		in := wireInstrument{Symbol: p.Symbol, QuoteCoin: b.c.cfg.SettleCoin, SettleCoin: b.c.cfg.SettleCoin}
		out = append(out, trading.Position{Contract: b.contractOf(in), Currency: b.c.cfg.SettleCoin, Side: side, Quantity: size,
			AvgCost: p.AvgPrice.dec(), MarketPrice: p.MarkPrice.dec(), MarketValue: p.PositionValue.dec(),
			UnrealizedPnL: p.UnrealisedPnl.dec(), RealizedPnL: p.CumRealisedPnl.dec(), Multiplier: "1",
			Risk: trading.NewPositionRisk(p.Leverage.dec(), p.LiqPrice.dec(), marginMode(int(p.TradeMode)))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Contract.Symbol < out[j].Contract.Symbol })
	return out, nil
}

// marginMode maps Bybit's tradeMode (0 cross, 1 isolated).
func marginMode(tradeMode int) trading.MarginMode {
	if tradeMode == 1 {
		return trading.Isolated
	}
	return trading.Cross
}

func (b *Broker) spotPositions(ctx context.Context) ([]trading.Position, error) {
	w, err := b.wallet(ctx)
	if err != nil {
		return nil, err
	}
	out := []trading.Position{}
	for _, c := range w.Coin {
		bal := c.WalletBalance.dec()
		if c.Coin == b.c.cfg.SettleCoin || !bal.IsPositive() {
			continue
		}
		in, err := b.instrument(ctx, c.Coin+b.c.cfg.SettleCoin)
		if err != nil {
			continue // dust in a coin without a USDT pair
		}
		q, err := b.Quote(ctx, b.contractOf(in))
		if err != nil {
			return nil, err
		}
		out = append(out, trading.Position{Contract: b.contractOf(in), Currency: b.c.cfg.SettleCoin, Side: trading.Long, Quantity: bal,
			MarketPrice: q.Last, MarketValue: bal.Mul(q.Last), UnrealizedPnL: c.UnrealisedPnl.dec(), RealizedPnL: c.CumRealisedPnl.dec(),
			AvgCost: decimal.Zero, Multiplier: "1"})
	}
	return out, nil
}
