package ibkr

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scmhub/ibapi"
	pb "github.com/scmhub/ibapi/protobuf"
	"github.com/shopspring/decimal"
	"google.golang.org/protobuf/proto"

	"github.com/alice-trading/alice/trading/broker/brokertest"
)

// fakeServerVersion is the API server version the fake TWS announces: the
// one current TWS / IB Gateway builds (10.4x) speak, where every message
// this adapter uses is a length-prefixed frame holding a 4-byte raw message
// id (IB's id + 200) and a protobuf body; only the handshake reply is
// NUL-separated text.
const fakeServerVersion = 226

const fakeAccount = "DU1234567"

// fakeTWS is a TCP listener speaking TWS's socket protocol over a
// brokertest.Venue: handshake, startApi → nextValidId + managedAccounts,
// reqAccountUpdates (account values, portfolio, download end, pushed again
// on every change), reqMatchingSymbols, reqContractDetails, snapshot
// reqMktData, placeOrder (new or modify), cancelOrder, reqAllOpenOrders
// and reqCurrentTime. Errors use IB's real codes.
type fakeTWS struct {
	t     *testing.T
	venue *brokertest.Venue
	addr  string

	pubMu     sync.Mutex // one publish at a time, so updates reach clients in order
	mu        sync.Mutex
	ln        net.Listener
	conns     map[*fakeConn]bool
	down      bool
	throttle  bool // answer requests with error 100
	hang      bool // stop answering reqCurrentTime
	ibLost    bool
	conIDs    map[string]int64
	ibToVenue map[int64]string
	venueToIB map[string]int64
	orders    map[int64]*pb.Order // as placed / modified
	sent      map[string]brokertest.VenueOrder
	held      map[string]bool         // symbols that ever had a position
	untransm  []*pb.PlaceOrderRequest // transmit=false orders waiting for the last of their bracket
	clients   map[int64]int32         // IB order id → clientId that placed it
	accepts   int
	wg        sync.WaitGroup
}

type fakeConn struct {
	clientID   int32
	c          net.Conn
	wmu        sync.Mutex
	subscribed bool
}

func newFakeTWS(t *testing.T, v *brokertest.Venue) *fakeTWS {
	f := &fakeTWS{t: t, venue: v, conns: map[*fakeConn]bool{}, conIDs: map[string]int64{}, ibToVenue: map[int64]string{},
		venueToIB: map[string]int64{}, orders: map[int64]*pb.Order{}, clients: map[int64]int32{}, sent: map[string]brokertest.VenueOrder{}, held: map[string]bool{}}
	for i, s := range v.Symbols() {
		f.conIDs[s] = 265598 + int64(i)*1000
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr = ln.Addr().String()
	f.serve(ln)
	t.Cleanup(f.close)
	return f
}

func (f *fakeTWS) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

func (f *fakeTWS) serve(ln net.Listener) {
	f.ln = ln
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fc := &fakeConn{c: c}
			f.mu.Lock()
			f.conns[fc] = true
			f.accepts++
			f.mu.Unlock()
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				f.handle(fc)
			}()
		}
	}()
}

func (f *fakeTWS) close() {
	f.mu.Lock()
	ln := f.ln
	for c := range f.conns {
		c.c.Close()
	}
	f.mu.Unlock()
	ln.Close()
	f.wg.Wait()
}

// setDown closes the listener and every socket (TWS quit), or listens
// again on the same port.
func (f *fakeTWS) setDown(down bool) {
	f.mu.Lock()
	if f.down == down {
		f.mu.Unlock()
		return
	}
	f.down = down
	if down {
		f.ln.Close() // first, so nobody gets in between
		for c := range f.conns {
			c.c.Close()
		}
		f.mu.Unlock()
		return
	}
	f.mu.Unlock()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp4", f.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		f.t.Fatalf("relisten: %v", err)
	}
	f.mu.Lock()
	f.serve(ln)
	f.mu.Unlock()
}

// readFrame reads one length-prefixed frame.
func readFrame(r *bufio.Reader) ([]byte, error) {
	var n uint32
	if err := binary.Read(r, binary.BigEndian, &n); err != nil {
		return nil, err
	}
	if n > 1<<24 {
		return nil, fmt.Errorf("frame of %d bytes", n)
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, err
}

func (fc *fakeConn) writeFrame(payload []byte) {
	fc.wmu.Lock()
	defer fc.wmu.Unlock()
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(payload)))
	_, _ = fc.c.Write(append(hdr[:], payload...))
}

// send writes an incoming-message id (+200: protobuf) and its body.
func (fc *fakeConn) send(id ibapi.IN, m proto.Message) {
	body, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(int64(id)+ibapi.PROTOBUF_MSG_ID))
	fc.writeFrame(append(hdr[:], body...))
}

func (fc *fakeConn) sendError(reqID int64, code int32, msg string) {
	fc.send(ibapi.ERR_MSG, &pb.ErrorMessage{Id: proto.Int32(int32(reqID)), ErrorTime: proto.Int64(time.Now().UnixMilli()),
		ErrorCode: proto.Int32(code), ErrorMsg: proto.String(msg)})
}

func (f *fakeTWS) handle(fc *fakeConn) {
	defer func() {
		fc.c.Close()
		f.mu.Lock()
		delete(f.conns, fc)
		f.mu.Unlock()
	}()
	r := bufio.NewReader(fc.c)
	// Handshake: "API\0", then a length-prefixed "v<min>..<max>[ options]".
	head := make([]byte, 4)
	if _, err := io.ReadFull(r, head); err != nil || string(head) != "API\x00" {
		return
	}
	vr, err := readFrame(r)
	if err != nil || !strings.HasPrefix(string(vr), "v100..") {
		f.t.Errorf("fake TWS: bad version range %q", vr)
		return
	}
	fc.writeFrame([]byte(fmt.Sprintf("%d\x00%s\x00", fakeServerVersion, time.Now().UTC().Format("20060102 15:04:05 UTC"))))
	for {
		frame, err := readFrame(r)
		if err != nil {
			return
		}
		if len(frame) < 4 {
			f.t.Errorf("fake TWS: short frame %x", frame)
			return
		}
		id := int64(binary.BigEndian.Uint32(frame[:4]))
		if id < ibapi.PROTOBUF_MSG_ID {
			f.t.Errorf("fake TWS: text message %d at server version %d", id, fakeServerVersion)
			return
		}
		f.dispatch(fc, ibapi.OUT(id-ibapi.PROTOBUF_MSG_ID), frame[4:])
	}
}

func unmarshal[T any, P interface {
	*T
	proto.Message
}](b []byte) P {
	m := P(new(T))
	if err := proto.Unmarshal(b, m); err != nil {
		panic(err)
	}
	return m
}

func (f *fakeTWS) dispatch(fc *fakeConn, id ibapi.OUT, body []byte) {
	f.mu.Lock()
	throttle, hang := f.throttle, f.hang
	f.mu.Unlock()
	if throttle && id != ibapi.START_API {
		fc.sendError(-1, 100, "Max rate of messages per second has been exceeded:max=50 rec=55 (1)")
		if id == ibapi.REQ_MKT_DATA {
			m := unmarshal[pb.MarketDataRequest](body)
			fc.sendError(int64(m.GetReqId()), 100, "Max rate of messages per second has been exceeded")
		}
		return
	}
	switch id {
	case ibapi.START_API:
		m := unmarshal[pb.StartApiRequest](body)
		f.mu.Lock()
		fc.clientID = m.GetClientId()
		f.mu.Unlock()
		f.mu.Lock()
		next := int32(len(f.ibToVenue) + 1)
		lost := f.ibLost
		f.mu.Unlock()
		fc.send(ibapi.NEXT_VALID_ID, &pb.NextValidId{OrderId: proto.Int32(next)})
		fc.send(ibapi.MANAGED_ACCTS, &pb.ManagedAccounts{AccountsList: proto.String(fakeAccount)})
		fc.sendError(-1, 2104, "Market data farm connection is OK:usfarm")
		if lost {
			fc.sendError(-1, 1100, "Connectivity between IB and Trader Workstation has been lost.")
		}
	case ibapi.REQ_CURRENT_TIME:
		if !hang {
			fc.send(ibapi.CURRENT_TIME, &pb.CurrentTime{CurrentTime: proto.Int64(time.Now().Unix())})
		}
	case ibapi.REQ_MARKET_DATA_TYPE:
		// accepted silently, as TWS does
	case ibapi.REQ_IDS:
		fc.send(ibapi.NEXT_VALID_ID, &pb.NextValidId{OrderId: proto.Int32(int32(len(f.ibToVenue) + 1))})
	case ibapi.REQ_ACCT_DATA:
		m := unmarshal[pb.AccountDataRequest](body)
		if m.GetAcctCode() != fakeAccount {
			fc.sendError(-1, 321, "Error validating request:-'bB' : cause - Invalid account code")
			return
		}
		f.mu.Lock()
		fc.subscribed = m.GetSubscribe()
		f.mu.Unlock()
		if fc.subscribed {
			f.sendAccount(fc)
			fc.send(ibapi.ACCT_DOWNLOAD_END, &pb.AccountDataEnd{AccountName: proto.String(fakeAccount)})
		}
	case ibapi.REQ_MATCHING_SYMBOLS:
		m := unmarshal[pb.MatchingSymbolsRequest](body)
		out := &pb.SymbolSamples{ReqId: m.ReqId}
		for _, s := range f.venue.Symbols() {
			if strings.Contains(s, strings.ToUpper(m.GetPattern())) {
				out.ContractDescriptions = append(out.ContractDescriptions, &pb.ContractDescription{Contract: f.contract(s), DerivativeSecTypes: []string{"OPT"}})
			}
		}
		fc.send(ibapi.SYMBOL_SAMPLES, out)
	case ibapi.REQ_CONTRACT_DATA:
		m := unmarshal[pb.ContractDataRequest](body)
		sym, ok := f.resolve(m.GetContract())
		if !ok {
			fc.sendError(int64(m.GetReqId()), 200, "No security definition has been found for the request")
			return
		}
		c := f.contract(sym)
		c.Exchange = proto.String("SMART")
		fc.send(ibapi.CONTRACT_DATA, &pb.ContractData{ReqId: m.ReqId, Contract: c, ContractDetails: &pb.ContractDetails{
			MarketName: proto.String(sym), MinTick: proto.String("0.01"), OrderTypes: proto.String("ACTIVETIM,LMT,MKT,MOC,STP,STPLMT,TRAIL,TRAILLMT"),
			ValidExchanges: proto.String("SMART,NYSE,NASDAQ"), LongName: proto.String(sym + " INC"), TimeZoneId: proto.String("US/Eastern")}})
		fc.send(ibapi.CONTRACT_DATA_END, &pb.ContractDataEnd{ReqId: m.ReqId})
	case ibapi.REQ_MKT_DATA:
		m := unmarshal[pb.MarketDataRequest](body)
		sym, ok := f.resolve(m.GetContract())
		if !ok {
			fc.sendError(int64(m.GetReqId()), 200, "No security definition has been found for the request")
			return
		}
		if !m.GetSnapshot() {
			fc.sendError(int64(m.GetReqId()), 321, "fake TWS serves snapshots only")
			return
		}
		bid, ask, mid, _ := f.venue.Quote(sym)
		for tt, px := range map[int32]decimal.Decimal{1: bid, 2: ask, 4: mid, 9: mid} {
			fc.send(ibapi.TICK_PRICE, &pb.TickPrice{ReqId: m.ReqId, TickType: proto.Int32(tt), Price: proto.Float64(px.InexactFloat64()), Size: proto.String("100")})
		}
		fc.send(ibapi.TICK_SNAPSHOT_END, &pb.TickSnapshotEnd{ReqId: m.ReqId})
	case ibapi.PLACE_ORDER:
		f.placeOrder(fc, unmarshal[pb.PlaceOrderRequest](body))
	case ibapi.CANCEL_ORDER:
		m := unmarshal[pb.CancelOrderRequest](body)
		f.mu.Lock()
		vid, ok := f.ibToVenue[int64(m.GetOrderId())]
		f.mu.Unlock()
		if !ok {
			fc.sendError(int64(m.GetOrderId()), 10147, fmt.Sprintf("OrderId %d that needs to be cancelled is not found.", m.GetOrderId()))
			return
		}
		if _, err := f.venue.Cancel(vid); err != nil {
			fc.sendError(int64(m.GetOrderId()), 161, "Cancel attempted when order is not in a cancellable state. Order permId = "+vid)
			return
		}
		fc.sendError(int64(m.GetOrderId()), 202, "Order Canceled - reason:")
		f.publish()
	case ibapi.REQ_COMPLETED_ORDERS:
		for _, o := range f.venue.Orders() {
			if !o.State.Open() {
				f.sendCompleted(fc, o)
			}
		}
		fc.send(ibapi.COMPLETED_ORDERS_END, &pb.CompletedOrdersEnd{})
	case ibapi.REQ_ALL_OPEN_ORDERS, ibapi.REQ_OPEN_ORDERS:
		for _, o := range f.venue.Orders() {
			if o.State.Open() {
				f.sendOrder(fc, o)
			}
		}
		fc.send(ibapi.OPEN_ORDER_END, &pb.OpenOrdersEnd{})
	default:
		fc.sendError(-1, 503, fmt.Sprintf("fake TWS does not implement message %d", id))
	}
}

func (f *fakeTWS) contract(sym string) *pb.Contract {
	return &pb.Contract{ConId: proto.Int32(int32(f.conIDs[sym])), Symbol: proto.String(sym), SecType: proto.String("STK"),
		PrimaryExch: proto.String("NASDAQ"), Currency: proto.String("USD"), Description: proto.String(sym + " INC")}
}

// resolve finds a venue symbol by conId or symbol+STK.
func (f *fakeTWS) resolve(c *pb.Contract) (string, bool) {
	for s, id := range f.conIDs {
		if int64(c.GetConId()) == id || (c.GetConId() == 0 && strings.EqualFold(c.GetSymbol(), s) && (c.GetSecType() == "STK" || c.GetSecType() == "")) {
			return s, true
		}
	}
	return "", false
}

var venueTypes = map[string]string{"MKT": "market", "LMT": "limit", "STP": "stop", "STP LMT": "stop_limit"}

// placeOrder keeps orders sent with transmit=false until an order with
// transmit=true arrives for their bracket (IB's way to activate parent
// and children together), then places them in order.
func (f *fakeTWS) placeOrder(fc *fakeConn, m *pb.PlaceOrderRequest) {
	o := m.GetOrder()
	if !o.GetTransmit() {
		f.mu.Lock()
		f.untransm = append(f.untransm, m)
		f.mu.Unlock()
		return
	}
	if parent := o.GetParentId(); parent != 0 {
		f.mu.Lock()
		var release, keep []*pb.PlaceOrderRequest
		for _, h := range f.untransm {
			if h.GetOrderId() == parent || h.GetOrder().GetParentId() == parent {
				release = append(release, h)
			} else {
				keep = append(keep, h)
			}
		}
		f.untransm = keep
		f.mu.Unlock()
		for _, h := range release {
			f.placeOne(fc, h)
		}
	}
	f.placeOne(fc, m)
}

func (f *fakeTWS) placeOne(fc *fakeConn, m *pb.PlaceOrderRequest) {
	id := int64(m.GetOrderId())
	o := m.GetOrder()
	qty, _ := decimal.NewFromString(o.GetTotalQuantity())
	f.mu.Lock()
	vid, exists := f.ibToVenue[id]
	f.mu.Unlock()
	if exists { // same id again: a modification
		cur, _ := f.venue.Get(vid)
		if !cur.State.Open() {
			fc.sendError(id, 104, "Can't modify a filled order")
			return
		}
		if _, err := f.venue.Amend(vid, qty, decimal.NewFromFloat(o.GetLmtPrice()), decimal.NewFromFloat(o.GetAuxPrice())); err != nil {
			fc.sendError(id, 201, "Order rejected - reason:"+err.Error())
			return
		}
		f.mu.Lock()
		f.orders[id] = o
		delete(f.sent, vid) // force a fresh openOrder
		f.mu.Unlock()
		f.publish()
		return
	}
	sym, ok := f.resolve(m.GetContract())
	if !ok {
		fc.sendError(id, 200, "No security definition has been found for the request")
		return
	}
	typ, ok := venueTypes[o.GetOrderType()]
	if !ok {
		fc.sendError(id, 201, "Order rejected - reason:fake TWS does not match "+o.GetOrderType()+" orders")
		return
	}
	vo := brokertest.VenueOrder{Symbol: sym, Buy: o.GetAction() == "BUY", Type: typ, Qty: qty}
	if o.LmtPrice != nil {
		vo.Limit = decimal.NewFromFloat(o.GetLmtPrice())
	}
	if o.AuxPrice != nil {
		vo.Stop = decimal.NewFromFloat(o.GetAuxPrice())
	}
	placed, err := f.venue.Place(vo)
	if err != nil {
		code, reason := int32(201), "Order rejected - reason:"+err.Error()
		if errors.Is(err, brokertest.ErrInsufficientFunds) {
			reason = "Order rejected - reason:YOUR ORDER IS NOT ACCEPTED. IN ORDER TO OBTAIN THE DESIRED POSITION YOUR EQUITY WITH LOAN VALUE MUST EXCEED THE INITIAL MARGIN"
		}
		fc.sendError(id, code, reason)
		return
	}
	f.mu.Lock()
	f.ibToVenue[id], f.venueToIB[placed.ID], f.orders[id], f.clients[id] = placed.ID, id, o, fc.clientID
	f.mu.Unlock()
	f.publish()
}
