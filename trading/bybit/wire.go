package bybit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// num is a v5 numeric string ("" for absent), decoded exactly. Decoding
// is strict: a value that is not a decimal fails the whole call (as
// broker.CodeBadData), so it can never become a zero that feeds equity,
// positions or the guards.
type num string

// UnmarshalJSON accepts a JSON string or number holding a decimal, "" or
// null (absent); anything else is an error naming the value.
func (n *num) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	switch {
	case s == "null":
		*n = ""
		return nil
	case strings.HasPrefix(s, `"`):
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
	}
	if s != "" {
		if _, err := decimal.NewFromString(s); err != nil {
			return fmt.Errorf("Bybit sent %q where a number belongs", s)
		}
	}
	*n = num(s)
	return nil
}

// dec is the decoded value; "" (absent) is zero. Values reach here only
// through UnmarshalJSON, which refused anything unparsable.
func (n num) dec() decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(string(n)))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// wireInt is a v5 integer (retCode, tradeMode): a JSON number, or the
// same number as a string (as some recorded answers carry it); anything
// else fails the call.
type wireInt int

// UnmarshalJSON accepts 10001 and "10001".
func (r *wireInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(strings.TrimSpace(string(b)), `"`)
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("Bybit sent %s where a whole number belongs", string(b))
	}
	*r = wireInt(v)
	return nil
}

// ms is a v5 millisecond timestamp string.
type ms string

// UnmarshalJSON refuses a timestamp that is not a whole number of
// milliseconds ("" is absent).
func (m *ms) UnmarshalJSON(b []byte) error {
	var n num
	if err := n.UnmarshalJSON(b); err != nil {
		return err
	}
	if n != "" {
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return fmt.Errorf("Bybit sent %q where a millisecond timestamp belongs", string(n))
		}
	}
	*m = ms(n)
	return nil
}

func (m ms) time() time.Time {
	v, err := strconv.ParseInt(string(m), 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

type list[T any] struct {
	Category       string `json:"category"`
	List           []T    `json:"list"`
	NextPageCursor string `json:"nextPageCursor"`
}

type wireWallet struct {
	AccountType           string `json:"accountType"`
	TotalEquity           num    `json:"totalEquity"`
	TotalWalletBalance    num    `json:"totalWalletBalance"`
	TotalAvailableBalance num    `json:"totalAvailableBalance"`
	TotalPerpUPL          num    `json:"totalPerpUPL"`
	Coin                  []struct {
		Coin           string `json:"coin"`
		WalletBalance  num    `json:"walletBalance"`
		Equity         num    `json:"equity"`
		USDValue       num    `json:"usdValue"`
		UnrealisedPnl  num    `json:"unrealisedPnl"`
		CumRealisedPnl num    `json:"cumRealisedPnl"`
	} `json:"coin"`
}

type wirePosition struct {
	Symbol         string  `json:"symbol"`
	Side           string  `json:"side"` // Buy, Sell, or "" when flat
	Size           num     `json:"size"`
	AvgPrice       num     `json:"avgPrice"`
	MarkPrice      num     `json:"markPrice"`
	PositionValue  num     `json:"positionValue"`
	UnrealisedPnl  num     `json:"unrealisedPnl"`
	CumRealisedPnl num     `json:"cumRealisedPnl"`
	Leverage       num     `json:"leverage"`
	LiqPrice       num     `json:"liqPrice"`
	TradeMode      wireInt `json:"tradeMode"` // 0 cross margin, 1 isolated (v5 position/list)
}

type wireOrder struct {
	OrderID      string `json:"orderId"`
	OrderLinkID  string `json:"orderLinkId"`
	Symbol       string `json:"symbol"`
	Side         string `json:"side"`
	OrderType    string `json:"orderType"`
	Price        num    `json:"price"`
	Qty          num    `json:"qty"`
	TimeInForce  string `json:"timeInForce"`
	MarketUnit   string `json:"marketUnit"` // spot market orders: baseCoin or quoteCoin
	OrderStatus  string `json:"orderStatus"`
	AvgPrice     num    `json:"avgPrice"`
	CumExecQty   num    `json:"cumExecQty"`
	TriggerPrice num    `json:"triggerPrice"`
	ReduceOnly   bool   `json:"reduceOnly"`
	RejectReason string `json:"rejectReason"`
	CreatedTime  ms     `json:"createdTime"`
	UpdatedTime  ms     `json:"updatedTime"`
}

type wireTicker struct {
	Symbol       string `json:"symbol"`
	LastPrice    num    `json:"lastPrice"`
	Bid1Price    num    `json:"bid1Price"`
	Ask1Price    num    `json:"ask1Price"`
	Volume24h    num    `json:"volume24h"`
	HighPrice24h num    `json:"highPrice24h"`
	LowPrice24h  num    `json:"lowPrice24h"`
}

type wireInstrument struct {
	Symbol        string `json:"symbol"`
	BaseCoin      string `json:"baseCoin"`
	QuoteCoin     string `json:"quoteCoin"`
	SettleCoin    string `json:"settleCoin"`
	Status        string `json:"status"`
	LotSizeFilter struct {
		QtyStep       num `json:"qtyStep"`
		BasePrecision num `json:"basePrecision"`
		MinOrderQty   num `json:"minOrderQty"`
	} `json:"lotSizeFilter"`
	PriceFilter struct {
		TickSize num `json:"tickSize"`
	} `json:"priceFilter"`
}

type wireOrderAck struct {
	OrderID     string `json:"orderId"`
	OrderLinkID string `json:"orderLinkId"`
}

// statusFromWire maps v5 orderStatus onto the IBKR-style statuses.
func statusFromWire(s string) trading.OrderStatus {
	switch s {
	case "Filled":
		return trading.StatusFilled
	case "Cancelled", "PartiallyFilledCanceled", "Deactivated":
		return trading.StatusCancelled
	case "Rejected":
		return trading.StatusRejected
	case "Created":
		return trading.StatusPreSubmitted
	}
	return trading.StatusSubmitted // New, PartiallyFilled, Untriggered, Triggered, Active
}

func sideToWire(a trading.Action) string {
	if a == trading.Sell {
		return "Sell"
	}
	return "Buy"
}

var tifToWire = map[trading.TIF]string{trading.GTC: "GTC", trading.IOC: "IOC", trading.FOK: "FOK"}

func str(d decimal.Decimal) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}
