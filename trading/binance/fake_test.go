package binance

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// fakeBinance speaks Binance's spot (/api/v3) or USDⓈ-M futures (/fapi)
// REST API — signed query strings checked with HMAC-SHA256, {code, msg}
// errors with HTTP 4xx, order states, exchangeInfo filters — over a
// brokertest.Venue.
type fakeBinance struct {
	v        *brokertest.Venue
	futures  bool
	key      string
	secret   string
	initial  decimal.Decimal
	mu       sync.Mutex
	fault    brokertest.Fault
	lastPath string
	lastQ    map[string]string
	signed   int
}

func (f *fakeBinance) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeBinance) apiErr(w http.ResponseWriter, status, code int, msg string) {
	f.json(w, status, map[string]any{"code": code, "msg": msg})
}

func (f *fakeBinance) fail(w http.ResponseWriter, err error, cancel bool) {
	switch {
	case errors.Is(err, brokertest.ErrDuplicateClientID):
		f.apiErr(w, 400, -2010, "Duplicate order sent.")
	case errors.Is(err, brokertest.ErrInsufficientFunds):
		f.apiErr(w, 400, -2010, "Account has insufficient balance for requested action.")
	case errors.Is(err, brokertest.ErrNotFound), errors.Is(err, brokertest.ErrNotOpen):
		if cancel {
			f.apiErr(w, 400, -2011, "Unknown order sent.")
		} else {
			f.apiErr(w, 400, -2013, "Order does not exist.")
		}
	case errors.Is(err, brokertest.ErrUnknownSymbol):
		f.apiErr(w, 400, -1121, "Invalid symbol.")
	default:
		f.apiErr(w, 400, -1013, "Filter failure: "+err.Error())
	}
}

func binanceState(o brokertest.VenueOrder) string {
	switch o.State {
	case brokertest.StateNew:
		return "NEW"
	case brokertest.StatePartial:
		return "PARTIALLY_FILLED"
	case brokertest.StateFilled:
		return "FILLED"
	}
	return "CANCELED"
}

func (f *fakeBinance) order(o brokertest.VenueOrder) map[string]any {
	side := "SELL"
	if o.Buy {
		side = "BUY"
	}
	typ := map[string]string{"market": "MARKET", "limit": "LIMIT", "stop": "STOP_LOSS", "stop_limit": "STOP_LOSS_LIMIT"}[o.Type]
	if f.futures {
		typ = map[string]string{"market": "MARKET", "limit": "LIMIT", "stop": "STOP_MARKET", "stop_limit": "STOP"}[o.Type]
	}
	m := map[string]any{"symbol": o.Symbol, "orderId": mustInt(o.ID), "clientOrderId": o.ClientID, "price": o.Limit.String(),
		"origQty": o.Qty.String(), "executedQty": o.Filled.String(), "status": binanceState(o), "timeInForce": "GTC",
		"type": typ, "side": side, "stopPrice": o.Stop.String(), "time": o.Created.UnixMilli(), "updateTime": o.Updated.UnixMilli()}
	if f.futures {
		avg := "0"
		if o.Filled.IsPositive() {
			avg = o.AvgPrice.String()
		}
		m["avgPrice"], m["cumQuote"], m["reduceOnly"] = avg, o.Filled.Mul(o.AvgPrice).String(), false
	} else {
		m["cummulativeQuoteQty"] = o.Filled.Mul(o.AvgPrice).String()
	}
	return m
}

// mustInt renders the venue's order id as Binance's numeric id.
func mustInt(id string) json.Number {
	digits := strings.TrimLeftFunc(id, func(r rune) bool { return r < '0' || r > '9' })
	if digits == "" {
		digits = "0"
	}
	return json.Number(digits)
}

// venueID maps a Binance numeric id back to the venue's id.
func (f *fakeBinance) venueID(n string) string {
	for _, o := range f.v.Orders() {
		if string(mustInt(o.ID)) == n {
			return o.ID
		}
	}
	return "missing-" + n
}

func (f *fakeBinance) prefix() string {
	if f.futures {
		return "/fapi/v1"
	}
	return "/api/v3"
}

func (f *fakeBinance) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	fault := f.fault
	f.mu.Unlock()
	switch fault {
	case brokertest.FaultAuth:
		f.apiErr(w, 401, -2015, "Invalid API-key, IP, or permissions for action.")
		return
	case brokertest.FaultNetwork:
		http.Error(w, "<html>502 Bad Gateway</html>", http.StatusBadGateway)
		return
	case brokertest.FaultRateLimit:
		f.apiErr(w, 429, -1003, "Too many requests; current limit is 1200 requests per minute.")
		return
	}
	q := r.URL.Query()
	get := func(k string) string { return q.Get(k) }
	dec := func(k string) decimal.Decimal { d, _ := decimal.NewFromString(get(k)); return d }
	if sig := get("signature"); sig != "" || strings.Contains(r.URL.Path, "account") || strings.Contains(r.URL.Path, "order") || strings.Contains(r.URL.Path, "position") {
		if r.Header.Get("X-MBX-APIKEY") != f.key {
			f.apiErr(w, 401, -2015, "Invalid API-key, IP, or permissions for action.")
			return
		}
		raw := r.URL.RawQuery
		i := strings.LastIndex(raw, "&signature=")
		if i < 0 || Sign(f.secret, raw[:i]) != raw[i+len("&signature="):] || get("timestamp") == "" || get("recvWindow") == "" {
			f.apiErr(w, 400, -1022, "Signature for this request is not valid.")
			return
		}
		f.mu.Lock()
		f.signed++
		f.lastPath = r.Method + " " + r.URL.Path
		f.lastQ = map[string]string{}
		for k := range q {
			f.lastQ[k] = q.Get(k)
		}
		f.mu.Unlock()
	}
	v := f.v
	pre := f.prefix()
	switch {
	case r.URL.Path == pre+"/time":
		f.json(w, 200, map[string]any{"serverTime": time.Now().UnixMilli()})
	case r.URL.Path == pre+"/exchangeInfo":
		out := []map[string]any{}
		for _, s := range v.Symbols() {
			sym := map[string]any{"symbol": s, "status": "TRADING", "baseAsset": strings.TrimSuffix(s, "USDT"), "quoteAsset": "USDT",
				"filters": []map[string]any{{"filterType": "PRICE_FILTER", "tickSize": "0.01", "minPrice": "0.01", "maxPrice": "1000000"},
					{"filterType": "LOT_SIZE", "stepSize": "0.00001", "minQty": "0.00001", "maxQty": "9000"}}}
			if f.futures {
				sym["contractType"] = "PERPETUAL"
			}
			out = append(out, sym)
		}
		if f.futures {
			out = append(out, map[string]any{"symbol": "BTCUSDT_261225", "status": "TRADING", "contractType": "CURRENT_QUARTER", "baseAsset": "BTC", "quoteAsset": "USDT"})
		}
		f.json(w, 200, map[string]any{"timezone": "UTC", "symbols": out})
	case r.URL.Path == pre+"/ticker/24hr":
		bid, ask, mid, err := v.Quote(get("symbol"))
		if err != nil {
			f.apiErr(w, 400, -1121, "Invalid symbol.")
			return
		}
		t := map[string]any{"symbol": get("symbol"), "lastPrice": mid.String(), "volume": "72140.3", "highPrice": mid.String(), "lowPrice": mid.String(), "closeTime": time.Now().UnixMilli()}
		if !f.futures {
			t["bidPrice"], t["askPrice"] = bid.String(), ask.String()
		}
		f.json(w, 200, t)
	case r.URL.Path == "/fapi/v1/ticker/bookTicker" && f.futures:
		bid, ask, _, err := v.Quote(get("symbol"))
		if err != nil {
			f.apiErr(w, 400, -1121, "Invalid symbol.")
			return
		}
		f.json(w, 200, map[string]any{"symbol": get("symbol"), "bidPrice": bid.String(), "askPrice": ask.String(), "bidQty": "1", "askQty": "1"})
	case r.URL.Path == "/api/v3/account" && !f.futures:
		bals := []map[string]any{{"asset": "USDT", "free": v.Cash().String(), "locked": "0"}}
		for _, p := range v.Positions() {
			bals = append(bals, map[string]any{"asset": strings.TrimSuffix(p.Symbol, "USDT"), "free": p.Qty.String(), "locked": "0"})
		}
		f.json(w, 200, map[string]any{"accountType": "SPOT", "canTrade": true, "balances": bals})
	case r.URL.Path == "/fapi/v2/account" && f.futures:
		wallet := f.initial.Add(v.Realized())
		upl := decimal.Zero
		for _, p := range v.Positions() {
			_, _, mid, _ := v.Quote(p.Symbol)
			upl = upl.Add(mid.Sub(p.AvgPrice).Mul(p.Qty))
		}
		f.json(w, 200, map[string]any{"totalWalletBalance": wallet.String(), "totalUnrealizedProfit": upl.String(),
			"totalMarginBalance": wallet.Add(upl).String(), "availableBalance": wallet.Add(upl).String(), "assets": []any{}, "positions": []any{}})
	case r.URL.Path == "/fapi/v2/positionRisk" && f.futures:
		out := []map[string]any{}
		for _, p := range v.Positions() {
			_, _, mid, _ := v.Quote(p.Symbol)
			liq := p.AvgPrice.Mul(decimal.RequireFromString("0.9"))
			if p.Qty.IsNegative() {
				liq = p.AvgPrice.Mul(decimal.RequireFromString("1.1"))
			}
			out = append(out, map[string]any{"symbol": p.Symbol, "positionAmt": p.Qty.String(), "entryPrice": p.AvgPrice.String(),
				"markPrice": mid.String(), "unRealizedProfit": mid.Sub(p.AvgPrice).Mul(p.Qty).String(), "liquidationPrice": liq.String(),
				"leverage": "10", "marginType": "cross", "positionSide": "BOTH", "notional": p.Qty.Mul(mid).String()})
		}
		out = append(out, map[string]any{"symbol": "ETHUSDT", "positionAmt": "0.000", "entryPrice": "0.0", "markPrice": "3100", "leverage": "20", "marginType": "cross"})
		f.json(w, 200, out)
	case r.URL.Path == pre+"/order" && r.Method == http.MethodPost:
		typ := map[string]string{"MARKET": "market", "LIMIT": "limit", "STOP_LOSS": "stop", "STOP_LOSS_LIMIT": "stop_limit", "STOP_MARKET": "stop", "STOP": "stop_limit"}[get("type")]
		if typ == "" {
			f.apiErr(w, 400, -1116, "Invalid orderType.")
			return
		}
		if get("reduceOnly") == "true" && !f.futures {
			f.apiErr(w, 400, -1104, "Not all sent parameters were read.")
			return
		}
		o, err := v.Place(brokertest.VenueOrder{ClientID: get("newClientOrderId"), Symbol: get("symbol"), Buy: get("side") == "BUY", Type: typ,
			Qty: dec("quantity"), Limit: dec("price"), Stop: dec("stopPrice")})
		if err != nil {
			f.fail(w, err, false)
			return
		}
		f.json(w, 200, map[string]any{"symbol": o.Symbol, "orderId": mustInt(o.ID), "clientOrderId": o.ClientID, "transactTime": time.Now().UnixMilli()})
	case r.URL.Path == pre+"/order" && r.Method == http.MethodGet:
		o, err := v.Get(f.venueID(get("orderId")))
		if err != nil || o.Symbol != get("symbol") {
			f.apiErr(w, 400, -2013, "Order does not exist.")
			return
		}
		f.json(w, 200, f.order(o))
	case r.URL.Path == pre+"/order" && r.Method == http.MethodDelete:
		o, err := v.Cancel(f.venueID(get("orderId")))
		if err != nil {
			f.fail(w, err, true)
			return
		}
		f.json(w, 200, f.order(o))
	case r.URL.Path == "/fapi/v1/order" && r.Method == http.MethodPut && f.futures:
		o, err := v.Amend(f.venueID(get("orderId")), dec("quantity"), dec("price"), decimal.Zero)
		if err != nil {
			f.fail(w, err, false)
			return
		}
		f.json(w, 200, f.order(o))
	case r.URL.Path == "/api/v3/order/cancelReplace" && r.Method == http.MethodPost && !f.futures:
		old, err := v.Cancel(f.venueID(get("cancelOrderId")))
		if err != nil {
			f.json(w, 400, map[string]any{"code": -2022, "msg": "Order cancel-replace failed.", "data": map[string]any{
				"cancelResult": "FAILURE", "newOrderResult": "NOT_ATTEMPTED", "cancelResponse": map[string]any{"code": -2011, "msg": "Unknown order sent."}}})
			return
		}
		typ := map[string]string{"MARKET": "market", "LIMIT": "limit", "STOP_LOSS": "stop", "STOP_LOSS_LIMIT": "stop_limit"}[get("type")]
		o, err := v.Place(brokertest.VenueOrder{Symbol: get("symbol"), Buy: get("side") == "BUY", Type: typ, Qty: dec("quantity"), Limit: dec("price"), Stop: dec("stopPrice")})
		if err != nil {
			f.fail(w, err, false)
			return
		}
		f.json(w, 200, map[string]any{"cancelResult": "SUCCESS", "newOrderResult": "SUCCESS", "cancelResponse": f.order(old),
			"newOrderResponse": map[string]any{"symbol": o.Symbol, "orderId": mustInt(o.ID), "clientOrderId": o.ClientID}})
	case r.URL.Path == pre+"/openOrders":
		out := []map[string]any{}
		for _, o := range v.Orders() {
			if o.State.Open() {
				out = append(out, f.order(o))
			}
		}
		f.json(w, 200, out)
	default:
		f.apiErr(w, 404, -1000, "unknown path "+r.Method+" "+r.URL.Path)
	}
}
