// Package uta is the Unified Trading Account: a broker, its Trading-as-Git
// history, the guard pipeline and the snapshot store, plus the Manager that
// owns every account's lifecycle from accounts.json. The TUI, MCP, Telegram
// and the trading tools all go through the Manager; brokers are internal.
package uta

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/guard"
	"github.com/alice-trading/alice/trading/sim"
	"github.com/alice-trading/alice/trading/snapshot"

	"github.com/shopspring/decimal"
)

// Health is an account's connectivity.
type Health string

const (
	Healthy  Health = "healthy"
	Degraded Health = "degraded"
	Offline  Health = "offline"
	Disabled Health = "disabled"
)

// UTA is one account.
type UTA struct {
	cfg    config.Account
	broker broker.Broker
	sim    *sim.Broker // non-nil for the simulator preset (god-view)
	git    *git.Git
	guards *guard.Pipeline
	snaps  *snapshot.Store
	now    func() time.Time
	logger *slog.Logger
	// gate refuses staging account-wide (the kill switch); nil allows.
	gate func(ctx context.Context) error
	// onBadData reports a venue answer that did not parse (an event);
	// nil ignores it.
	onBadData func(err error)

	mu       sync.Mutex
	health   Health
	failures int
	lastErr  string
}

// ID is the account id.
func (u *UTA) ID() string { return u.cfg.ID }

// Label is the display name.
func (u *UTA) Label() string {
	if u.cfg.Label != "" {
		return u.cfg.Label
	}
	return u.cfg.ID
}

// Preset is the broker preset ("simulator", "alpaca").
func (u *UTA) Preset() string { return u.cfg.Preset }

// AutoApprove reports whether pushes run without a human.
func (u *UTA) AutoApprove() bool { return u.cfg.AutoApprove }

// Broker exposes the broker (for tools that read quotes and contracts).
func (u *UTA) Broker() broker.Broker { return u.broker }

// Sim returns the simulated broker's god-view, or nil for real brokers.
func (u *UTA) Sim() *sim.Broker { return u.sim }

// Git is the account's history.
func (u *UTA) Git() *git.Git { return u.git }

// Health returns the health and last error.
func (u *UTA) Health() (Health, string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.health, u.lastErr
}

// observe tracks broker health: one failure degrades, three take the
// account offline; a success heals.
func (u *UTA) observe(err error) {
	if err != nil && broker.CodeOf(err) == broker.CodeBadData && u.onBadData != nil {
		u.onBadData(err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if err == nil {
		u.health, u.failures, u.lastErr = Healthy, 0, ""
		return
	}
	if c := broker.CodeOf(err); c != broker.CodeNetwork && c != broker.CodeAuth && c != broker.CodeConfig && c != broker.CodeUnknown {
		return // an order-level failure says nothing about connectivity
	}
	u.failures++
	u.lastErr = err.Error()
	u.health = Degraded
	if u.failures >= 3 || broker.CodeOf(err) == broker.CodeAuth {
		u.health = Offline
	}
}

// Account reads the account summary.
func (u *UTA) Account(ctx context.Context) (trading.AccountInfo, error) {
	a, err := u.broker.Account(ctx)
	u.observe(err)
	return a, err
}

// Positions reads positions.
func (u *UTA) Positions(ctx context.Context) ([]trading.Position, error) {
	p, err := u.broker.Positions(ctx)
	u.observe(err)
	return p, err
}

// Orders reads orders by id; with no ids, the pending orders from history.
func (u *UTA) Orders(ctx context.Context, ids []string) ([]trading.OpenOrder, error) {
	if len(ids) == 0 {
		ids = u.git.PendingOrderIDs()
		if len(ids) == 0 {
			return []trading.OpenOrder{}, nil
		}
	}
	o, err := u.broker.Orders(ctx, ids)
	u.observe(err)
	return o, err
}

// ContractFromAliceID resolves "{accountId}|{nativeKey}" at this account.
func (u *UTA) ContractFromAliceID(ctx context.Context, aliceID string) (trading.Contract, error) {
	acct, key, err := trading.SplitAliceID(aliceID)
	if err != nil {
		return trading.Contract{}, err
	}
	if acct != u.cfg.ID {
		return trading.Contract{}, fmt.Errorf("aliceId %q belongs to account %q, not %q", aliceID, acct, u.cfg.ID)
	}
	c, err := u.broker.ResolveNativeKey(ctx, key)
	if err != nil {
		return c, err
	}
	c.AliceID = trading.AliceID(u.cfg.ID, u.broker.NativeKey(c))
	return c, nil
}

// dispatch executes one operation for git: guards first, then the broker.
func (u *UTA) dispatch(ctx context.Context, op git.Operation) git.Result {
	fail := func(msg string) git.Result {
		return git.Result{Action: op.Action, Status: git.StatusRejected, Error: msg}
	}
	var gc guard.Context
	if u.guards.Len() > 0 {
		var err error
		if gc, err = u.guardContext(ctx, op); err != nil {
			return fail(err.Error() + u.untouched(ctx, op))
		}
		if reason := u.guards.Check(ctx, gc); reason != "" {
			return fail(reason + u.untouched(ctx, op))
		}
	}
	var res trading.OrderResult
	var err error
	switch op.Action {
	case git.PlaceOrder:
		res, err = u.broker.PlaceOrder(ctx, *op.Contract, *op.Order, op.TPSL)
	case git.ModifyOrder:
		res, err = u.broker.ModifyOrder(ctx, op.OrderID, *op.Changes)
	case git.CancelOrder:
		res, err = u.broker.CancelOrder(ctx, op.OrderID)
	case git.ClosePosition:
		res, err = u.broker.ClosePosition(ctx, *op.Contract, op.Quantity)
	default:
		return fail("unsupported operation " + string(op.Action))
	}
	u.observe(err)
	if err != nil {
		return fail(err.Error())
	}
	status := git.FromOrderStatus(res.Status)
	if u.guards.Len() > 0 && status != git.StatusRejected && status != git.StatusCancelled {
		// Only what executed arms the cooldown; it is on disk before git
		// records (and the caller sees) the result.
		if err := u.guards.Executed(gc, u.now()); err != nil {
			u.logger.Error("trading: guard state not saved; a restart would forget it", "err", err)
		}
	}
	return git.Result{Action: op.Action, Success: true, OrderID: res.OrderID, Status: status,
		FilledQty: res.FilledQty, FilledPrice: res.FilledPrice}
}

// untouched tells, for a modify or cancel the guards stopped, that the
// broker never saw it: the order rests exactly as it was (read back
// from the broker to say so).
func (u *UTA) untouched(ctx context.Context, op git.Operation) string {
	if op.Action != git.ModifyOrder && op.Action != git.CancelOrder {
		return ""
	}
	note := " — nothing was sent to the broker"
	o, err := u.broker.Order(ctx, op.OrderID)
	if err != nil || o == nil {
		return note
	}
	note += ": order " + op.OrderID + " is unchanged"
	state := "still resting"
	if !o.Status.Pending() {
		state = string(o.Status)
	}
	return fmt.Sprintf("%s (%s, %s)", note, describeOpen(o.Order, o.Contract.Symbol), state)
}

// describeOpen is "BUY 20 AAPL LMT 150 GTC".
func describeOpen(o trading.Order, sym string) string {
	parts := []string{string(o.Action), o.TotalQuantity.String(), sym, string(o.OrderType)}
	if o.CashQty.IsPositive() {
		parts[1] = "$" + o.CashQty.String() + " of"
	}
	switch {
	case o.AuxPrice.IsPositive() && o.LmtPrice.IsPositive():
		parts = append(parts, "stop "+o.AuxPrice.String(), "limit "+o.LmtPrice.String())
	case o.AuxPrice.IsPositive():
		parts = append(parts, o.AuxPrice.String())
	case o.LmtPrice.IsPositive():
		parts = append(parts, o.LmtPrice.String())
	}
	if o.TIF != "" {
		parts = append(parts, string(o.TIF))
	}
	return strings.Join(parts, " ")
}

// clientOrderFinder is implemented by brokers that can look an order up by
// the client order id a commit gave it (the simulator).
type clientOrderFinder interface {
	OrderByClientID(ctx context.Context, clientID string) (*trading.OpenOrder, error)
}

// reconcile tells git whether an operation a crash interrupted reached the
// broker, so the history records what really executed.
func (u *UTA) reconcile(ctx context.Context, op git.Operation) (git.Result, bool) {
	f, ok := u.broker.(clientOrderFinder)
	if !ok || op.Order == nil {
		return git.Result{}, false
	}
	o, err := f.OrderByClientID(ctx, op.Order.ClientOrderID)
	if err != nil || o == nil {
		return git.Result{}, false
	}
	return git.Result{Action: op.Action, Success: o.Status != trading.StatusRejected, OrderID: o.Order.OrderID,
		Status: git.FromOrderStatus(o.Status), FilledQty: o.FilledQty, FilledPrice: o.AvgFillPrice, Error: o.RejectReason}, true
}

// guardContext gathers what the guards judge an operation by: positions,
// account, and for a modifyOrder the open order as it will be after the
// change (so raising a quantity is valued like a new order).
func (u *UTA) guardContext(ctx context.Context, op git.Operation) (guard.Context, error) {
	pos, err := u.broker.Positions(ctx)
	u.observe(err)
	if err != nil {
		return guard.Context{}, fmt.Errorf("guard check failed reading positions: %w", err)
	}
	acct, err := u.broker.Account(ctx)
	u.observe(err)
	if err != nil {
		return guard.Context{}, fmt.Errorf("guard check failed reading account: %w", err)
	}
	gc := guard.Context{Op: op, Positions: pos, Account: acct, Now: u.now(), Quote: u.quote}
	if op.Action == git.ModifyOrder && op.Changes != nil {
		open, err := u.broker.Order(ctx, op.OrderID)
		if err != nil || open == nil {
			return guard.Context{}, fmt.Errorf("guard check failed reading order %s: %v", op.OrderID, err)
		}
		next := op.Changes.Apply(open.Order)
		if rest := next.TotalQuantity.Sub(open.FilledQty); rest.IsPositive() && !next.TotalQuantity.IsZero() {
			next.TotalQuantity = rest
		}
		c := open.Contract
		gc.Order, gc.Contract = &next, &c
	}
	if op.Action == git.ClosePosition && op.Contract != nil {
		if o, ok := closeOrder(pos, op); ok {
			c := *op.Contract
			gc.Order, gc.Contract = &o, &c
		}
	}
	if u.guards.Has("max-position-size") {
		if gc.Resting, err = u.resting(ctx, op); err != nil {
			return guard.Context{}, fmt.Errorf("guard check failed reading resting orders: %w", err)
		}
	}
	if u.guards.Has("daily-loss") {
		gc.DayStartEquity, gc.DayStartAt = u.dayStartEquity()
	}
	return gc, nil
}

// resting reads the account's open orders that may still fill (every
// order the venue reports as pending, alice's and external ones), except
// the one a modifyOrder changes (the guards judge it as changed). It runs
// inside a push, so it asks the broker, never git (whose lock the push
// holds).
func (u *UTA) resting(ctx context.Context, op git.Operation) ([]trading.OpenOrder, error) {
	orders, err := u.broker.Orders(ctx, nil)
	u.observe(err)
	if err != nil {
		return nil, err
	}
	var out []trading.OpenOrder
	for _, o := range orders {
		if o.Status.Pending() && !(op.Action == git.ModifyOrder && o.Order.OrderID == op.OrderID) {
			out = append(out, o)
		}
	}
	return out, nil
}

// closeOrder is the market order a closePosition produces against the
// positions: the opposite side of the position, its quantity (or the
// close's, when given). False when there is no position to close.
func closeOrder(pos []trading.Position, op git.Operation) (trading.Order, bool) {
	held, side := heldQuantity(pos, op.Contract.Symbol)
	if held.IsZero() {
		return trading.Order{}, false
	}
	o := trading.Order{Action: trading.Sell, OrderType: trading.Market, TotalQuantity: held}
	if side == trading.Short {
		o.Action = trading.Buy
	}
	if op.Quantity.IsPositive() {
		o.TotalQuantity = op.Quantity
	}
	return o, true
}

// heldQuantity is the absolute quantity held in a symbol and its side.
func heldQuantity(pos []trading.Position, sym string) (decimal.Decimal, trading.Side) {
	for _, p := range pos {
		if strings.EqualFold(p.Contract.Symbol, sym) && !p.Quantity.IsZero() {
			return p.Quantity.Abs(), p.Side
		}
	}
	return decimal.Zero, ""
}

func (u *UTA) quote(ctx context.Context, c trading.Contract) (trading.Quote, error) {
	q, err := u.broker.Quote(ctx, c)
	u.observe(err)
	return q, err
}

// dayStartEquity is the first snapshot's equity today (UTC), or zero.
func (u *UTA) dayStartEquity() (decimal.Decimal, time.Time) {
	now := u.now().UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	snaps, err := u.snaps.List(start, 0)
	if err != nil || len(snaps) == 0 {
		return decimal.Zero, time.Time{}
	}
	return snaps[0].Account.NetLiquidation, snaps[0].Timestamp
}

// state builds git's stateAfter.
func (u *UTA) state(ctx context.Context, pendingIDs []string) (git.State, error) {
	acct, err := u.broker.Account(ctx)
	if err != nil {
		return git.State{}, err
	}
	pos, err := u.broker.Positions(ctx)
	if err != nil {
		return git.State{}, err
	}
	if pos == nil {
		pos = []trading.Position{}
	}
	st := git.State{NetLiquidation: acct.NetLiquidation, TotalCashValue: acct.TotalCashValue,
		UnrealizedPnL: acct.UnrealizedPnL, RealizedPnL: acct.RealizedPnL, Positions: pos, PendingOrders: []trading.OpenOrder{}}
	if len(pendingIDs) > 0 {
		if orders, err := u.broker.Orders(ctx, pendingIDs); err == nil {
			for _, o := range orders {
				if o.Status.Pending() {
					st.PendingOrders = append(st.PendingOrders, o)
				}
			}
		}
	}
	return st, nil
}

// Snapshot captures the account now and stores it.
func (u *UTA) Snapshot(ctx context.Context, trigger snapshot.Trigger) (snapshot.Snapshot, error) {
	acct, err := u.Account(ctx)
	if err != nil {
		return snapshot.Snapshot{}, err
	}
	pos, err := u.Positions(ctx)
	if err != nil {
		return snapshot.Snapshot{}, err
	}
	health, _ := u.Health()
	st := u.git.Status()
	sn := snapshot.Snapshot{AccountID: u.cfg.ID, Timestamp: u.now().UTC(), Trigger: trigger, Health: string(health),
		HeadCommit: st.Head, PendingCommits: []string{}, Positions: []snapshot.Position{}, OpenOrders: []snapshot.Order{},
		Account: acct}
	if st.PendingHash != "" {
		sn.PendingCommits = append(sn.PendingCommits, st.PendingHash)
	}
	for _, p := range pos {
		sn.Positions = append(sn.Positions, snapshot.Position{AliceID: trading.AliceID(u.cfg.ID, u.broker.NativeKey(p.Contract)),
			Currency: p.Currency, Side: string(p.Side), Quantity: p.Quantity, AvgCost: p.AvgCost, MarketPrice: p.MarketPrice,
			MarketValue: p.MarketValue, UnrealizedPnL: p.UnrealizedPnL, RealizedPnL: p.RealizedPnL, SecType: p.Contract.SecType, Multiplier: p.Multiplier})
	}
	if orders, err := u.Orders(ctx, nil); err == nil {
		for _, o := range orders {
			if !o.Status.Pending() {
				continue
			}
			sn.OpenOrders = append(sn.OpenOrders, snapshot.Order{OrderID: o.Order.OrderID, AliceID: trading.AliceID(u.cfg.ID, u.broker.NativeKey(o.Contract)),
				Action: string(o.Order.Action), OrderType: string(o.Order.OrderType), TotalQuantity: o.Order.TotalQuantity,
				LimitPrice: o.Order.LmtPrice, Status: string(o.Status), AvgFillPrice: o.AvgFillPrice})
		}
	}
	return sn, u.snaps.Append(sn)
}

// Snapshots lists stored snapshots.
func (u *UTA) Snapshots(since time.Time, limit int) ([]snapshot.Snapshot, error) {
	return u.snaps.List(since, limit)
}

// EquityCurve is net liquidation over time.
func (u *UTA) EquityCurve(since time.Time) ([]snapshot.Point, error) {
	return u.snaps.EquityCurve(since)
}

// matches reports whether source ("" = any, an id, or a preset) names u.
func (u *UTA) matches(source string) bool {
	return source == "" || source == u.cfg.ID || strings.EqualFold(source, u.cfg.Preset)
}
