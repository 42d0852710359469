package ibkr

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/rs/zerolog"
	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"
)

// The ibapi library logs through one package-level zerolog logger that
// writes to stderr by default; alice never writes logs to the terminal, so
// it is pointed at slog's default logger (the log file) for warnings and
// errors once, before any client exists.
func init() {
	ibapi.SetLogger(zerolog.New(slogWriter{}).Level(zerolog.WarnLevel))
}

// slogWriter forwards zerolog's JSON lines to slog.Default().
type slogWriter struct{}

func (slogWriter) Write(p []byte) (int, error) {
	var m map[string]any
	_ = json.Unmarshal(p, &m)
	msg, _ := m["message"].(string)
	level := slog.LevelWarn
	if l, _ := m["level"].(string); l == "error" || l == "fatal" || l == "panic" {
		level = slog.LevelError
	}
	slog.Default().Log(context.Background(), level, "ibapi: "+msg, "fields", string(p))
	return len(p), nil
}

// wrapper receives one session's callbacks (on the library's single
// decoder goroutine) and hands them to the broker's state. The embedded
// ibapi.Wrapper answers every callback this adapter does not use.
type wrapper struct {
	ibapi.Wrapper
	b *Broker
	s *session
}

func (w *wrapper) NextValidID(id int64) { w.s.gotNextID(id); w.b.onNextID(id) }

func (w *wrapper) ManagedAccounts(accts []string) { w.s.gotAccounts(accts) }

func (w *wrapper) CurrentTime(t int64) { w.s.pong(t) }

func (w *wrapper) ConnectionClosed() {
	w.s.libClosed()
	w.b.onClosed(w.s, "TWS closed the connection")
}

func (w *wrapper) Error(reqID int64, _ int64, code int64, msg string, _ string) {
	w.b.onError(w.s, reqID, code, msg)
}

func (w *wrapper) UpdateAccountValue(key, val, currency, account string) {
	w.b.onAccountValue(key, val, currency, account)
}

func (w *wrapper) UpdatePortfolio(c *ibapi.Contract, pos ibapi.Decimal, mktPrice, mktValue, avgCost, unrealized, realized float64, account string) {
	w.b.onPortfolio(*c, pos, mktPrice, mktValue, avgCost, unrealized, realized, account)
}

func (w *wrapper) AccountDownloadEnd(account string) { w.b.onDownloadEnd(account) }

func (w *wrapper) OpenOrder(id int64, c *ibapi.Contract, o *ibapi.Order, st *ibapi.OrderState) {
	w.b.onOpenOrder(id, *c, *o, st.Status)
}

func (w *wrapper) CompletedOrder(c *ibapi.Contract, o *ibapi.Order, st *ibapi.OrderState) {
	w.b.onCompletedOrder(*c, *o, st.Status)
}

func (w *wrapper) OrderStatus(id int64, status string, filled, _ ibapi.Decimal, avg float64, permID, _ int64, _ float64, clientID int64, _ string, _ float64) {
	w.b.onOrderStatus(id, clientID, permID, status, dec(filled), num(avg))
}

func (w *wrapper) ContractDetails(reqID int64, cd *ibapi.ContractDetails) {
	w.b.withPending(reqID, func(p *pending) { p.details = append(p.details, *cd) })
}

func (w *wrapper) ContractDetailsEnd(reqID int64) { w.b.finish(reqID, nil) }

func (w *wrapper) SymbolSamples(reqID int64, descs []ibapi.ContractDescription) {
	w.b.withPending(reqID, func(p *pending) { p.symbols = append(p.symbols, descs...) })
	w.b.finish(reqID, nil)
}

func (w *wrapper) TickPrice(reqID int64, tt ibapi.TickType, price float64, _ ibapi.TickAttrib) {
	if price <= 0 || price == ibapi.UNSET_FLOAT {
		return // -1 means "no price" on IB's wire
	}
	w.b.withPending(reqID, func(p *pending) { p.ticks[int64(tt)] = num(price) })
}

func (w *wrapper) TickSize(reqID int64, tt ibapi.TickType, size ibapi.Decimal) {
	w.b.withPending(reqID, func(p *pending) { p.ticks[1000+int64(tt)] = dec(size) })
}

func (w *wrapper) TickSnapshotEnd(reqID int64) { w.b.finish(reqID, nil) }

// num converts one of IB's float64 prices to a decimal where IB's unset
// means "none": an order's unused prices (a market order's limit), the
// average price of an order with no fill yet. TWS sends prices as decimal
// text; the library parses them to float64, and the shortest
// representation NewFromFloat produces is that text again. Numbers that
// must be present go through required (strict.go) instead.
func num(f float64) decimal.Decimal {
	if f == ibapi.UNSET_FLOAT || f != f {
		return decimal.Zero
	}
	return decimal.NewFromFloat(f)
}

// dec converts IB's fixed-point quantities.
func dec(d ibapi.Decimal) decimal.Decimal {
	if d == ibapi.UNSET_DECIMAL {
		return decimal.Zero
	}
	v, err := decimal.NewFromString(d.String())
	if err != nil {
		return decimal.Zero
	}
	return v
}

// toIBDecimal converts a quantity for the wire.
func toIBDecimal(d decimal.Decimal) ibapi.Decimal { return ibapi.StringToDecimal(d.String()) }
