//go:build ccxt

package ccxt

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

// okxWire is a fake of the few OKX v5 REST endpoints CCXT's okx exchange
// calls for markets, tickers and balances, answered from a Venue. It lets
// the real CCXT exchange object (its request signing, response parsing and
// error-code mapping) run end to end against a local server.
type okxWire struct {
	v *brokertest.Venue

	mu      sync.Mutex
	fault   int // HTTP status to answer with; 0 = healthy
	unknown []string
	paths   map[string]int // requests served, by method and path
}

func (w *okxWire) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	fault := w.fault
	if w.paths == nil {
		w.paths = map[string]int{}
	}
	w.paths[r.Method+" "+r.URL.Path]++
	w.mu.Unlock()
	reply := func(status int, code, msg string, data any) {
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(status)
		_ = json.NewEncoder(rw).Encode(map[string]any{"code": code, "msg": msg, "data": data})
	}
	switch fault {
	case http.StatusUnauthorized:
		reply(401, "50113", "Invalid Sign", []any{})
		return
	case http.StatusTooManyRequests:
		reply(429, "50011", "Too Many Requests", []any{})
		return
	case http.StatusServiceUnavailable:
		reply(503, "50001", "Service temporarily unavailable", []any{})
		return
	}
	q := r.URL.Query()
	switch r.URL.Path {
	case "/api/v5/public/instruments":
		if q.Get("instType") != "SPOT" {
			reply(200, "0", "", []any{})
			return
		}
		var data []any
		for _, s := range w.v.Symbols() {
			base, quote, _ := strings.Cut(s, "/")
			data = append(data, map[string]any{"instId": base + "-" + quote, "instType": "SPOT", "baseCcy": base, "quoteCcy": quote,
				"state": "live", "tickSz": "0.1", "lotSz": "0.00000001", "minSz": "0.00001", "listTime": "1548133413000"})
		}
		reply(200, "0", "", data)
	case "/api/v5/asset/currencies", "/api/v5/account/positions": // spot only: no derivative positions
		reply(200, "0", "", []any{})
	case "/api/v5/market/ticker":
		sym := strings.Replace(q.Get("instId"), "-", "/", 1)
		bid, ask, mid, err := w.v.Quote(sym)
		if err != nil {
			reply(400, "51001", "Instrument ID does not exist", []any{})
			return
		}
		reply(200, "0", "", []any{map[string]any{"instId": q.Get("instId"), "instType": "SPOT", "last": mid.String(), "bidPx": bid.String(),
			"askPx": ask.String(), "open24h": mid.String(), "high24h": ask.String(), "low24h": bid.String(), "vol24h": "12.5",
			"ts": time.Now().UnixMilli()}})
	case "/api/v5/account/balance":
		cash := w.v.Cash().String()
		details := []any{map[string]any{"ccy": "USDT", "eq": cash, "cashBal": cash, "availBal": cash, "frozenBal": "0"}}
		for _, p := range w.v.Positions() {
			base, _, _ := strings.Cut(p.Symbol, "/")
			details = append(details, map[string]any{"ccy": base, "eq": p.Qty.String(), "cashBal": p.Qty.String(), "availBal": p.Qty.String(), "frozenBal": "0"})
		}
		reply(200, "0", "", []any{map[string]any{"details": details, "uTime": time.Now().UnixMilli()}})
	default:
		if w.serveOrders(r, reply) {
			return
		}
		w.mu.Lock()
		w.unknown = append(w.unknown, r.Method+" "+r.URL.String())
		w.mu.Unlock()
		reply(404, "50000", "not in the fake", []any{})
	}
}

// okxState renders a venue order state as OKX does; trigger (algo)
// orders are "live" until they fire and "effective" after.
func okxState(o brokertest.VenueOrder) string {
	if o.Type == "stop" || o.Type == "stop_limit" {
		switch {
		case o.State == brokertest.StateCancelled:
			return "canceled"
		case o.Triggered:
			return "effective"
		}
		return "live"
	}
	return map[brokertest.OrderState]string{brokertest.StateNew: "live", brokertest.StatePartial: "partially_filled",
		brokertest.StateFilled: "filled", brokertest.StateCancelled: "canceled"}[o.State]
}

func okxInst(sym string) string { return strings.Replace(sym, "/", "-", 1) }

func okxOrder(o brokertest.VenueOrder) map[string]any {
	side := "sell"
	if o.Buy {
		side = "buy"
	}
	m := map[string]any{"instId": okxInst(o.Symbol), "instType": "SPOT", "side": side, "sz": o.Qty.String(), "state": okxState(o),
		"cTime": o.Created.UnixMilli(), "uTime": o.Updated.UnixMilli(), "tgtCcy": "base_ccy", "fee": "0", "feeCcy": "USDT"}
	if o.Type == "stop" || o.Type == "stop_limit" {
		m["algoId"], m["ordType"], m["triggerPx"], m["ordPx"] = o.ID, "trigger", o.Stop.String(), "-1"
		if o.Limit.IsPositive() {
			m["ordPx"] = o.Limit.String()
		}
		m["actualSz"] = o.Filled.String()
		return m
	}
	m["ordId"], m["clOrdId"], m["ordType"], m["accFillSz"] = o.ID, o.ClientID, o.Type, o.Filled.String()
	m["px"] = ""
	if o.Limit.IsPositive() {
		m["px"] = o.Limit.String()
	}
	m["avgPx"] = ""
	if o.Filled.IsPositive() {
		m["avgPx"] = o.AvgPrice.String()
	}
	return m
}

// okxCode is OKX's sCode for a venue error (CCXT maps these codes to its
// error classes: 51008 InsufficientFunds, 51016 InvalidOrder, 51603
// OrderNotFound, …).
func okxCode(err error) (string, string) {
	switch {
	case errors.Is(err, brokertest.ErrInsufficientFunds):
		return "51008", "Order failed. Insufficient balance"
	case errors.Is(err, brokertest.ErrDuplicateClientID):
		return "51016", "Duplicated clOrdId"
	case errors.Is(err, brokertest.ErrNotFound):
		return "51603", "Order does not exist"
	case errors.Is(err, brokertest.ErrNotOpen):
		return "51400", "Cancellation failed as the order has been filled, canceled or does not exist"
	case errors.Is(err, brokertest.ErrUnknownSymbol):
		return "51001", "Instrument ID does not exist"
	}
	return "51000", "Parameter error: " + err.Error()
}

func str2dec(v any) decimal.Decimal {
	s, _ := v.(string)
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}

// serveOrders answers the trading endpoints; false for other paths.
func (w *okxWire) serveOrders(r *http.Request, reply func(int, string, string, any)) bool {
	body, _ := io.ReadAll(r.Body)
	var items []map[string]any
	if len(body) > 0 && body[0] == '[' {
		_ = json.Unmarshal(body, &items)
	} else if len(body) > 0 {
		var one map[string]any
		_ = json.Unmarshal(body, &one)
		items = []map[string]any{one}
	}
	fail := func(err error) {
		code, msg := okxCode(err)
		reply(200, "1", "All operations failed", []any{map[string]any{"sCode": code, "sMsg": msg, "ordId": ""}})
	}
	q := r.URL.Query()
	switch r.URL.Path {
	case "/api/v5/trade/batch-orders", "/api/v5/trade/order", "/api/v5/trade/order-algo":
		if r.Method == http.MethodGet {
			id := q.Get("ordId") + q.Get("algoId")
			o, err := w.v.Get(id)
			if err != nil {
				reply(200, "51603", "Order does not exist", []any{})
				return true
			}
			reply(200, "0", "", []any{okxOrder(o)})
			return true
		}
		var out []any
		for _, it := range items {
			vo := brokertest.VenueOrder{Symbol: strings.Replace(it["instId"].(string), "-", "/", 1), Buy: it["side"] == "buy",
				Qty: str2dec(it["sz"]), Limit: str2dec(it["px"])}
			vo.ClientID, _ = it["clOrdId"].(string)
			switch it["ordType"] {
			case "trigger":
				vo.Type, vo.Stop = "stop", str2dec(it["triggerPx"])
				if px := str2dec(it["orderPx"]); px.IsPositive() {
					vo.Type, vo.Limit = "stop_limit", px
				}
			case "market", "limit":
				vo.Type = it["ordType"].(string)
			default:
				vo.Type = "unsupported:" + it["ordType"].(string)
			}
			o, err := w.v.Place(vo)
			if err != nil {
				fail(err)
				return true
			}
			if vo.Stop.IsPositive() {
				out = append(out, map[string]any{"algoId": o.ID, "sCode": "0", "sMsg": ""})
			} else {
				out = append(out, map[string]any{"ordId": o.ID, "clOrdId": o.ClientID, "sCode": "0", "sMsg": ""})
			}
		}
		reply(200, "0", "", out)
	case "/api/v5/trade/orders-pending", "/api/v5/trade/orders-algo-pending":
		algo := strings.Contains(r.URL.Path, "algo")
		var out []any
		for _, o := range w.v.Orders() {
			isAlgo := o.Type == "stop" || o.Type == "stop_limit"
			if o.State.Open() && isAlgo == algo && !(isAlgo && o.Triggered) {
				out = append(out, okxOrder(o))
			}
		}
		reply(200, "0", "", out)
	case "/api/v5/trade/cancel-order", "/api/v5/trade/cancel-algos":
		var out []any
		for _, it := range items {
			id, _ := it["ordId"].(string)
			if id == "" {
				id, _ = it["algoId"].(string)
			}
			if _, err := w.v.Cancel(id); err != nil {
				fail(err)
				return true
			}
			out = append(out, map[string]any{"ordId": id, "algoId": id, "sCode": "0", "sMsg": ""})
		}
		reply(200, "0", "", out)
	case "/api/v5/trade/amend-order", "/api/v5/trade/amend-algos":
		it := items[0]
		id, _ := it["ordId"].(string)
		if id == "" {
			id, _ = it["algoId"].(string)
		}
		o, err := w.v.Amend(id, str2dec(it["newSz"]), str2dec(it["newPx"]), str2dec(it["newTriggerPx"]))
		if err != nil {
			fail(err)
			return true
		}
		reply(200, "0", "", []any{map[string]any{"ordId": o.ID, "sCode": "0", "sMsg": ""}})
	default:
		return false
	}
	return true
}
