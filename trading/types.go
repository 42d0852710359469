// Package trading holds the vocabulary shared by every part of the trading
// domain: contracts, orders, positions, account figures and quotes. Money
// and quantities are shopspring decimals throughout; a zero decimal means
// "unset" (no valid order has a zero quantity or price), and such fields are
// omitted from JSON with omitzero so wire formats stay small.
package trading

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// AssetClass groups instruments the way the search tools filter them.
type AssetClass string

const (
	Equity    AssetClass = "equity"
	Crypto    AssetClass = "crypto"
	Currency  AssetClass = "currency"
	Commodity AssetClass = "commodity"
	Unknown   AssetClass = "unknown"
)

// ParseAssetClass validates an asset class; "" is allowed (no filter).
func ParseAssetClass(s string) (AssetClass, error) {
	switch c := AssetClass(s); c {
	case "", Equity, Crypto, Currency, Commodity, Unknown:
		return c, nil
	}
	return "", fmt.Errorf("unknown assetClass %q (want equity, crypto, currency, commodity or unknown)", s)
}

// Contract identifies an instrument at one broker.
type Contract struct {
	AliceID     string     `json:"aliceId,omitempty"`
	Symbol      string     `json:"symbol"`
	SecType     string     `json:"secType,omitempty"` // STK, CRYPTO, CASH, CMDTY
	AssetClass  AssetClass `json:"assetClass,omitempty"`
	Exchange    string     `json:"exchange,omitempty"`
	Currency    string     `json:"currency,omitempty"`
	Description string     `json:"description,omitempty"`
}

// ContractDetails is the full specification returned by getContractDetails.
type ContractDetails struct {
	Contract Contract        `json:"contract"`
	MinTick  decimal.Decimal `json:"minTick,omitzero"`
	// LotSize is the quantity increment (zero: whole units unless
	// Fractionable); MinQty the smallest order quantity (zero: one lot).
	LotSize      decimal.Decimal `json:"lotSize,omitzero"`
	MinQty       decimal.Decimal `json:"minQty,omitzero"`
	Multiplier   string          `json:"multiplier,omitempty"`
	Tradable     bool            `json:"tradable"`
	Fractionable bool            `json:"fractionable"`
	OrderTypes   []OrderType     `json:"orderTypes,omitempty"`
}

// Action is the side of an order.
type Action string

const (
	Buy  Action = "BUY"
	Sell Action = "SELL"
)

// ParseAction validates an order side.
func ParseAction(s string) (Action, error) {
	switch a := Action(strings.ToUpper(s)); a {
	case Buy, Sell:
		return a, nil
	}
	return "", fmt.Errorf("unknown action %q (want BUY or SELL)", s)
}

// OrderType is the IBKR-style order type the tools accept.
type OrderType string

const (
	Market        OrderType = "MKT"
	Limit         OrderType = "LMT"
	Stop          OrderType = "STP"
	StopLimit     OrderType = "STP LMT"
	Trail         OrderType = "TRAIL"
	TrailLimit    OrderType = "TRAIL LIMIT"
	MarketOnClose OrderType = "MOC"
)

// AllOrderTypes lists every order type in tool-schema order.
var AllOrderTypes = []OrderType{Market, Limit, Stop, StopLimit, Trail, TrailLimit, MarketOnClose}

// ParseOrderType validates an order type.
func ParseOrderType(s string) (OrderType, error) {
	for _, t := range AllOrderTypes {
		if string(t) == strings.ToUpper(s) {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown orderType %q (want MKT, LMT, STP, STP LMT, TRAIL, TRAIL LIMIT or MOC)", s)
}

// TIF is an order's time in force.
type TIF string

const (
	Day TIF = "DAY"
	GTC TIF = "GTC"
	IOC TIF = "IOC"
	FOK TIF = "FOK"
	OPG TIF = "OPG"
	GTD TIF = "GTD"
)

// ParseTIF validates a time in force; "" means DAY.
func ParseTIF(s string) (TIF, error) {
	if s == "" {
		return Day, nil
	}
	switch t := TIF(strings.ToUpper(s)); t {
	case Day, GTC, IOC, FOK, OPG, GTD:
		return t, nil
	}
	return "", fmt.Errorf("unknown tif %q (want DAY, GTC, IOC, FOK, OPG or GTD)", s)
}

// Order is what the agent stages. ClientOrderID is derived from the commit
// hash at commit time so a broker can refuse a duplicate submission.
type Order struct {
	OrderID         string          `json:"orderId,omitempty"`
	ClientOrderID   string          `json:"clientOrderId,omitempty"`
	Action          Action          `json:"action"`
	OrderType       OrderType       `json:"orderType"`
	TotalQuantity   decimal.Decimal `json:"totalQuantity,omitzero"`
	CashQty         decimal.Decimal `json:"cashQty,omitzero"`
	LmtPrice        decimal.Decimal `json:"lmtPrice,omitzero"`
	AuxPrice        decimal.Decimal `json:"auxPrice,omitzero"`
	TrailStopPrice  decimal.Decimal `json:"trailStopPrice,omitzero"`
	TrailingPercent decimal.Decimal `json:"trailingPercent,omitzero"`
	TIF             TIF             `json:"tif"`
	GoodTillDate    string          `json:"goodTillDate,omitempty"`
	OutsideRTH      bool            `json:"outsideRth,omitempty"`
	ParentID        string          `json:"parentId,omitempty"`
	OCAGroup        string          `json:"ocaGroup,omitempty"`
}

// OrderChanges is a partial order for modifyOrder; zero fields are unchanged.
type OrderChanges struct {
	TotalQuantity   decimal.Decimal `json:"totalQuantity,omitzero"`
	LmtPrice        decimal.Decimal `json:"lmtPrice,omitzero"`
	AuxPrice        decimal.Decimal `json:"auxPrice,omitzero"`
	TrailStopPrice  decimal.Decimal `json:"trailStopPrice,omitzero"`
	TrailingPercent decimal.Decimal `json:"trailingPercent,omitzero"`
	OrderType       OrderType       `json:"orderType,omitempty"`
	TIF             TIF             `json:"tif,omitempty"`
	GoodTillDate    string          `json:"goodTillDate,omitempty"`
}

// Apply returns o with the non-zero changes applied.
func (c OrderChanges) Apply(o Order) Order {
	set := func(dst *decimal.Decimal, v decimal.Decimal) {
		if !v.IsZero() {
			*dst = v
		}
	}
	set(&o.TotalQuantity, c.TotalQuantity)
	set(&o.LmtPrice, c.LmtPrice)
	set(&o.AuxPrice, c.AuxPrice)
	set(&o.TrailStopPrice, c.TrailStopPrice)
	set(&o.TrailingPercent, c.TrailingPercent)
	if c.OrderType != "" {
		o.OrderType = c.OrderType
		o = o.dropInapplicable() // a type change drops the prices the new type does not take
	}
	if c.TIF != "" {
		o.TIF = c.TIF
		if o.TIF != GTD {
			o.GoodTillDate = ""
		}
	}
	if c.GoodTillDate != "" {
		o.GoodTillDate = c.GoodTillDate
	}
	return o
}

// TPSL attaches take-profit / stop-loss legs to an order.
type TPSL struct {
	TakeProfit *PriceLeg `json:"takeProfit,omitempty"`
	StopLoss   *PriceLeg `json:"stopLoss,omitempty"`
}

// PriceLeg is one TP/SL leg.
type PriceLeg struct {
	Price      decimal.Decimal `json:"price"`
	LimitPrice decimal.Decimal `json:"limitPrice,omitzero"`
}

// OrderStatus follows IBKR naming. A partially filled order stays
// Submitted with FilledQty > 0.
type OrderStatus string

const (
	StatusPreSubmitted OrderStatus = "PreSubmitted"
	StatusSubmitted    OrderStatus = "Submitted"
	StatusFilled       OrderStatus = "Filled"
	StatusCancelled    OrderStatus = "Cancelled"
	StatusRejected     OrderStatus = "Rejected"
)

// Pending reports whether the order can still fill.
func (s OrderStatus) Pending() bool { return s == StatusSubmitted || s == StatusPreSubmitted }

// OpenOrder is an order as the broker sees it.
type OpenOrder struct {
	Contract     Contract        `json:"contract"`
	Order        Order           `json:"order"`
	Status       OrderStatus     `json:"status"`
	FilledQty    decimal.Decimal `json:"filledQty"`
	AvgFillPrice decimal.Decimal `json:"avgFillPrice,omitzero"`
	RejectReason string          `json:"rejectReason,omitempty"`
	TPSL         *TPSL           `json:"tpsl,omitempty"`
	CreatedAt    time.Time       `json:"createdAt"`
	UpdatedAt    time.Time       `json:"updatedAt"`
}

// Side is a position's direction.
type Side string

const (
	Long  Side = "long"
	Short Side = "short"
)

// Position is a holding valued at the broker's mark.
type Position struct {
	Contract      Contract        `json:"contract"`
	Currency      string          `json:"currency"`
	Side          Side            `json:"side"`
	Quantity      decimal.Decimal `json:"quantity"`
	AvgCost       decimal.Decimal `json:"avgCost"`
	MarketPrice   decimal.Decimal `json:"marketPrice"`
	MarketValue   decimal.Decimal `json:"marketValue"`
	UnrealizedPnL decimal.Decimal `json:"unrealizedPnL"`
	RealizedPnL   decimal.Decimal `json:"realizedPnL"`
	Multiplier    string          `json:"multiplier"`
	// Risk is the venue's leverage, liquidation price and margin mode for
	// a leveraged position; nil for spot/cash holdings and for venues that
	// do not report them per position (never an implied 1×).
	Risk *PositionRisk `json:"risk,omitempty"`
}

// MarginMode is how a leveraged position is margined.
type MarginMode string

const (
	Cross    MarginMode = "cross"
	Isolated MarginMode = "isolated"
)

// PositionRisk is OpenAlice's position risk block: each field is set only
// when the venue reports it (a zero decimal is "not reported").
type PositionRisk struct {
	Leverage         decimal.Decimal `json:"leverage,omitzero"`
	LiquidationPrice decimal.Decimal `json:"liquidationPrice,omitzero"`
	MarginMode       MarginMode      `json:"marginMode,omitempty"`
}

// NewPositionRisk returns the risk block for the fields a venue reported,
// or nil when it reported none of them (zero leverage or liquidation
// price means "not reported", as CCXT and Bybit send them).
func NewPositionRisk(leverage, liquidation decimal.Decimal, mode MarginMode) *PositionRisk {
	r := PositionRisk{MarginMode: mode}
	if leverage.IsPositive() {
		r.Leverage = leverage
	}
	if liquidation.IsPositive() {
		r.LiquidationPrice = liquidation
	}
	if r.Leverage.IsZero() && r.LiquidationPrice.IsZero() && r.MarginMode == "" {
		return nil
	}
	return &r
}

// AccountInfo is the account summary.
type AccountInfo struct {
	BaseCurrency   string          `json:"baseCurrency"`
	NetLiquidation decimal.Decimal `json:"netLiquidation"`
	TotalCashValue decimal.Decimal `json:"totalCashValue"`
	UnrealizedPnL  decimal.Decimal `json:"unrealizedPnL"`
	RealizedPnL    decimal.Decimal `json:"realizedPnL"`
	BuyingPower    decimal.Decimal `json:"buyingPower,omitzero"`
}

// Quote is a top-of-book snapshot.
type Quote struct {
	Contract  Contract        `json:"contract"`
	Last      decimal.Decimal `json:"last"`
	Bid       decimal.Decimal `json:"bid"`
	Ask       decimal.Decimal `json:"ask"`
	Volume    decimal.Decimal `json:"volume"`
	High      decimal.Decimal `json:"high,omitzero"`
	Low       decimal.Decimal `json:"low,omitzero"`
	Timestamp time.Time       `json:"timestamp"`
}

// MarketClock says whether the venue trades now.
type MarketClock struct {
	IsOpen    bool       `json:"isOpen"`
	NextOpen  *time.Time `json:"nextOpen,omitempty"`
	NextClose *time.Time `json:"nextClose,omitempty"`
	Timestamp time.Time  `json:"timestamp"`
}

// OrderResult is a broker's answer to place/modify/cancel/close. Failures
// are returned as errors instead, so a result always means acceptance.
type OrderResult struct {
	OrderID     string          `json:"orderId"`
	Status      OrderStatus     `json:"status"`
	FilledQty   decimal.Decimal `json:"filledQty,omitzero"`
	FilledPrice decimal.Decimal `json:"filledPrice,omitzero"`
	Message     string          `json:"message,omitempty"`
}

// AliceID builds "{accountId}|{nativeKey}".
func AliceID(accountID, nativeKey string) string { return accountID + "|" + nativeKey }

// SplitAliceID parses an aliceId into account id and native key.
func SplitAliceID(id string) (accountID, nativeKey string, err error) {
	a, k, ok := strings.Cut(id, "|")
	if !ok || a == "" || k == "" {
		return "", "", fmt.Errorf("invalid aliceId %q (want \"accountId|nativeKey\", e.g. \"sim-paper|AAPL\")", id)
	}
	return a, k, nil
}
