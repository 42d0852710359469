package git

import (
	"fmt"
	"strings"

	"github.com/alice-trading/alice/trading"
)

// Describe renders an operation for people approving it, e.g.
// "placeOrder BUY 10 AAPL @190.5 (LMT)" or "closePosition MSFT all".
// It is all a person sees before approving (Telegram /trading, the
// Portfolio pane), so every field that changes what executes is in it:
// stop and trailing prices, attached take-profit/stop-loss legs, the time
// in force, and each change of a modifyOrder.
func (op Operation) Describe() string {
	switch {
	case op.Order != nil && op.Contract != nil:
		o := op.Order
		qty := o.TotalQuantity.String()
		if o.TotalQuantity.IsZero() && !o.CashQty.IsZero() {
			qty = "$" + o.CashQty.String()
		}
		s := fmt.Sprintf("%s %s %s %s", op.Action, o.Action, qty, op.Contract.Symbol)
		if !o.LmtPrice.IsZero() {
			s += " @" + o.LmtPrice.String()
		}
		s += " (" + string(o.OrderType) + ")"
		var extra []string
		if !o.AuxPrice.IsZero() {
			extra = append(extra, "stop "+o.AuxPrice.String())
		}
		if !o.TrailingPercent.IsZero() {
			extra = append(extra, "trail "+o.TrailingPercent.String()+"%")
		}
		if !o.TrailStopPrice.IsZero() {
			extra = append(extra, "trail stop "+o.TrailStopPrice.String())
		}
		if tif := timeInForce(o.TIF, o.GoodTillDate); tif != "" {
			extra = append(extra, tif)
		}
		if o.OutsideRTH {
			extra = append(extra, "outside RTH")
		}
		if o.ParentID != "" {
			extra = append(extra, "parent "+o.ParentID)
		}
		if o.OCAGroup != "" {
			extra = append(extra, "OCA "+o.OCAGroup)
		}
		if op.TPSL != nil {
			extra = append(extra, leg("take-profit", op.TPSL.TakeProfit)...)
			extra = append(extra, leg("stop-loss", op.TPSL.StopLoss)...)
		}
		if len(extra) > 0 {
			s += " " + strings.Join(extra, " ")
		}
		return s
	case op.Action == ModifyOrder && op.Changes != nil:
		s := fmt.Sprintf("%s %s", op.Action, op.OrderID)
		if op.SymbolHint != "" {
			s += " (" + op.SymbolHint + ")"
		}
		c := op.Changes
		var parts []string
		if !c.TotalQuantity.IsZero() {
			parts = append(parts, "quantity "+c.TotalQuantity.String())
		}
		if !c.LmtPrice.IsZero() {
			parts = append(parts, "limit "+c.LmtPrice.String())
		}
		if !c.AuxPrice.IsZero() {
			parts = append(parts, "stop "+c.AuxPrice.String())
		}
		if !c.TrailingPercent.IsZero() {
			parts = append(parts, "trail "+c.TrailingPercent.String()+"%")
		}
		if !c.TrailStopPrice.IsZero() {
			parts = append(parts, "trail stop "+c.TrailStopPrice.String())
		}
		if c.OrderType != "" {
			parts = append(parts, "type "+string(c.OrderType))
		}
		if c.TIF != "" {
			parts = append(parts, string(c.TIF))
		}
		if c.GoodTillDate != "" {
			parts = append(parts, "good till "+c.GoodTillDate)
		}
		if len(parts) > 0 {
			s += ": " + strings.Join(parts, ", ")
		}
		return s
	case op.Contract != nil:
		q := "all"
		if !op.Quantity.IsZero() {
			q = op.Quantity.String()
		}
		return fmt.Sprintf("%s %s %s", op.Action, op.Contract.Symbol, q)
	default:
		return fmt.Sprintf("%s %s", op.Action, op.OrderID)
	}
}

// timeInForce is the TIF (always shown: a person approves what executes,
// and venues differ in their defaults) and its date.
func timeInForce(tif trading.TIF, gtd string) string {
	s := string(tif)
	switch {
	case gtd == "":
	case s == "":
		s = "good till " + gtd
	default:
		s += " " + gtd
	}
	return s
}

// leg renders an attached take-profit or stop-loss order.
func leg(name string, l *trading.PriceLeg) []string {
	if l == nil {
		return nil
	}
	s := name + " " + l.Price.String()
	if !l.LimitPrice.IsZero() {
		s += " (limit " + l.LimitPrice.String() + ")"
	}
	return []string{s}
}
