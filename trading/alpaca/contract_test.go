package alpaca

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// venueAlpaca speaks Alpaca's v2 trading and data REST API over a
// brokertest.Venue, so the adapter is exercised against a market that
// moves, fills and refuses the way Alpaca does (status codes and error
// bodies as documented at docs.alpaca.markets).
type venueAlpaca struct {
	v     *brokertest.Venue
	mu    sync.Mutex
	fault brokertest.Fault
	// replaced maps a replaced order to its successor (PATCH semantics).
	replaced map[string]bool
}

func (f *venueAlpaca) order(o brokertest.VenueOrder) map[string]any {
	status := map[brokertest.OrderState]string{brokertest.StateNew: "new", brokertest.StatePartial: "partially_filled",
		brokertest.StateFilled: "filled", brokertest.StateCancelled: "canceled"}[o.State]
	f.mu.Lock()
	if f.replaced[o.ID] {
		status = "replaced"
	}
	f.mu.Unlock()
	side := "sell"
	if o.Buy {
		side = "buy"
	}
	var avg, lmt, stp any
	if o.Filled.IsPositive() {
		avg = o.AvgPrice.String()
	}
	if o.Limit.IsPositive() {
		lmt = o.Limit.String()
	}
	if o.Stop.IsPositive() {
		stp = o.Stop.String()
	}
	return map[string]any{"id": o.ID, "client_order_id": o.ClientID, "symbol": o.Symbol, "asset_class": "us_equity",
		"qty": o.Qty.String(), "filled_qty": o.Filled.String(), "filled_avg_price": avg, "type": o.Type, "side": side,
		"time_in_force": "gtc", "limit_price": lmt, "stop_price": stp, "status": status,
		"created_at": o.Created.UTC().Format(time.RFC3339Nano), "updated_at": o.Updated.UTC().Format(time.RFC3339Nano)}
}

func (f *venueAlpaca) fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, brokertest.ErrDuplicateClientID):
		writeJSON(w, 422, map[string]any{"code": 40010001, "message": "client_order_id must be unique"})
	case errors.Is(err, brokertest.ErrInsufficientFunds):
		writeJSON(w, 403, map[string]any{"code": 40310000, "message": "insufficient buying power"})
	case errors.Is(err, brokertest.ErrNotFound):
		writeJSON(w, 404, map[string]any{"code": 40410000, "message": "order not found"})
	case errors.Is(err, brokertest.ErrNotOpen):
		writeJSON(w, 422, map[string]any{"code": 42210000, "message": "order is not cancelable"})
	default:
		writeJSON(w, 422, map[string]any{"code": 40010001, "message": err.Error()})
	}
}

func (f *venueAlpaca) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	fault := f.fault
	f.mu.Unlock()
	switch fault {
	case brokertest.FaultAuth:
		writeJSON(w, 401, map[string]any{"code": 40110000, "message": "request is not authorized"})
		return
	case brokertest.FaultNetwork:
		writeJSON(w, 503, map[string]any{"message": "service unavailable"})
		return
	case brokertest.FaultRateLimit:
		writeJSON(w, 429, map[string]any{"message": "too many requests"})
		return
	}
	p, v := r.URL.Path, f.v
	switch {
	case p == "/v2/account":
		eq := v.Cash()
		for _, pos := range v.Positions() {
			_, _, mid, _ := v.Quote(pos.Symbol)
			eq = eq.Add(pos.Qty.Mul(mid))
		}
		writeJSON(w, 200, map[string]any{"currency": "USD", "cash": v.Cash().String(), "equity": eq.String(), "buying_power": v.Cash().String(), "last_equity": eq.String(), "status": "ACTIVE"})
	case p == "/v2/positions":
		out := []map[string]any{}
		for _, pos := range v.Positions() {
			_, _, mid, _ := v.Quote(pos.Symbol)
			side := "long"
			if pos.Qty.IsNegative() {
				side = "short"
			}
			out = append(out, map[string]any{"symbol": pos.Symbol, "asset_class": "us_equity", "exchange": "NASDAQ", "qty": pos.Qty.String(), "side": side,
				"avg_entry_price": pos.AvgPrice.String(), "current_price": mid.String(), "market_value": pos.Qty.Mul(mid).String(),
				"unrealized_pl": mid.Sub(pos.AvgPrice).Mul(pos.Qty).String()})
		}
		writeJSON(w, 200, out)
	case p == "/v2/orders" && r.Method == http.MethodPost:
		var body wireOrderRequest
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeJSON(w, 400, map[string]any{"message": err.Error()})
			return
		}
		qty, _ := decimal.NewFromString(body.Qty)
		lmt, _ := decimal.NewFromString(body.LimitPrice)
		stp, _ := decimal.NewFromString(body.StopPrice)
		o, err := v.Place(brokertest.VenueOrder{ClientID: body.ClientOrderID, Symbol: body.Symbol, Buy: body.Side == "buy", Type: body.Type, Qty: qty, Limit: lmt, Stop: stp})
		if err != nil {
			f.fail(w, err)
			return
		}
		writeJSON(w, 200, f.order(o))
	case p == "/v2/orders":
		out := []map[string]any{}
		for _, o := range v.Orders() {
			out = append(out, f.order(o))
		}
		writeJSON(w, 200, out)
	case strings.HasPrefix(p, "/v2/orders/"):
		id := strings.TrimPrefix(p, "/v2/orders/")
		switch r.Method {
		case http.MethodGet:
			o, err := v.Get(id)
			if err != nil {
				f.fail(w, err)
				return
			}
			writeJSON(w, 200, f.order(o))
		case http.MethodDelete:
			if _, err := v.Cancel(id); err != nil {
				f.fail(w, err)
				return
			}
			w.WriteHeader(204)
		case http.MethodPatch:
			// Alpaca replaces: the old order ends "replaced", a new id carries on.
			var body map[string]string
			_ = json.NewDecoder(r.Body).Decode(&body)
			old, err := v.Cancel(id)
			if err != nil {
				f.fail(w, err)
				return
			}
			f.mu.Lock()
			f.replaced[id] = true
			f.mu.Unlock()
			if s, ok := body["limit_price"]; ok {
				old.Limit = decimal.RequireFromString(s)
			}
			if s, ok := body["qty"]; ok {
				old.Qty = decimal.RequireFromString(s)
			}
			if s, ok := body["stop_price"]; ok {
				old.Stop = decimal.RequireFromString(s)
			}
			old.ClientID = ""
			o, err := v.Place(old)
			if err != nil {
				f.fail(w, err)
				return
			}
			writeJSON(w, 200, f.order(o))
		}
	case p == "/v2/clock":
		writeJSON(w, 200, map[string]any{"timestamp": "2026-01-06T10:00:00-05:00", "is_open": true,
			"next_open": "2026-01-07T09:30:00-05:00", "next_close": "2026-01-06T16:00:00-05:00"})
	case p == "/v2/assets":
		out := []map[string]any{}
		for _, s := range v.Symbols() {
			out = append(out, map[string]any{"id": s, "class": "us_equity", "exchange": "NASDAQ", "symbol": s, "name": s + " Inc.", "status": "active", "tradable": true, "fractionable": true})
		}
		writeJSON(w, 200, out)
	case strings.HasPrefix(p, "/v2/assets/"):
		s := strings.TrimPrefix(p, "/v2/assets/")
		if _, _, _, err := v.Quote(s); err != nil {
			writeJSON(w, 404, map[string]any{"code": 40410000, "message": "asset not found"})
			return
		}
		writeJSON(w, 200, map[string]any{"id": s, "class": "us_equity", "exchange": "NASDAQ", "symbol": s, "name": s + " Inc.", "status": "active", "tradable": true, "fractionable": true})
	case strings.HasPrefix(p, "/v2/stocks/") && strings.HasSuffix(p, "/quotes/latest"):
		s := strings.TrimSuffix(strings.TrimPrefix(p, "/v2/stocks/"), "/quotes/latest")
		bid, ask, _, _ := v.Quote(s)
		writeJSON(w, 200, map[string]any{"symbol": s, "quote": map[string]any{"ap": json.Number(ask.String()), "as": 1, "bp": json.Number(bid.String()), "bs": 1, "t": time.Now().UTC()}})
	case strings.HasPrefix(p, "/v2/stocks/") && strings.HasSuffix(p, "/trades/latest"):
		s := strings.TrimSuffix(strings.TrimPrefix(p, "/v2/stocks/"), "/trades/latest")
		_, _, mid, _ := v.Quote(s)
		writeJSON(w, 200, map[string]any{"symbol": s, "trade": map[string]any{"p": json.Number(mid.String()), "s": 100, "t": time.Now().UTC()}})
	default:
		writeJSON(w, 404, map[string]any{"message": fmt.Sprintf("no route %s %s", r.Method, p)})
	}
}

// TestBrokerContract runs the shared broker behaviours against the Alpaca
// adapter talking to a venue-backed fake of Alpaca's REST API.
func TestBrokerContract(t *testing.T) {
	brokertest.Run(t, func(t *testing.T) *brokertest.Harness {
		v := brokertest.NewVenue(decimal.NewFromInt(100_000), map[string]decimal.Decimal{"AAPL": decimal.RequireFromString("190.00"), "MSFT": decimal.RequireFromString("410.00")})
		f := &venueAlpaca{v: v, replaced: map[string]bool{}}
		srv := httptest.NewServer(f)
		t.Cleanup(srv.Close)
		cfg, key, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"key","apiSecret":"secret","baseUrl":%q,"dataUrl":%q}`, srv.URL, srv.URL)), nil)
		require.NoError(t, err, key)
		b := New("alp", cfg, nil)
		return &brokertest.Harness{
			Broker: b, Contract: trading.Contract{Symbol: "AAPL", SecType: "STK", AssetClass: trading.Equity, Currency: "USD"},
			Qty:    decimal.NewFromInt(10),
			Mid:    func() decimal.Decimal { _, _, m, _ := v.Quote("AAPL"); return m },
			SetMid: func(p decimal.Decimal) { v.SetPrice("AAPL", p) },
			FillPartially: func(id string, q decimal.Decimal) {
				_, err := v.FillPartially(id, q)
				require.NoError(t, err)
			},
			SetFault: func(x brokertest.Fault) { f.mu.Lock(); f.fault = x; f.mu.Unlock() },
		}
	})
}
