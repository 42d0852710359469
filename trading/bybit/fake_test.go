package bybit

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// fakeBybit speaks the v5 REST API (envelope, retCodes, HMAC signature
// check, Buy/Sell sides, orderStatus values) over a brokertest.Venue
// holding USDT linear perpetuals.
type fakeBybit struct {
	v        *brokertest.Venue
	key      string
	secret   string
	initial  decimal.Decimal
	mu       sync.Mutex
	fault    brokertest.Fault
	lastBody map[string]any
}

func (f *fakeBybit) reply(w http.ResponseWriter, ret int, msg string, result any) {
	w.Header().Set("Content-Type", "application/json")
	if result == nil {
		result = map[string]any{}
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"retCode": ret, "retMsg": msg, "result": result, "retExtInfo": map[string]any{}, "time": time.Now().UnixMilli()})
}

func (f *fakeBybit) fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, brokertest.ErrDuplicateClientID):
		f.reply(w, 110072, "OrderLinkedID is duplicate", nil)
	case errors.Is(err, brokertest.ErrInsufficientFunds):
		f.reply(w, 110007, "ab not enough for new order", nil)
	case errors.Is(err, brokertest.ErrNotFound), errors.Is(err, brokertest.ErrNotOpen):
		f.reply(w, 110001, "order not exists or too late to cancel", nil)
	case errors.Is(err, brokertest.ErrUnknownSymbol):
		f.reply(w, 10001, "params error: symbol invalid", nil)
	default:
		f.reply(w, 10001, "params error: "+err.Error(), nil)
	}
}

func (f *fakeBybit) status(o brokertest.VenueOrder) string {
	switch {
	case o.State == brokertest.StateNew && (o.Type == "stop" || o.Type == "stop_limit") && !o.Triggered:
		return "Untriggered"
	case o.State == brokertest.StateNew:
		return "New"
	case o.State == brokertest.StatePartial:
		return "PartiallyFilled"
	case o.State == brokertest.StateFilled:
		return "Filled"
	case o.Filled.IsPositive():
		return "PartiallyFilledCanceled"
	}
	return "Cancelled"
}

func (f *fakeBybit) order(o brokertest.VenueOrder) map[string]any {
	side, typ, trig := "Sell", "Market", "0"
	if o.Buy {
		side = "Buy"
	}
	if o.Type == "limit" || o.Type == "stop_limit" {
		typ = "Limit"
	}
	if o.Stop.IsPositive() {
		trig = o.Stop.String()
	}
	price := "0"
	if o.Limit.IsPositive() {
		price = o.Limit.String()
	}
	avg := ""
	if o.Filled.IsPositive() {
		avg = o.AvgPrice.String()
	}
	return map[string]any{"orderId": o.ID, "orderLinkId": o.ClientID, "symbol": o.Symbol, "side": side, "orderType": typ,
		"price": price, "qty": o.Qty.String(), "timeInForce": "GTC", "orderStatus": f.status(o), "avgPrice": avg,
		"cumExecQty": o.Filled.String(), "triggerPrice": trig, "rejectReason": "EC_NoError",
		"createdTime": itoa(o.Created.UnixMilli()), "updatedTime": itoa(o.Updated.UnixMilli())}
}

func itoa(n int64) string { return decimal.NewFromInt(n).String() }

func (f *fakeBybit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	fault := f.fault
	f.mu.Unlock()
	switch fault {
	case brokertest.FaultAuth:
		f.reply(w, 10003, "API key is invalid.", nil)
		return
	case brokertest.FaultNetwork:
		http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
		return
	case brokertest.FaultRateLimit:
		f.reply(w, 10006, "Too many visits!", nil)
		return
	}
	body, _ := io.ReadAll(r.Body)
	payload := r.URL.RawQuery
	if r.Method == http.MethodPost {
		payload = string(body)
	}
	h := r.Header
	if h.Get("X-BAPI-API-KEY") != f.key {
		f.reply(w, 10003, "API key is invalid.", nil)
		return
	}
	if Sign(f.secret, h.Get("X-BAPI-TIMESTAMP"), f.key, h.Get("X-BAPI-RECV-WINDOW"), payload) != h.Get("X-BAPI-SIGN") {
		f.reply(w, 10004, "error sign! origin_string["+payload+"]", nil)
		return
	}
	var req map[string]any
	if r.Method == http.MethodPost {
		if err := json.Unmarshal(body, &req); err != nil {
			f.reply(w, 10001, "params error: body", nil)
			return
		}
		f.mu.Lock()
		f.lastBody = req
		f.mu.Unlock()
	}
	q, v := r.URL.Query(), f.v
	dec := func(k string) decimal.Decimal {
		s, _ := req[k].(string)
		d, _ := decimal.NewFromString(s)
		return d
	}
	switch r.URL.Path {
	case "/v5/market/time":
		f.reply(w, 0, "OK", map[string]any{"timeSecond": itoa(time.Now().Unix()), "timeNano": itoa(time.Now().UnixNano())})
	case "/v5/market/instruments-info":
		out := []map[string]any{}
		for _, s := range v.Symbols() {
			if sym := q.Get("symbol"); sym != "" && sym != s {
				continue
			}
			out = append(out, map[string]any{"symbol": s, "contractType": "LinearPerpetual", "status": "Trading", "baseCoin": strings.TrimSuffix(s, "USDT"),
				"quoteCoin": "USDT", "settleCoin": "USDT", "lotSizeFilter": map[string]any{"qtyStep": "0.001", "minOrderQty": "0.001", "maxOrderQty": "1190"},
				"priceFilter": map[string]any{"tickSize": "0.10"}})
		}
		f.reply(w, 0, "OK", map[string]any{"category": "linear", "list": out, "nextPageCursor": ""})
	case "/v5/market/tickers":
		bid, ask, mid, err := v.Quote(q.Get("symbol"))
		if err != nil {
			f.reply(w, 10001, "params error: symbol invalid", nil)
			return
		}
		f.reply(w, 0, "OK", map[string]any{"category": "linear", "list": []map[string]any{{"symbol": q.Get("symbol"), "lastPrice": mid.String(),
			"bid1Price": bid.String(), "ask1Price": ask.String(), "volume24h": "81234.5", "highPrice24h": mid.String(), "lowPrice24h": mid.String()}}})
	case "/v5/account/wallet-balance":
		wallet := f.initial.Add(v.Realized())
		upl := decimal.Zero
		for _, p := range v.Positions() {
			_, _, mid, _ := v.Quote(p.Symbol)
			upl = upl.Add(mid.Sub(p.AvgPrice).Mul(p.Qty))
		}
		eq := wallet.Add(upl)
		f.reply(w, 0, "OK", map[string]any{"list": []map[string]any{{"accountType": "UNIFIED", "totalEquity": eq.String(),
			"totalWalletBalance": wallet.String(), "totalAvailableBalance": eq.String(), "totalPerpUPL": upl.String(),
			"coin": []map[string]any{{"coin": "USDT", "walletBalance": wallet.String(), "equity": eq.String(), "usdValue": eq.String(),
				"unrealisedPnl": upl.String(), "cumRealisedPnl": v.Realized().String()}}}}})
	case "/v5/position/list":
		out := []map[string]any{}
		for _, p := range v.Positions() {
			_, _, mid, _ := v.Quote(p.Symbol)
			side := "Buy"
			if p.Qty.IsNegative() {
				side = "Sell"
			}
			out = append(out, map[string]any{"symbol": p.Symbol, "side": side, "size": p.Qty.Abs().String(), "avgPrice": p.AvgPrice.String(),
				"markPrice": mid.String(), "positionValue": p.Qty.Abs().Mul(mid).String(), "unrealisedPnl": mid.Sub(p.AvgPrice).Mul(p.Qty).String(),
				"cumRealisedPnl": p.Realized.String(), "leverage": "10", "tradeMode": 1,
				// a short at 10× is liquidated ~10% above entry, a long ~10% below
				"liqPrice": p.AvgPrice.Mul(decimal.RequireFromString(map[string]string{"Buy": "0.9", "Sell": "1.1"}[side])).String()})
		}
		f.reply(w, 0, "OK", map[string]any{"category": "linear", "list": out})
	case "/v5/order/create":
		typ := "market"
		if req["orderType"] == "Limit" {
			typ = "limit"
		}
		if dec("triggerPrice").IsPositive() {
			typ = map[string]string{"market": "stop", "limit": "stop_limit"}[typ]
		}
		cid, _ := req["orderLinkId"].(string)
		sym, _ := req["symbol"].(string)
		o, err := v.Place(brokertest.VenueOrder{ClientID: cid, Symbol: sym, Buy: req["side"] == "Buy", Type: typ,
			Qty: dec("qty"), Limit: dec("price"), Stop: dec("triggerPrice")})
		if err != nil {
			f.fail(w, err)
			return
		}
		f.reply(w, 0, "OK", map[string]any{"orderId": o.ID, "orderLinkId": o.ClientID})
	case "/v5/order/amend":
		id, _ := req["orderId"].(string)
		o, err := v.Amend(id, dec("qty"), dec("price"), dec("triggerPrice"))
		if err != nil {
			f.fail(w, err)
			return
		}
		f.reply(w, 0, "OK", map[string]any{"orderId": o.ID, "orderLinkId": o.ClientID})
	case "/v5/order/cancel":
		id, _ := req["orderId"].(string)
		o, err := v.Cancel(id)
		if err != nil {
			f.fail(w, err)
			return
		}
		f.reply(w, 0, "OK", map[string]any{"orderId": o.ID, "orderLinkId": o.ClientID})
	case "/v5/order/realtime", "/v5/order/history":
		open := r.URL.Path == "/v5/order/realtime"
		out := []map[string]any{}
		for _, o := range v.Orders() {
			if id := q.Get("orderId"); id != "" && id != o.ID {
				continue
			}
			if q.Get("orderId") == "" && open != o.State.Open() {
				continue
			}
			out = append(out, f.order(o))
		}
		f.reply(w, 0, "OK", map[string]any{"category": "linear", "list": out, "nextPageCursor": ""})
	default:
		http.NotFound(w, r)
	}
}
