package ibkr

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// portfolioRow is one updatePortfolio message as cached.
type portfolioRow struct {
	contract                                ibapi.Contract
	qty                                     ibapi.Decimal
	price, value, avgCost, unreal, realized float64 // as TWS sent them; positionOf converts strictly
}

func (b *Broker) onAccountValue(key, val, currency, account string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if account != b.account {
		return
	}
	b.values[key+"|"+currency] = val
	if key == "NetLiquidation" && currency != "" && currency != "BASE" {
		b.baseCcy = currency
	}
}

func (b *Broker) onPortfolio(c ibapi.Contract, qty ibapi.Decimal, price, value, avgCost, unreal, realized float64, account string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if account != b.account {
		return
	}
	b.portfolio[c.ConID] = portfolioRow{contract: c, qty: qty, price: price, value: value, avgCost: avgCost, unreal: unreal, realized: realized}
	b.conIDs[strings.ToUpper(c.Symbol)] = c.ConID
}

func (b *Broker) onDownloadEnd(account string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if account != b.account {
		return
	}
	select {
	case <-b.downloaded:
	default:
		close(b.downloaded)
	}
}

// cache waits until the session's account subscription delivered its
// first full download; afterwards TWS pushes changes and nothing is
// requested per call.
func (b *Broker) cache(ctx context.Context) error {
	if _, err := b.ensure(ctx); err != nil {
		return err
	}
	b.mu.Lock()
	ch := b.downloaded
	b.mu.Unlock()
	t := time.NewTimer(b.cfg.Timeout)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
		return &broker.Error{Code: broker.CodeNetwork, Msg: "TWS sent no account download within " + b.cfg.Timeout.String()}
	case <-ctx.Done():
		return &broker.Error{Code: broker.CodeNetwork, Msg: "account download", Err: ctx.Err()}
	}
	// The socket may have died while waiting.
	_, err := b.ensure(ctx)
	return err
}

// valueLocked is one account value in the base currency; absent is zero,
// but a value TWS sent that does not parse is an error (BAD_DATA), never
// a zero that would feed equity and the guards.
func (b *Broker) valueLocked(key string) (decimal.Decimal, error) {
	for _, ccy := range []string{b.baseCcy, "BASE", ""} {
		if v, ok := b.values[key+"|"+ccy]; ok {
			d, err := decimal.NewFromString(strings.TrimSpace(v))
			if err != nil {
				return decimal.Zero, &broker.Error{Code: broker.CodeBadData, Msg: fmt.Sprintf("TWS sent %s = %q, which is not a number", key, v)}
			}
			return d, nil
		}
	}
	return decimal.Zero, nil
}

// Account reads the cached account values.
func (b *Broker) Account(ctx context.Context) (trading.AccountInfo, error) {
	if err := b.cache(ctx); err != nil {
		return trading.AccountInfo{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	ccy := b.baseCcy
	if ccy == "" {
		ccy = "USD"
	}
	info := trading.AccountInfo{BaseCurrency: ccy}
	for _, f := range []struct {
		key string
		dst *decimal.Decimal
	}{{"NetLiquidation", &info.NetLiquidation}, {"TotalCashValue", &info.TotalCashValue}, {"UnrealizedPnL", &info.UnrealizedPnL},
		{"RealizedPnL", &info.RealizedPnL}, {"BuyingPower", &info.BuyingPower}} {
		v, err := b.valueLocked(f.key)
		if err != nil {
			return trading.AccountInfo{}, err
		}
		*f.dst = v
	}
	return info, nil
}

// Positions reads the cached portfolio.
func (b *Broker) Positions(ctx context.Context) ([]trading.Position, error) {
	if err := b.cache(ctx); err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []trading.Position{}
	for _, r := range b.portfolio {
		p, err := positionOf(r)
		if err != nil {
			return nil, err
		}
		if p.Quantity.IsZero() {
			continue
		}
		p.Contract = b.contractOf(r.contract)
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Contract.Symbol < out[j].Contract.Symbol })
	return out, nil
}

// ClosePosition sends a market order against qty of the position (zero = all).
func (b *Broker) ClosePosition(ctx context.Context, c trading.Contract, qty decimal.Decimal) (trading.OrderResult, error) {
	ps, err := b.Positions(ctx)
	if err != nil {
		return trading.OrderResult{}, err
	}
	for _, p := range ps {
		if !strings.EqualFold(p.Contract.Symbol, c.Symbol) {
			continue
		}
		if qty.GreaterThan(p.Quantity) { // staging checked it; the position shrank since
			return trading.OrderResult{}, broker.Errorf(broker.CodeExchange, "closing %s %s is more than the %s held now; nothing was sent", qty, p.Contract.Symbol, p.Quantity)
		}
		if qty.IsZero() {
			qty = p.Quantity
		}
		action := trading.Sell
		if p.Side == trading.Short {
			action = trading.Buy
		}
		return b.PlaceOrder(ctx, p.Contract, trading.Order{Action: action, OrderType: trading.Market, TotalQuantity: qty, TIF: trading.Day}, nil)
	}
	return trading.OrderResult{}, broker.Errorf(broker.CodeNotFound, "no position in %s", c.Symbol)
}
