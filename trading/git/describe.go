package git

import "fmt"

// Describe renders an operation for people approving it, e.g.
// "placeOrder BUY 10 AAPL @190.5 (LMT)" or "closePosition MSFT all".
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
		return s + " (" + string(o.OrderType) + ")"
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
