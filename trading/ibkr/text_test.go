package ibkr

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/broker"
)

// textServerVersion is an API server version before protobuf (IB Gateway
// 10.30 era), where every message is a length-prefixed frame of
// NUL-terminated text fields, the message id first.
const textServerVersion = 187

// textTWS speaks that legacy wire for the connection, account and
// market-data messages: enough to show the adapter works with a Gateway
// that predates protobuf. (Orders are exercised by the contract suite on
// the protobuf wire; the legacy openOrder message alone has ~150 fields.)
type textTWS struct {
	t    *testing.T
	ln   net.Listener
	wg   sync.WaitGroup
	mu   sync.Mutex
	seen []string // request ids in arrival order
}

func newTextTWS(t *testing.T) *textTWS {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	f := &textTWS{t: t, ln: ln}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				defer c.Close()
				f.handle(c)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); f.wg.Wait() })
	return f
}

// frame builds one message: fields, each NUL-terminated, length-prefixed.
func frame(fields ...any) []byte {
	var sb strings.Builder
	for _, f := range fields {
		fmt.Fprint(&sb, f)
		sb.WriteByte(0)
	}
	n := sb.Len()
	return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, sb.String()...)
}

func (f *textTWS) handle(c net.Conn) {
	r := bufio.NewReader(c)
	head := make([]byte, 4)
	if _, err := io.ReadFull(r, head); err != nil || string(head) != "API\x00" {
		return
	}
	if _, err := readFrame(r); err != nil {
		return
	}
	var mu sync.Mutex
	send := func(fields ...any) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = c.Write(frame(fields...))
	}
	send(textServerVersion, time.Now().UTC().Format("20060102 15:04:05 UTC"))
	for {
		b, err := readFrame(r)
		if err != nil {
			return
		}
		fs := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		f.mu.Lock()
		f.seen = append(f.seen, fs[0])
		f.mu.Unlock()
		id, _ := strconv.ParseInt(fs[0], 10, 64)
		switch id {
		case ibapi.START_API: // 71, version 2, clientId, optional capabilities
			send(ibapi.NEXT_VALID_ID, 1, 17)
			send(ibapi.MANAGED_ACCTS, 1, fakeAccount)
			send(ibapi.ERR_MSG, 2, -1, 2104, "Market data farm connection is OK:usfarm", "")
		case ibapi.REQ_CURRENT_TIME:
			send(ibapi.CURRENT_TIME, 1, time.Now().Unix())
		case ibapi.REQ_ACCT_DATA: // 6, version 2, subscribe, account
			if fs[3] != fakeAccount {
				send(ibapi.ERR_MSG, 2, -1, 321, "Invalid account code", "")
				continue
			}
			for _, kv := range [][2]string{{"NetLiquidation", "25000.50"}, {"TotalCashValue", "25000.50"}, {"BuyingPower", "100002.00"}, {"UnrealizedPnL", "0.00"}, {"RealizedPnL", "0.00"}} {
				send(ibapi.ACCT_VALUE, 2, kv[0], kv[1], "USD", fakeAccount)
			}
			send(ibapi.ACCT_DOWNLOAD_END, 1, fakeAccount)
		case ibapi.REQ_ALL_OPEN_ORDERS:
			send(ibapi.OPEN_ORDER_END, 1)
		case ibapi.REQ_MARKET_DATA_TYPE:
		case ibapi.REQ_MKT_DATA: // 1, version 11, reqId, conId, symbol, secType, …
			req := fs[2]
			if fs[4] != "AAPL" {
				send(ibapi.ERR_MSG, 2, req, 200, "No security definition has been found for the request", "")
				continue
			}
			for _, tp := range [][2]string{{"1", "189.99"}, {"2", "190.01"}, {"4", "190"}} {
				send(ibapi.TICK_PRICE, 6, req, tp[0], tp[1], "100", 0)
			}
			send(ibapi.TICK_SNAPSHOT_END, 1, req)
		default:
			send(ibapi.ERR_MSG, 2, -1, 503, fmt.Sprintf("text fake does not implement %d", id), "")
		}
	}
}

func TestLegacyTextWire(t *testing.T) {
	f := newTextTWS(t)
	b := New("ib-old", Config{Host: "127.0.0.1", Port: f.ln.Addr().(*net.TCPAddr).Port, Timeout: 15 * time.Second, KeepAlive: time.Minute},
		slog.New(slog.DiscardHandler))
	defer b.Close()
	ctx := context.Background()
	require.NoError(t, b.Init(ctx))

	a, err := b.Account(ctx)
	require.NoError(t, err)
	require.Equal(t, "25000.5", a.NetLiquidation.String(), "decimal text kept exact")
	require.Equal(t, "USD", a.BaseCurrency)

	q, err := b.Quote(ctx, trading.Contract{Symbol: "AAPL"})
	require.NoError(t, err)
	require.Equal(t, "189.99", q.Bid.String())
	require.Equal(t, "190.01", q.Ask.String())

	_, err = b.Quote(ctx, trading.Contract{Symbol: "NOPE"})
	require.Equal(t, broker.CodeNotFound, broker.CodeOf(err), "%v", err)

	_, err = b.MarketClock(ctx)
	require.NoError(t, err)

	f.mu.Lock()
	seen := strings.Join(f.seen, ",")
	f.mu.Unlock()
	require.True(t, strings.HasPrefix(seen, "71,49,59,6,16"), "startApi, handshake ping, market data type, account updates, open orders: %s", seen)
}
