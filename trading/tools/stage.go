package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/git"

	"github.com/shopspring/decimal"
)

var hundred = decimal.NewFromInt(100)

// maxLen is the schema's maxLength of a decimal string: the order model's
// cap before it trims and parses (trading.ParsePositive), so an MCP
// listener can refuse a megabyte-long "number" before parsing the request.
var maxLen = `"maxLength":` + strconv.Itoa(4*trading.MaxNumberChars)

// idLen is the schema's maxLength of an order's id-like strings.
var idLen = strconv.Itoa(trading.MaxIDChars)

var decimalProp = `{"type":"string",` + maxLen + `,"description":"Decimal > 0 as a string; \"\" means unset"}`

// qtyProp and cashProp say that exactly one of the two decides the fill.
var (
	qtyProp  = `{"type":"string",` + maxLen + `,"description":"Units to trade (decimal string). Set exactly one of totalQuantity and cashQty"}`
	cashProp = `{"type":"string",` + maxLen + `,"description":"Amount of money to trade instead of units (decimal string, at most 2 decimals). Set exactly one of totalQuantity and cashQty"}`
)

func (h *handlers) stageTools() []core.Tool {
	srcReq := `"source":{"type":"string","description":"Account id (see listUTAs)"}`
	srcOpt := `"source":{"type":"string","description":"Account id (see listUTAs); defaults to the account inside aliceId"}`
	commitProp := `"commitMessage":{"type":"string","maxLength":500,"description":"Stage AND commit in one step with this message (your trading thesis: one line of at most 500 characters, no control characters). tradingPush (and approval) is still required."}`
	subAcct := `"subAccountId":{"type":"string","description":"Wallet on multi-wallet venues; alice accounts are single-wallet (one per market), so it is accepted and ignored"}`
	return []core.Tool{
		tool("placeOrder", "Stage an order (nothing executes until tradingCommit + an approved push; commitMessage stages and commits in one step).",
			`{"type":"object","properties":{`+srcOpt+`,`+commitProp+`,`+subAcct+`,
			"aliceId":{"type":"string","description":"\"accountId|symbol\" from searchContracts"},
			"symbol":{"type":"string"},
			"action":{"type":"string","enum":["BUY","SELL"]},
			"orderType":{"type":"string","enum":["MKT","LMT","STP","STP LMT","TRAIL","TRAIL LIMIT","MOC"]},
			"totalQuantity":`+qtyProp+`,"cashQty":`+cashProp+`,"lmtPrice":`+decimalProp+`,"auxPrice":`+decimalProp+`,
			"trailStopPrice":`+decimalProp+`,"trailingPercent":`+decimalProp+`,
			"tif":{"type":"string","enum":["DAY","GTC","IOC","FOK","OPG","GTD"],"description":"Time in force; omitted: the venue's default for the asset class (the result says which)"},
			"goodTillDate":{"type":"string","maxLength":`+idLen+`,"description":"Only with tif GTD: a date-time, RFC 3339 (2030-01-31T16:00:00Z) or \"20300131 16:00:00 America/New_York\""},"outsideRth":{"type":"boolean"},
			"parentId":{"type":"string","maxLength":`+idLen+`,"description":"Not accepted on a new order: attach legs with takeProfit/stopLoss"},
			"ocaGroup":{"type":"string","maxLength":`+strconv.Itoa(trading.MaxOCAGroupChars)+`,"description":"A NEW one-cancels-all group shared by orders of this commit (letters, digits, . _ -); a group with open orders at the broker is refused. Sent as alice-<commit hash>-<name>"},
			"takeProfit":{"type":"object","properties":{"price":`+decimalProp+`},"required":["price"]},
			"stopLoss":{"type":"object","properties":{"price":`+decimalProp+`,"limitPrice":`+decimalProp+`},"required":["price"]}},
			"required":["aliceId","action","orderType"]}`,
			h.placeOrder),
		tool("modifyOrder", "Stage a modification of an open order (commitMessage also commits it). An order the venue does not know, or one already filled or cancelled, is refused here. The order after the change is checked like a new order here and judged by the guards at push; if a guard refuses it, nothing reaches the broker and the original order keeps resting exactly as it was — the push result's rejected entry says so and shows the order as it still stands.",
			`{"type":"object","properties":{`+srcReq+`,`+commitProp+`,"orderId":{"type":"string"},
			"totalQuantity":`+decimalProp+`,"lmtPrice":`+decimalProp+`,"auxPrice":`+decimalProp+`,"trailStopPrice":`+decimalProp+`,"trailingPercent":`+decimalProp+`,
			"orderType":{"type":"string","enum":["MKT","LMT","STP","STP LMT","TRAIL","TRAIL LIMIT","MOC"]},
			"tif":{"type":"string","enum":["DAY","GTC","IOC","FOK","OPG","GTD"]},"goodTillDate":{"type":"string"}},
			"required":["source","orderId"]}`,
			h.modifyOrder),
		tool("closePosition", "Stage closing a position (all of it unless qty is given; commitMessage also commits it). A close is one market order and the guards value it so: a close worth more than max-order-value is refused here (nothing staged) with the largest qty the guard allows per order and how many parts it takes — stage those parts yourself (each a closePosition with that qty; they may share a commit); alice never splits or shrinks a close on its own.",
			`{"type":"object","properties":{`+srcOpt+`,`+commitProp+`,`+subAcct+`,"aliceId":{"type":"string"},"symbol":{"type":"string"},"qty":`+decimalProp+`},"required":["aliceId"]}`,
			h.closePosition),
		tool("cancelOrder", "Stage cancelling an open order (commitMessage also commits it). An order the venue does not know, or one already filled or cancelled, is refused here.",
			`{"type":"object","properties":{`+srcReq+`,`+commitProp+`,"orderId":{"type":"string"}},"required":["source","orderId"]}`,
			h.cancelOrder),
	}
}

type priceLegArgs struct {
	Price      string `json:"price"`
	LimitPrice string `json:"limitPrice"`
}

func (h *handlers) placeOrder(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source          string        `json:"source"`
		AliceID         string        `json:"aliceId"`
		Symbol          string        `json:"symbol"`
		Action          string        `json:"action"`
		OrderType       string        `json:"orderType"`
		TotalQuantity   string        `json:"totalQuantity"`
		CashQty         string        `json:"cashQty"`
		LmtPrice        string        `json:"lmtPrice"`
		AuxPrice        string        `json:"auxPrice"`
		TrailStopPrice  string        `json:"trailStopPrice"`
		TrailingPercent string        `json:"trailingPercent"`
		TIF             string        `json:"tif"`
		GoodTillDate    string        `json:"goodTillDate"`
		OutsideRth      bool          `json:"outsideRth"`
		ParentID        string        `json:"parentId"`
		OCAGroup        string        `json:"ocaGroup"`
		TakeProfit      *priceLegArgs `json:"takeProfit"`
		StopLoss        *priceLegArgs `json:"stopLoss"`
		CommitMessage   string        `json:"commitMessage"`
		SubAccountID    string        `json:"subAccountId"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if a.AliceID == "" {
		return nil, fmt.Errorf("aliceId is required (e.g. %q; find one with searchContracts)", "sim-paper|AAPL")
	}
	u, err := h.oneFor(a.Source, a.AliceID)
	if err != nil {
		return nil, err
	}
	c, err := u.ContractFromAliceID(ctx, a.AliceID)
	if err != nil {
		return nil, err
	}
	if a.Symbol != "" && !strings.EqualFold(a.Symbol, c.Symbol) && !strings.EqualFold(a.Symbol, strings.ReplaceAll(c.Symbol, "/", "")) {
		return nil, fmt.Errorf("symbol %q does not match aliceId %q", a.Symbol, a.AliceID)
	}
	o := trading.Order{GoodTillDate: a.GoodTillDate, OutsideRTH: a.OutsideRth, ParentID: a.ParentID, OCAGroup: a.OCAGroup}
	if o.Action, err = trading.ParseAction(a.Action); err != nil {
		return nil, err
	}
	if o.OrderType, err = trading.ParseOrderType(a.OrderType); err != nil {
		return nil, err
	}
	if a.TIF != "" { // empty: the venue's default, resolved and said at staging
		if o.TIF, err = trading.ParseTIF(a.TIF); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		name string
		s    string
		dst  *decimal.Decimal
	}{{"totalQuantity", a.TotalQuantity, &o.TotalQuantity}, {"cashQty", a.CashQty, &o.CashQty}, {"lmtPrice", a.LmtPrice, &o.LmtPrice},
		{"auxPrice", a.AuxPrice, &o.AuxPrice}, {"trailStopPrice", a.TrailStopPrice, &o.TrailStopPrice}, {"trailingPercent", a.TrailingPercent, &o.TrailingPercent}} {
		if *f.dst, err = trading.ParsePositive(f.name, f.s); err != nil {
			return nil, err
		}
	}
	var tpsl *trading.TPSL
	if a.TakeProfit != nil || a.StopLoss != nil {
		tpsl = &trading.TPSL{}
		if a.TakeProfit != nil {
			p, err := requiredPositive("takeProfit.price", a.TakeProfit.Price)
			if err != nil {
				return nil, err
			}
			tpsl.TakeProfit = &trading.PriceLeg{Price: p}
		}
		if a.StopLoss != nil {
			p, err := requiredPositive("stopLoss.price", a.StopLoss.Price)
			if err != nil {
				return nil, err
			}
			lp, err := trading.ParsePositive("stopLoss.limitPrice", a.StopLoss.LimitPrice)
			if err != nil {
				return nil, err
			}
			tpsl.StopLoss = &trading.PriceLeg{Price: p, LimitPrice: lp}
		}
	}
	return h.stage(ctx, u, git.Operation{Action: git.PlaceOrder, Contract: &c, Order: &o, TPSL: tpsl}, a.CommitMessage)
}

func requiredPositive(field, s string) (decimal.Decimal, error) {
	if strings.TrimSpace(s) == "" {
		return decimal.Zero, fmt.Errorf("%s is required", field)
	}
	return trading.ParsePositive(field, s)
}

func (h *handlers) modifyOrder(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source          string `json:"source"`
		OrderID         string `json:"orderId"`
		TotalQuantity   string `json:"totalQuantity"`
		LmtPrice        string `json:"lmtPrice"`
		AuxPrice        string `json:"auxPrice"`
		TrailStopPrice  string `json:"trailStopPrice"`
		TrailingPercent string `json:"trailingPercent"`
		OrderType       string `json:"orderType"`
		TIF             string `json:"tif"`
		GoodTillDate    string `json:"goodTillDate"`
		CommitMessage   string `json:"commitMessage"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	u, err := h.one(a.Source)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.OrderID) == "" {
		return nil, fmt.Errorf("orderId is required")
	}
	var ch trading.OrderChanges
	for _, f := range []struct {
		name string
		s    string
		dst  *decimal.Decimal
	}{{"totalQuantity", a.TotalQuantity, &ch.TotalQuantity}, {"lmtPrice", a.LmtPrice, &ch.LmtPrice}, {"auxPrice", a.AuxPrice, &ch.AuxPrice},
		{"trailStopPrice", a.TrailStopPrice, &ch.TrailStopPrice}, {"trailingPercent", a.TrailingPercent, &ch.TrailingPercent}} {
		if *f.dst, err = trading.ParsePositive(f.name, f.s); err != nil {
			return nil, err
		}
	}
	if a.OrderType != "" {
		if ch.OrderType, err = trading.ParseOrderType(a.OrderType); err != nil {
			return nil, err
		}
	}
	if a.TIF != "" {
		if ch.TIF, err = trading.ParseTIF(a.TIF); err != nil {
			return nil, err
		}
	}
	ch.GoodTillDate = a.GoodTillDate
	if ch == (trading.OrderChanges{}) {
		return nil, fmt.Errorf("nothing to modify: pass at least one of totalQuantity, lmtPrice, auxPrice, trailStopPrice, trailingPercent, orderType, tif, goodTillDate")
	}
	return h.stage(ctx, u, git.Operation{Action: git.ModifyOrder, OrderID: a.OrderID, Changes: &ch, SymbolHint: h.orderSymbol(ctx, u, a.OrderID)}, a.CommitMessage)
}

func (h *handlers) closePosition(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source  string `json:"source"`
		AliceID string `json:"aliceId"`
		Symbol  string `json:"symbol"`
		Qty     string `json:"qty"`

		CommitMessage string `json:"commitMessage"`
		SubAccountID  string `json:"subAccountId"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if a.AliceID == "" {
		return nil, fmt.Errorf("aliceId is required")
	}
	u, err := h.oneFor(a.Source, a.AliceID)
	if err != nil {
		return nil, err
	}
	c, err := u.ContractFromAliceID(ctx, a.AliceID)
	if err != nil {
		return nil, err
	}
	qty, err := trading.ParsePositive("qty", a.Qty)
	if err != nil {
		return nil, err
	}
	return h.stage(ctx, u, git.Operation{Action: git.ClosePosition, Contract: &c, Quantity: qty}, a.CommitMessage)
}

func (h *handlers) cancelOrder(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct {
		Source  string `json:"source"`
		OrderID string `json:"orderId"`

		CommitMessage string `json:"commitMessage"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	u, err := h.one(a.Source)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.OrderID) == "" {
		return nil, fmt.Errorf("orderId is required")
	}
	return h.stage(ctx, u, git.Operation{Action: git.CancelOrder, OrderID: a.OrderID, SymbolHint: h.orderSymbol(ctx, u, a.OrderID)}, a.CommitMessage)
}

// orderSymbol best-effort labels order-id operations with their symbol so
// guards (whitelist) and logs can use it.
func (h *handlers) orderSymbol(ctx context.Context, u interface {
	Orders(context.Context, []string) ([]trading.OpenOrder, error)
}, id string) string {
	os, err := u.Orders(ctx, []string{id})
	if err != nil || len(os) == 0 {
		return ""
	}
	return os[0].Contract.Symbol
}
