package alpaca

import (
	"strings"
	"time"

	"github.com/alice-trading/alice/trading"

	"github.com/shopspring/decimal"
)

// Alpaca sends money as strings; decimal.Decimal decodes both strings and
// numbers, and NullDecimal handles null.

type wireAccount struct {
	Currency       string              `json:"currency"`
	Cash           decimal.Decimal     `json:"cash"`
	Equity         decimal.Decimal     `json:"equity"`
	BuyingPower    decimal.Decimal     `json:"buying_power"`
	LastEquity     decimal.NullDecimal `json:"last_equity"`
	Status         string              `json:"status"`
	TradingBlocked bool                `json:"trading_blocked"`
}

type wirePosition struct {
	Symbol        string          `json:"symbol"`
	AssetClass    string          `json:"asset_class"`
	Exchange      string          `json:"exchange"`
	Qty           decimal.Decimal `json:"qty"`
	Side          string          `json:"side"`
	AvgEntryPrice decimal.Decimal `json:"avg_entry_price"`
	CurrentPrice  decimal.Decimal `json:"current_price"`
	MarketValue   decimal.Decimal `json:"market_value"`
	UnrealizedPL  decimal.Decimal `json:"unrealized_pl"`
}

type wireOrder struct {
	ID             string              `json:"id"`
	ClientOrderID  string              `json:"client_order_id"`
	Symbol         string              `json:"symbol"`
	AssetClass     string              `json:"asset_class"`
	Qty            decimal.NullDecimal `json:"qty"`
	Notional       decimal.NullDecimal `json:"notional"`
	FilledQty      decimal.NullDecimal `json:"filled_qty"`
	FilledAvgPrice decimal.NullDecimal `json:"filled_avg_price"`
	Type           string              `json:"type"`
	Side           string              `json:"side"`
	TimeInForce    string              `json:"time_in_force"`
	LimitPrice     decimal.NullDecimal `json:"limit_price"`
	StopPrice      decimal.NullDecimal `json:"stop_price"`
	TrailPrice     decimal.NullDecimal `json:"trail_price"`
	TrailPercent   decimal.NullDecimal `json:"trail_percent"`
	Status         string              `json:"status"`
	ExtendedHours  bool                `json:"extended_hours"`
	CreatedAt      time.Time           `json:"created_at"`
	UpdatedAt      time.Time           `json:"updated_at"`
}

type wireAsset struct {
	ID           string `json:"id"`
	Class        string `json:"class"`
	Exchange     string `json:"exchange"`
	Symbol       string `json:"symbol"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	Tradable     bool   `json:"tradable"`
	Fractionable bool   `json:"fractionable"`
	// crypto assets carry their increments (absent for equities)
	MinOrderSize      decimal.Decimal `json:"min_order_size"`
	MinTradeIncrement decimal.Decimal `json:"min_trade_increment"`
	PriceIncrement    decimal.Decimal `json:"price_increment"`
}

type wireClock struct {
	Timestamp time.Time `json:"timestamp"`
	IsOpen    bool      `json:"is_open"`
	NextOpen  time.Time `json:"next_open"`
	NextClose time.Time `json:"next_close"`
}

type wireQuote struct {
	AskPrice decimal.Decimal `json:"ap"`
	AskSize  decimal.Decimal `json:"as"`
	BidPrice decimal.Decimal `json:"bp"`
	BidSize  decimal.Decimal `json:"bs"`
	T        time.Time       `json:"t"`
}

type wireTrade struct {
	Price decimal.Decimal `json:"p"`
	Size  decimal.Decimal `json:"s"`
	T     time.Time       `json:"t"`
}

type wireOrderRequest struct {
	Symbol        string          `json:"symbol"`
	Qty           string          `json:"qty,omitempty"`
	Notional      string          `json:"notional,omitempty"`
	Side          string          `json:"side"`
	Type          string          `json:"type"`
	TimeInForce   string          `json:"time_in_force"`
	LimitPrice    string          `json:"limit_price,omitempty"`
	StopPrice     string          `json:"stop_price,omitempty"`
	TrailPrice    string          `json:"trail_price,omitempty"`
	TrailPercent  string          `json:"trail_percent,omitempty"`
	ExtendedHours bool            `json:"extended_hours,omitempty"`
	ClientOrderID string          `json:"client_order_id,omitempty"`
	OrderClass    string          `json:"order_class,omitempty"`
	TakeProfit    *wireTakeProfit `json:"take_profit,omitempty"`
	StopLoss      *wireStopLoss   `json:"stop_loss,omitempty"`
}

type wireTakeProfit struct {
	LimitPrice string `json:"limit_price"`
}

type wireStopLoss struct {
	StopPrice  string `json:"stop_price"`
	LimitPrice string `json:"limit_price,omitempty"`
}

func str(d decimal.Decimal) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

var orderTypeToWire = map[trading.OrderType]string{
	trading.Market: "market", trading.Limit: "limit", trading.Stop: "stop",
	trading.StopLimit: "stop_limit", trading.Trail: "trailing_stop",
}

func typeFromWire(s string) trading.OrderType {
	for k, v := range orderTypeToWire {
		if v == s {
			return k
		}
	}
	return trading.OrderType(strings.ToUpper(s))
}

var tifToWire = map[trading.TIF]string{
	trading.Day: "day", trading.GTC: "gtc", trading.IOC: "ioc", trading.FOK: "fok", trading.OPG: "opg",
}

// statusFromWire maps Alpaca's order lifecycle onto IBKR-style statuses.
func statusFromWire(s string) trading.OrderStatus {
	switch s {
	case "filled":
		return trading.StatusFilled
	case "canceled", "expired", "replaced", "done_for_day":
		return trading.StatusCancelled
	case "rejected", "suspended":
		return trading.StatusRejected
	case "pending_new", "accepted_for_bidding", "held":
		return trading.StatusPreSubmitted
	}
	return trading.StatusSubmitted // new, accepted, partially_filled, pending_*
}

func secTypeOf(assetClass string) (string, trading.AssetClass) {
	if assetClass == "crypto" {
		return "CRYPTO", trading.Crypto
	}
	return "STK", trading.Equity
}

func (b *Broker) contractOf(symbol, assetClass, exchange, name string) trading.Contract {
	st, ac := secTypeOf(assetClass)
	return trading.Contract{AliceID: trading.AliceID(b.accountID, symbol), Symbol: symbol, SecType: st, AssetClass: ac,
		Exchange: exchange, Currency: "USD", Description: name}
}

func (b *Broker) openOrderOf(w wireOrder) trading.OpenOrder {
	o := trading.OpenOrder{
		Contract: b.contractOf(w.Symbol, w.AssetClass, "", ""),
		Order: trading.Order{OrderID: w.ID, ClientOrderID: w.ClientOrderID, Action: trading.Action(strings.ToUpper(w.Side)),
			OrderType: typeFromWire(w.Type), TotalQuantity: w.Qty.Decimal, CashQty: w.Notional.Decimal,
			LmtPrice: w.LimitPrice.Decimal, AuxPrice: w.StopPrice.Decimal, TrailStopPrice: w.TrailPrice.Decimal,
			TrailingPercent: w.TrailPercent.Decimal, TIF: trading.TIF(strings.ToUpper(w.TimeInForce)), OutsideRTH: w.ExtendedHours},
		Status: statusFromWire(w.Status), FilledQty: w.FilledQty.Decimal, AvgFillPrice: w.FilledAvgPrice.Decimal,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt,
	}
	if w.Status == "rejected" {
		o.RejectReason = "rejected by Alpaca"
	}
	return o
}

func resultOf(w wireOrder) trading.OrderResult {
	return trading.OrderResult{OrderID: w.ID, Status: statusFromWire(w.Status), FilledQty: w.FilledQty.Decimal,
		FilledPrice: w.FilledAvgPrice.Decimal, Message: "alpaca status " + w.Status}
}
