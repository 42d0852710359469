package guard

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

var hundred = decimal.NewFromInt(100)

// maxPositionSize caps a position's share of equity after a buy.
type maxPositionSize struct{ maxPct decimal.Decimal }

func newMaxPositionSize(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxPercentOfEquity"); err != nil {
		return nil, err
	}
	pct, err := optDecimal(opts, "maxPercentOfEquity", decimal.NewFromInt(25))
	return &maxPositionSize{maxPct: pct}, err
}

func (g *maxPositionSize) Type() string { return "max-position-size" }

func (g *maxPositionSize) Check(ctx context.Context, gc Context) string {
	op := gc.Op
	if op.Action != git.PlaceOrder || op.Order.Action != trading.Buy || !gc.Account.NetLiquidation.IsPositive() {
		return ""
	}
	var existing *trading.Position
	for i := range gc.Positions {
		if strings.EqualFold(gc.Positions[i].Contract.Symbol, op.Contract.Symbol) {
			existing = &gc.Positions[i]
		}
	}
	added := op.Order.CashQty
	if added.IsZero() {
		price := decimal.Zero
		switch {
		case existing != nil:
			price = existing.MarketPrice
		case op.Order.LmtPrice.IsPositive():
			price = op.Order.LmtPrice
		case gc.Price != nil:
			if p, err := gc.Price(ctx, *op.Contract); err == nil {
				price = p
			}
		}
		added = op.Order.TotalQuantity.Mul(price)
	}
	if added.IsZero() {
		return "" // value unknown: cannot judge
	}
	total := added
	if existing != nil {
		total = total.Add(existing.MarketValue)
	}
	pct := total.Div(gc.Account.NetLiquidation).Mul(hundred)
	if pct.GreaterThan(g.maxPct) {
		return fmt.Sprintf("Position for %s would be %s%% of equity (limit: %s%%)", op.Contract.Symbol, pct.StringFixed(1), g.maxPct)
	}
	return ""
}

// cooldown spaces orders in the same symbol. It remembers the last
// accepted time per symbol in memory (a restart resets it).
type cooldown struct {
	interval time.Duration
	mu       sync.Mutex
	last     map[string]time.Time
}

func newCooldown(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "minIntervalMs"); err != nil {
		return nil, err
	}
	ms, err := optDecimal(opts, "minIntervalMs", decimal.NewFromInt(60000))
	return &cooldown{interval: time.Duration(ms.IntPart()) * time.Millisecond, last: map[string]time.Time{}}, err
}

func (g *cooldown) Type() string { return "cooldown" }

func (g *cooldown) Check(_ context.Context, gc Context) string {
	if gc.Op.Action != git.PlaceOrder {
		return ""
	}
	sym := strings.ToUpper(gc.Op.Symbol())
	g.mu.Lock()
	defer g.mu.Unlock()
	if t, ok := g.last[sym]; ok {
		if left := g.interval - gc.Now.Sub(t); left > 0 {
			return fmt.Sprintf("Cooldown active for %s: %ds remaining", sym, int((left+time.Second-1)/time.Second))
		}
	}
	g.last[sym] = gc.Now
	return ""
}

// symbolWhitelist allows only listed symbols.
type symbolWhitelist struct{ allowed map[string]bool }

func newSymbolWhitelist(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "symbols"); err != nil {
		return nil, err
	}
	raw, _ := opts["symbols"].([]any)
	g := &symbolWhitelist{allowed: map[string]bool{}}
	for _, v := range raw {
		s, ok := v.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("option symbols: every entry must be a non-empty string")
		}
		g.allowed[strings.ToUpper(strings.TrimSpace(s))] = true
	}
	if len(g.allowed) == 0 {
		return nil, fmt.Errorf("option symbols: a non-empty list of symbols is required")
	}
	return g, nil
}

func (g *symbolWhitelist) Type() string { return "symbol-whitelist" }

func (g *symbolWhitelist) Check(_ context.Context, gc Context) string {
	sym := gc.Op.Symbol()
	if sym == "unknown" || g.allowed[strings.ToUpper(sym)] {
		return ""
	}
	return fmt.Sprintf("Symbol %s is not in the whitelist", sym)
}

// maxOrderValue caps a single order's notional value.
type maxOrderValue struct{ max decimal.Decimal }

func newMaxOrderValue(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxValue"); err != nil {
		return nil, err
	}
	if _, ok := opts["maxValue"]; !ok {
		return nil, fmt.Errorf("option maxValue is required")
	}
	v, err := optDecimal(opts, "maxValue", decimal.Zero)
	return &maxOrderValue{max: v}, err
}

func (g *maxOrderValue) Type() string { return "max-order-value" }

func (g *maxOrderValue) Check(ctx context.Context, gc Context) string {
	op := gc.Op
	if op.Action != git.PlaceOrder {
		return ""
	}
	value := op.Order.CashQty
	if value.IsZero() {
		price := op.Order.LmtPrice
		if price.IsZero() {
			price = op.Order.AuxPrice
		}
		if price.IsZero() && gc.Price != nil {
			p, err := gc.Price(ctx, *op.Contract)
			if err != nil {
				return fmt.Sprintf("cannot value order for %s: %v", op.Contract.Symbol, err)
			}
			price = p
		}
		value = op.Order.TotalQuantity.Mul(price)
	}
	if value.GreaterThan(g.max) {
		return fmt.Sprintf("Order value %s for %s exceeds the limit %s", value.StringFixed(2), op.Contract.Symbol, g.max)
	}
	return ""
}

// dailyLoss blocks new buys once today's equity drop reaches the limit;
// closing and cancelling stay allowed so risk can always be reduced.
type dailyLoss struct {
	maxLoss, maxPct decimal.Decimal
	mu              sync.Mutex
	day             string
	baseline        decimal.Decimal
}

func newDailyLoss(opts map[string]any) (Guard, error) {
	if err := knownOptions(opts, "maxLoss", "maxLossPercent"); err != nil {
		return nil, err
	}
	g := &dailyLoss{}
	var err error
	if g.maxLoss, err = optDecimal(opts, "maxLoss", decimal.Zero); err != nil {
		return nil, err
	}
	if g.maxPct, err = optDecimal(opts, "maxLossPercent", decimal.Zero); err != nil {
		return nil, err
	}
	if g.maxLoss.IsZero() && g.maxPct.IsZero() {
		return nil, fmt.Errorf("set maxLoss (amount) or maxLossPercent")
	}
	return g, nil
}

func (g *dailyLoss) Type() string { return "daily-loss" }

func (g *dailyLoss) Check(_ context.Context, gc Context) string {
	equity := gc.Account.NetLiquidation
	g.mu.Lock()
	day := gc.Now.UTC().Format(time.DateOnly)
	if g.day != day {
		g.day, g.baseline = day, equity
	}
	base := g.baseline
	g.mu.Unlock()
	if gc.DayStartEquity.IsPositive() {
		base = gc.DayStartEquity
	}
	if gc.Op.Action != git.PlaceOrder || gc.Op.Order.Action != trading.Buy || !base.IsPositive() {
		return ""
	}
	loss := base.Sub(equity)
	if !loss.IsPositive() {
		return ""
	}
	if g.maxLoss.IsPositive() && loss.GreaterThanOrEqual(g.maxLoss) {
		return fmt.Sprintf("Daily loss %s reached the limit %s; only closing trades are allowed today", loss.StringFixed(2), g.maxLoss)
	}
	pct := loss.Div(base).Mul(hundred)
	if g.maxPct.IsPositive() && pct.GreaterThanOrEqual(g.maxPct) {
		return fmt.Sprintf("Daily loss %s%% reached the limit %s%%; only closing trades are allowed today", pct.StringFixed(2), g.maxPct)
	}
	return ""
}
