package ibkr

import (
	"time"

	"github.com/scmhub/ibapi"
	pb "github.com/scmhub/ibapi/protobuf"
	"github.com/shopspring/decimal"
	"google.golang.org/protobuf/proto"

	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// The fake TWS's outgoing side: order and account updates built from the
// venue's state.

func ibStatus(s brokertest.OrderState) string {
	switch s {
	case brokertest.StateFilled:
		return "Filled"
	case brokertest.StateCancelled:
		return "Cancelled"
	}
	return "Submitted"
}

func (f *fakeTWS) sendOrder(fc *fakeConn, vo brokertest.VenueOrder) {
	f.mu.Lock()
	id := f.venueToIB[vo.ID]
	o := proto.Clone(f.orders[id]).(*pb.Order)
	f.mu.Unlock()
	o.OrderId = proto.Int32(int32(id))
	o.PermId = proto.Int64(int64(1_000_000 + id))
	o.Account = proto.String(fakeAccount)
	f.mu.Lock()
	client := f.clients[id]
	f.mu.Unlock()
	o.ClientId = proto.Int32(client)
	fc.send(ibapi.OPEN_ORDER, &pb.OpenOrder{OrderId: proto.Int32(int32(id)), Contract: f.contract(vo.Symbol), Order: o,
		OrderState: &pb.OrderState{Status: proto.String(ibStatus(vo.State))}})
	fc.send(ibapi.ORDER_STATUS, &pb.OrderStatus{OrderId: proto.Int32(int32(id)), Status: proto.String(ibStatus(vo.State)),
		Filled: proto.String(vo.Filled.String()), Remaining: proto.String(vo.Qty.Sub(vo.Filled).String()),
		AvgFillPrice: proto.Float64(vo.AvgPrice.InexactFloat64()), PermId: proto.Int64(int64(1_000_000 + id)), ClientId: proto.Int32(client)})
}

// sendCompleted reports a finished order as reqCompletedOrders does.
func (f *fakeTWS) sendCompleted(fc *fakeConn, vo brokertest.VenueOrder) {
	f.mu.Lock()
	id := f.venueToIB[vo.ID]
	o := proto.Clone(f.orders[id]).(*pb.Order)
	client := f.clients[id]
	f.mu.Unlock()
	o.OrderId = proto.Int32(int32(id))
	o.ClientId = proto.Int32(client)
	o.PermId = proto.Int64(int64(1_000_000 + id))
	o.FilledQuantity = proto.String(vo.Filled.String())
	fc.send(ibapi.COMPLETED_ORDER, &pb.CompletedOrder{Contract: f.contract(vo.Symbol), Order: o,
		OrderState: &pb.OrderState{Status: proto.String(ibStatus(vo.State)), CompletedStatus: proto.String(ibStatus(vo.State))}})
}

// sendAccount pushes account values and the portfolio, as TWS does on
// every change while reqAccountUpdates is subscribed.
func (f *fakeTWS) sendAccount(fc *fakeConn) {
	cash := f.venue.Cash()
	equity, unreal := cash, decimal.Zero
	type row struct {
		sym              string
		qty, px, avg, pl decimal.Decimal
		realized         decimal.Decimal
	}
	var rows []row
	pos := map[string]brokertest.VenuePosition{}
	for _, p := range f.venue.Positions() {
		pos[p.Symbol] = p
	}
	f.mu.Lock()
	for s := range pos {
		f.held[s] = true
	}
	held := make([]string, 0, len(f.held))
	for s := range f.held {
		held = append(held, s)
	}
	f.mu.Unlock()
	for _, s := range held {
		p := pos[s]
		_, _, mid, _ := f.venue.Quote(s)
		pl := mid.Sub(p.AvgPrice).Mul(p.Qty)
		equity = equity.Add(mid.Mul(p.Qty))
		unreal = unreal.Add(pl)
		rows = append(rows, row{s, p.Qty, mid, p.AvgPrice, pl, p.Realized})
	}
	for k, v := range map[string]decimal.Decimal{"NetLiquidation": equity, "TotalCashValue": cash, "BuyingPower": cash.Mul(decimal.NewFromInt(4)),
		"UnrealizedPnL": unreal, "RealizedPnL": f.venue.Realized()} {
		fc.send(ibapi.ACCT_VALUE, &pb.AccountValue{Key: proto.String(k), Value: proto.String(v.StringFixed(2)), Currency: proto.String("USD"), AccountName: proto.String(fakeAccount)})
	}
	fc.send(ibapi.ACCT_VALUE, &pb.AccountValue{Key: proto.String("AccountType"), Value: proto.String("INDIVIDUAL"), AccountName: proto.String(fakeAccount)})
	for _, r := range rows {
		c := f.contract(r.sym)
		fc.send(ibapi.PORTFOLIO_VALUE, &pb.PortfolioValue{Contract: c, Position: proto.String(r.qty.String()), MarketPrice: proto.Float64(r.px.InexactFloat64()),
			MarketValue: proto.Float64(r.px.Mul(r.qty).InexactFloat64()), AverageCost: proto.Float64(r.avg.InexactFloat64()),
			UnrealizedPNL: proto.Float64(r.pl.InexactFloat64()), RealizedPNL: proto.Float64(r.realized.InexactFloat64()), AccountName: proto.String(fakeAccount)})
	}
	fc.send(ibapi.ACCT_UPDATE_TIME, &pb.AccountUpdateTime{TimeStamp: proto.String(time.Now().Format("15:04"))})
}

// publish sends every order change to every client: portfolio first (so
// a client that sees "Filled" already holds the position), then
// openOrder + orderStatus for the orders that changed.
func (f *fakeTWS) publish() {
	f.pubMu.Lock()
	defer f.pubMu.Unlock()
	var changed []brokertest.VenueOrder
	f.mu.Lock()
	for _, o := range f.venue.Orders() {
		if last, ok := f.sent[o.ID]; !ok || last.State != o.State || !last.Filled.Equal(o.Filled) || !last.Limit.Equal(o.Limit) || !last.Stop.Equal(o.Stop) || !last.Qty.Equal(o.Qty) {
			changed = append(changed, o)
			f.sent[o.ID] = o
		}
	}
	conns := make([]*fakeConn, 0, len(f.conns))
	for c := range f.conns {
		conns = append(conns, c)
	}
	f.mu.Unlock()
	for _, c := range conns {
		f.mu.Lock()
		sub := c.subscribed
		f.mu.Unlock()
		if sub {
			f.sendAccount(c)
		}
		for _, o := range changed {
			f.sendOrder(c, o)
		}
	}
}

// broadcast sends an error message to every client.
func (f *fakeTWS) broadcast(code int32, msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		c.sendError(-1, code, msg)
	}
}
