//go:build ccxt

package ccxt

import (
	"context"
	"sort"

	ccxtlib "github.com/ccxt/ccxt/go/v4"

	"github.com/alice-trading/alice/trading"
)

// Account reports balances in the quote currency (Config.Quote): cash is
// CCXT's total quote balance and equity adds spot holdings at the last
// price. Derivative P&L is not added again: for the presets served here
// CCXT's total already is equity (OKX details.eq, Hyperliquid
// accountValue, Bitget's account equity); it is reported as UnrealizedPnL.
func (b *Broker) Account(ctx context.Context) (trading.AccountInfo, error) {
	var bal ccxtlib.Balances
	if err := b.call(ctx, func(ex exchange) error {
		var err error
		bal, err = ex.FetchBalance()
		return wrap(err, "%s balance", b.cfg.Exchange)
	}); err != nil {
		return trading.AccountInfo{}, err
	}
	ps, err := b.positionsFrom(ctx, bal)
	if err != nil {
		return trading.AccountInfo{}, err
	}
	cash := dec(bal.Total[b.cfg.Quote])
	a := trading.AccountInfo{BaseCurrency: b.cfg.Quote, TotalCashValue: cash, NetLiquidation: cash, BuyingPower: dec(bal.Free[b.cfg.Quote])}
	for _, p := range ps {
		if p.Multiplier == "spot" {
			a.NetLiquidation = a.NetLiquidation.Add(p.MarketValue)
		}
		a.UnrealizedPnL = a.UnrealizedPnL.Add(p.UnrealizedPnL)
	}
	return a, nil
}

// Positions lists derivative positions (fetchPositions, where the
// exchange has it) and spot holdings: every non-quote currency with a
// balance that has a <coin>/<quote> spot market.
func (b *Broker) Positions(ctx context.Context) ([]trading.Position, error) {
	var bal ccxtlib.Balances
	if err := b.call(ctx, func(ex exchange) error {
		var err error
		bal, err = ex.FetchBalance()
		return wrap(err, "%s balance", b.cfg.Exchange)
	}); err != nil {
		return nil, err
	}
	ps, err := b.positionsFrom(ctx, bal)
	for i := range ps {
		if ps[i].Multiplier == "spot" {
			ps[i].Multiplier = "1"
		}
	}
	return ps, err
}

// positionsFrom builds positions; spot ones carry Multiplier "spot" so
// Account can tell them apart (Positions rewrites it to "1").
func (b *Broker) positionsFrom(ctx context.Context, bal ccxtlib.Balances) ([]trading.Position, error) {
	var out []trading.Position
	err := b.call(ctx, func(ex exchange) error {
		if b.cfg.MarketType != "spot" && has(ex, "fetchPositions") {
			got, err := ex.FetchPositions()
			if err != nil {
				return wrap(err, "%s positions", b.cfg.Exchange)
			}
			for _, p := range got {
				qty := dec(p.Contracts)
				if p.ContractSize != nil {
					qty = qty.Mul(dec(p.ContractSize))
				}
				if qty.IsZero() {
					continue
				}
				sym := str(p.Symbol)
				c := trading.Contract{Symbol: sym, SecType: "CRYPTO", AssetClass: trading.Crypto}
				if mk, ok := b.markets[sym]; ok {
					c = b.contractOf(mk)
				}
				sd := trading.Long
				if str(p.Side) == "short" {
					sd = trading.Short
				}
				mark := dec(p.MarkPrice)
				out = append(out, trading.Position{Contract: c, Currency: c.Currency, Side: sd, Quantity: qty.Abs(), AvgCost: dec(p.EntryPrice),
					MarketPrice: mark, MarketValue: mark.Mul(qty.Abs()), UnrealizedPnL: dec(p.UnrealizedPnl), RealizedPnL: dec(p.RealizedPnl), Multiplier: "1",
					Risk: trading.NewPositionRisk(dec(p.Leverage), dec(p.LiquidationPrice), trading.MarginMode(marginModeOf(p.MarginMode))),
				})
			}
		}
		if b.cfg.MarketType == "swap" {
			return nil
		}
		coins := make([]string, 0, len(bal.Total))
		for coin := range bal.Total {
			coins = append(coins, coin)
		}
		sort.Strings(coins)
		for _, coin := range coins {
			qty := dec(bal.Total[coin])
			if coin == b.cfg.Quote || !qty.IsPositive() {
				continue
			}
			mk, ok := b.markets[coin+"/"+b.cfg.Quote]
			if !ok || str(mk.Type) != "spot" {
				continue
			}
			t, err := ex.FetchTicker(str(mk.Symbol))
			if err != nil {
				return wrap(err, "%s ticker %s", b.cfg.Exchange, str(mk.Symbol))
			}
			last := dec(t.Last)
			c := b.contractOf(mk)
			// CCXT's unified balance has no cost basis, so avgCost is unknown (zero) for spot holdings.
			out = append(out, trading.Position{Contract: c, Currency: b.cfg.Quote, Side: trading.Long, Quantity: qty, MarketPrice: last,
				MarketValue: last.Mul(qty), Multiplier: "spot"})
		}
		return nil
	})
	return out, err
}

// marginModeOf keeps CCXT's marginMode only when it is one OpenAlice names.
func marginModeOf(s *string) string {
	if m := str(s); m == "cross" || m == "isolated" {
		return m
	}
	return ""
}
