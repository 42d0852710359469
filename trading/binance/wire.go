package binance

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading"
)

// num is a decimal Binance sends as a string (or, rarely, a number).
type num string

func (n *num) UnmarshalJSON(b []byte) error {
	*n = num(strings.Trim(string(b), `"`))
	return nil
}

func (n num) dec() decimal.Decimal {
	d, err := decimal.NewFromString(string(n))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// id is an order id: a JSON number on the wire (a string in some
// recordings); kept as its decimal text.
type id string

func (i *id) UnmarshalJSON(b []byte) error {
	*i = id(strings.Trim(string(b), `"`))
	return nil
}

// ms is a millisecond timestamp.
type ms = num

func msTime(n ms) time.Time {
	d := n.dec()
	if d.IsZero() {
		return time.Time{}
	}
	return time.UnixMilli(d.IntPart()).UTC()
}

type wireSymbol struct {
	Symbol     string `json:"symbol"`
	Status     string `json:"status"`
	BaseAsset  string `json:"baseAsset"`
	QuoteAsset string `json:"quoteAsset"`
	// ContractType is PERPETUAL for the futures this adapter trades.
	ContractType string            `json:"contractType"`
	Filters      []json.RawMessage `json:"filters"`
}

type wireFilter struct {
	FilterType string `json:"filterType"`
	TickSize   num    `json:"tickSize"`
	StepSize   num    `json:"stepSize"`
	MinQty     num    `json:"minQty"`
}

func (s wireSymbol) filter(kind string) wireFilter {
	for _, raw := range s.Filters {
		var f wireFilter
		if json.Unmarshal(raw, &f) == nil && f.FilterType == kind {
			return f
		}
	}
	return wireFilter{}
}

type wireTicker struct {
	Symbol    string `json:"symbol"`
	LastPrice num    `json:"lastPrice"`
	BidPrice  num    `json:"bidPrice"`
	AskPrice  num    `json:"askPrice"`
	Volume    num    `json:"volume"`
	HighPrice num    `json:"highPrice"`
	LowPrice  num    `json:"lowPrice"`
	CloseTime ms     `json:"closeTime"`
}

type wireBook struct {
	BidPrice num `json:"bidPrice"`
	AskPrice num `json:"askPrice"`
}

// wireOrder is both markets' order: spot reports cummulativeQuoteQty,
// futures avgPrice and cumQuote.
type wireOrder struct {
	Symbol        string `json:"symbol"`
	OrderID       id     `json:"orderId"`
	ClientOrderID string `json:"clientOrderId"`
	Price         num    `json:"price"`
	OrigQty       num    `json:"origQty"`
	ExecutedQty   num    `json:"executedQty"`
	CumQuoteSpot  num    `json:"cummulativeQuoteQty"`
	AvgPrice      num    `json:"avgPrice"`
	Status        string `json:"status"`
	TimeInForce   string `json:"timeInForce"`
	Type          string `json:"type"`
	Side          string `json:"side"`
	StopPrice     num    `json:"stopPrice"`
	ReduceOnly    bool   `json:"reduceOnly"`
	Time          ms     `json:"time"`
	TransactTime  ms     `json:"transactTime"`
	UpdateTime    ms     `json:"updateTime"`
}

// avgFill is the average fill price.
func (w wireOrder) avgFill() decimal.Decimal {
	if p := w.AvgPrice.dec(); p.IsPositive() {
		return p
	}
	if q := w.ExecutedQty.dec(); q.IsPositive() {
		return w.CumQuoteSpot.dec().Div(q)
	}
	return decimal.Zero
}

// status maps Binance order states (NEW, PARTIALLY_FILLED, FILLED,
// CANCELED, PENDING_CANCEL, REJECTED, EXPIRED, EXPIRED_IN_MATCH).
func status(s string) trading.OrderStatus {
	switch s {
	case "FILLED":
		return trading.StatusFilled
	case "CANCELED", "EXPIRED", "EXPIRED_IN_MATCH", "PENDING_CANCEL":
		return trading.StatusCancelled
	case "REJECTED":
		return trading.StatusRejected
	case "PENDING_NEW":
		return trading.StatusPreSubmitted
	}
	return trading.StatusSubmitted
}

// orderType maps Binance types of both markets to alice's.
func orderType(t string) trading.OrderType {
	switch t {
	case "LIMIT", "LIMIT_MAKER":
		return trading.Limit
	case "STOP_LOSS", "STOP_MARKET", "TAKE_PROFIT", "TAKE_PROFIT_MARKET":
		return trading.Stop
	case "STOP_LOSS_LIMIT", "STOP", "TAKE_PROFIT_LIMIT":
		return trading.StopLimit
	case "TRAILING_STOP_MARKET":
		return trading.Trail
	}
	return trading.Market
}

type wireBalance struct {
	Asset  string `json:"asset"`
	Free   num    `json:"free"`
	Locked num    `json:"locked"`
}

type wireSpotAccount struct {
	Balances []wireBalance `json:"balances"`
}

type wireFuturesAccount struct {
	TotalWalletBalance    num `json:"totalWalletBalance"`
	TotalUnrealizedProfit num `json:"totalUnrealizedProfit"`
	TotalMarginBalance    num `json:"totalMarginBalance"`
	AvailableBalance      num `json:"availableBalance"`
}

// wirePosition is /fapi/v2/positionRisk (and v3): one-way mode reports
// positionSide BOTH with a signed positionAmt.
type wirePosition struct {
	Symbol           string `json:"symbol"`
	PositionAmt      num    `json:"positionAmt"`
	EntryPrice       num    `json:"entryPrice"`
	MarkPrice        num    `json:"markPrice"`
	UnRealizedProfit num    `json:"unRealizedProfit"`
	LiquidationPrice num    `json:"liquidationPrice"`
	Leverage         num    `json:"leverage"`
	MarginType       string `json:"marginType"` // cross / isolated (v2); absent in v3
	Isolated         *bool  `json:"isolated"`
	IsolatedWallet   num    `json:"isolatedWallet"`
	Notional         num    `json:"notional"`
}

// marginMode is marginType when reported, else derived the way v3 rows
// allow: an isolated flag, or a non-zero isolated wallet.
func (w wirePosition) marginMode() trading.MarginMode {
	switch strings.ToLower(w.MarginType) {
	case "cross", "crossed":
		return trading.Cross
	case "isolated":
		return trading.Isolated
	}
	if w.Isolated != nil {
		if *w.Isolated {
			return trading.Isolated
		}
		return trading.Cross
	}
	if w.IsolatedWallet != "" {
		if w.IsolatedWallet.dec().IsPositive() {
			return trading.Isolated
		}
		return trading.Cross
	}
	return ""
}
