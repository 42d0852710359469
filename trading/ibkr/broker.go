package ibkr

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading/broker"
)

// Broker is one IB account behind one TWS / IB Gateway.
type Broker struct {
	accountID string // alice's account id (aliceId prefix)
	cfg       Config
	log       *slog.Logger
	now       func() time.Time

	connectMu sync.Mutex // one connection attempt at a time

	mu         sync.Mutex
	sess       *session // nil while disconnected
	downWhy    string
	ibLost     bool   // TWS reported 1100/2110: it is up but cut off from IB
	account    string // IB account code in use
	nextID     int64
	reqSeq     int64
	pending    map[int64]*pending
	orders     map[int64]*orderRec
	values     map[string]string // "key|currency" → value (account cache)
	baseCcy    string
	portfolio  map[int64]portfolioRow // conId → row (portfolio cache)
	downloaded chan struct{}          // closed after the first accountDownloadEnd of a session
	conIDs     map[string]int64       // symbol → conId seen in answers
	changed    chan struct{}          // closed and replaced on every order update

	stop    chan struct{}
	kick    chan struct{}
	wg      sync.WaitGroup
	started bool
	closed  bool
}

var _ broker.Broker = (*Broker)(nil)

// New builds the adapter; Init connects.
func New(accountID string, cfg Config, logger *slog.Logger) *Broker {
	if logger == nil {
		logger = slog.Default()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.KeepAlive <= 0 {
		cfg.KeepAlive = 30 * time.Second
	}
	return &Broker{accountID: accountID, cfg: cfg, log: logger, now: time.Now,
		pending: map[int64]*pending{}, orders: map[int64]*orderRec{}, values: map[string]string{},
		portfolio: map[int64]portfolioRow{}, conIDs: map[string]int64{}, downloaded: make(chan struct{}),
		changed: make(chan struct{}), stop: make(chan struct{}), kick: make(chan struct{}, 1), downWhy: "not connected yet"}
}

func (b *Broker) String() string {
	return fmt.Sprintf("ibkr(%s %s:%d client %d)", b.accountID, b.cfg.Host, b.cfg.Port, b.cfg.ClientID)
}

// Init starts the reconnect loop and connects once; on failure the loop
// keeps trying in the background and the error says why.
func (b *Broker) Init(ctx context.Context) error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return errors.New("ibkr: broker closed")
	}
	if !b.started {
		b.started = true
		b.wg.Add(1)
		go b.supervise()
	}
	b.mu.Unlock()
	_, err := b.ensure(ctx)
	if err != nil {
		b.wake()
	}
	return err
}

// Close disconnects and stops every goroutine the broker started.
func (b *Broker) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	s := b.sess
	b.sess = nil
	close(b.stop)
	b.mu.Unlock()
	b.connectMu.Lock() // wait for an attempt in flight
	b.connectMu.Unlock()
	if s != nil {
		s.end()
		s.wait(2 * time.Second)
	}
	b.wg.Wait()
	return nil
}

// Connected reports whether a live session exists and TWS is connected
// to IB; why says what is wrong otherwise.
func (b *Broker) Connected() (ok bool, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.sess == nil:
		return false, b.downWhy
	case b.sess.isDead():
		return false, "connection closed"
	case b.ibLost:
		return false, "TWS lost its connection to IB (error 1100)"
	}
	return true, ""
}

func (b *Broker) wake() {
	select {
	case b.kick <- struct{}{}:
	default:
	}
}

// supervise reconnects a lost session with exponential backoff (0.5 s
// doubling to 30 s) until Close.
func (b *Broker) supervise() {
	defer b.wg.Done()
	for {
		select {
		case <-b.stop:
			return
		case <-b.kick:
		}
		backoff := 500 * time.Millisecond
		for {
			if ok, _ := b.Connected(); ok {
				break
			}
			ctx, cancel := context.WithTimeout(context.Background(), b.cfg.Timeout)
			_, err := b.ensure(ctx)
			cancel()
			if err == nil {
				b.log.Info("ibkr: connected", "broker", b.String())
				break
			}
			b.log.Warn("ibkr: reconnect failed", "broker", b.String(), "err", err, "retryIn", backoff)
			select {
			case <-b.stop:
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 30*time.Second)
		}
	}
}

// ensure returns the live session, connecting now if there is none. A
// session whose TWS is cut off from IB counts as down: answers from it
// would be stale.
func (b *Broker) ensure(ctx context.Context) (*session, error) {
	b.mu.Lock()
	s, lost, closed := b.sess, b.ibLost, b.closed
	b.mu.Unlock()
	if closed {
		return nil, notConnected("broker closed")
	}
	if s == nil || s.isDead() {
		var err error
		if s, err = b.connect(ctx); err != nil {
			return nil, err
		}
	}
	if lost {
		return nil, &broker.Error{Code: broker.CodeNetwork, Msg: "TWS / IB Gateway is running but has lost its connection to IB (error 1100)",
			Hint: "IB Gateway reconnects by itself; if it does not, check its window (re-login, 2FA)"}
	}
	return s, nil
}

// connect performs the handshake (the library's Connect: "API\0", version
// range, server version + time, startApi) and waits for nextValidId and
// managedAccounts, then subscribes to account updates and open orders.
func (b *Broker) connect(ctx context.Context) (*session, error) {
	b.connectMu.Lock()
	defer b.connectMu.Unlock()
	b.mu.Lock()
	if (b.sess != nil && !b.sess.isDead()) || b.closed {
		s := b.sess
		b.mu.Unlock()
		if s == nil {
			return nil, notConnected("broker closed")
		}
		return s, nil
	}
	b.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	s := newSession(b)
	addr := net.JoinHostPort(b.cfg.Host, strconv.Itoa(b.cfg.Port))
	r, port, err := dialRelay(ctx, addr, s.end)
	if err != nil {
		b.setDown(addr + ": " + err.Error())
		return nil, notConnected(addr + ": " + err.Error())
	}
	s.relay = r
	fail := func(why string) (*session, error) {
		s.end()
		s.wait(time.Second)
		b.setDown(why)
		return nil, notConnected(why)
	}
	done := make(chan error, 1)
	go func() { done <- s.c.Connect("127.0.0.1", port, b.cfg.ClientID) }()
	select {
	case err := <-done:
		if err != nil {
			return fail(fmt.Sprintf("%s: %v", addr, err))
		}
		s.handshook.Store(true)

	case <-ctx.Done():
		s.end()
		<-done // the handshake read fails once the relay is closed
		return fail(addr + ": handshake timed out")
	}
	select {
	case <-s.ready:
	case <-s.dead:
		return fail("TWS closed the connection during the handshake (is the API enabled and this host trusted?)")
	case <-ctx.Done():
		return fail("TWS sent no nextValidId/managedAccounts after startApi")
	}
	// One round trip proves the session answers. It also orders Connect's
	// writes before any later teardown by the library (our request passes
	// through its writer goroutine, whose byte counters its Disconnect
	// reads atomically): the race detector cannot see ordering through a
	// socket.
	if _, err := s.ping(ctx, b.cfg.Timeout); err != nil {
		return fail("TWS did not answer reqCurrentTime after the handshake")
	}
	s.mu.Lock()
	accts, next := append([]string(nil), s.accounts...), s.nextID
	s.mu.Unlock()
	acct := b.cfg.AccountID
	if acct == "" {
		acct = accts[0]
	} else if !contains(accts, acct) {
		_, _ = fail("wrong account")
		return nil, &broker.Error{Code: broker.CodeConfig, Msg: fmt.Sprintf("accountId %q is not one of the accounts this TWS login manages (%v)", acct, accts)}
	}
	b.mu.Lock()
	b.sess, b.account, b.ibLost, b.downWhy = s, acct, false, ""
	if next > b.nextID {
		b.nextID = next
	}
	b.downloaded = make(chan struct{})
	b.mu.Unlock()
	s.do(func(c *ibapi.EClient) {
		c.ReqMarketDataType(3) // delayed data where the account has no live subscription; live where it has
		c.ReqAccountUpdates(true, acct)
		c.ReqAllOpenOrders()
	})
	b.wg.Add(1)
	go b.keepAlive(s)
	return s, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// keepAlive probes the session while it is idle; a TWS that stops
// answering is dropped so the supervisor reconnects (a hung Gateway must
// not look healthy).
func (b *Broker) keepAlive(s *session) {
	defer b.wg.Done()
	t := time.NewTicker(b.cfg.KeepAlive)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-s.dead:
			return
		case <-t.C:
			if _, err := s.ping(context.Background(), b.cfg.Timeout); err != nil && !s.isDead() {
				b.log.Warn("ibkr: keepalive failed, reconnecting", "broker", b.String(), "err", err)
				b.drop(s, "keepalive: "+err.Error())
			}
		}
	}
}

// drop abandons a session and lets the supervisor reconnect.
func (b *Broker) drop(s *session, why string) {
	b.mu.Lock()
	if b.sess == s {
		b.sess, b.downWhy = nil, why
	}
	b.mu.Unlock()
	s.end()
	b.failPending(why)
	b.wake()
}

func (b *Broker) setDown(why string) {
	b.mu.Lock()
	b.downWhy = why
	b.mu.Unlock()
}

func (b *Broker) onClosed(s *session, why string) {
	s.markDead()
	b.mu.Lock()
	current := b.sess == s
	if current {
		b.sess, b.downWhy = nil, why
	}
	closed := b.closed
	b.mu.Unlock()
	if current {
		b.failPending(why)
		if !closed {
			b.log.Warn("ibkr: connection lost", "broker", b.String(), "why", why)
			b.wake()
		}
	}
}

func (b *Broker) onNextID(id int64) {
	b.mu.Lock()
	if id > b.nextID {
		b.nextID = id
	}
	b.mu.Unlock()
}

// onError routes an IB error message: link state codes change health,
// request-bound ones end their request, order-bound ones mark the order.
func (b *Broker) onError(s *session, reqID, code int64, msg string) {
	switch code {
	case codeIBLost, codeServerBroken:
		b.mu.Lock()
		b.ibLost = true
		b.mu.Unlock()
		b.log.Warn("ibkr: TWS lost IB connectivity", "code", code, "msg", msg)
		return
	case codeRestoredKept, codeRestoredLost:
		b.mu.Lock()
		b.ibLost = false
		acct := b.account
		b.mu.Unlock()
		if code == codeRestoredLost { // subscriptions were lost: renew
			s.do(func(c *ibapi.EClient) {
				c.ReqAccountUpdates(true, acct)
				c.ReqAllOpenOrders()
			})
		}
		return
	}
	if informational(code) {
		b.log.Debug("ibkr: notice", "code", code, "msg", msg)
		return
	}
	e := &ibError{Code: code, Msg: msg}
	b.mu.Lock()
	if _, ok := b.pending[reqID]; ok && reqID >= 0 {
		b.mu.Unlock()
		b.finish(reqID, e)
		return
	}
	if o, ok := b.orders[reqID]; ok {
		if code != codeOrderCancelled {
			o.err = e
			if code == codeOrderRejected {
				o.status = "Rejected"
			}
		}
		b.bumpLocked(o)
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	b.log.Warn("ibkr: error", "reqId", reqID, "code", code, "msg", msg)
}

// pending is one request waiting for its answer.
type pending struct {
	done    chan struct{}
	err     *ibError
	details []ibapi.ContractDetails
	symbols []ibapi.ContractDescription
	ticks   map[int64]decimal.Decimal
}

// request registers a request id, runs send, and waits for the answer.
func (b *Broker) request(ctx context.Context, what string, send func(c *ibapi.EClient, id int64)) (*pending, error) {
	s, err := b.ensure(ctx)
	if err != nil {
		return nil, err
	}
	p := &pending{done: make(chan struct{}), ticks: map[int64]decimal.Decimal{}}
	b.mu.Lock()
	b.reqSeq++
	id := 1_500_000_000 + b.reqSeq // request ids share a space with order ids; keep far above them (int32 on the wire)
	b.pending[id] = p
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
	}()
	if !s.do(func(c *ibapi.EClient) { send(c, id) }) {
		return nil, notConnected("connection closed")
	}
	t := time.NewTimer(b.cfg.Timeout)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		return nil, &broker.Error{Code: broker.CodeNetwork, Msg: what + ": TWS did not answer within " + b.cfg.Timeout.String()}
	case <-ctx.Done():
		return nil, &broker.Error{Code: broker.CodeNetwork, Msg: what, Err: ctx.Err()}
	}
	if p.err != nil {
		return p, p.err.typed(what)
	}
	return p, nil
}

func (b *Broker) withPending(id int64, f func(*pending)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := b.pending[id]; ok {
		f(p)
	}
}

// finish completes a request once (later messages for it are ignored).
func (b *Broker) finish(id int64, e *ibError) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pending[id]
	if !ok {
		return
	}
	delete(b.pending, id)
	p.err = e
	close(p.done)
}

// failPending ends every request in flight when the socket dies.
func (b *Broker) failPending(why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id, p := range b.pending {
		p.err = &ibError{Code: codeNotConnected, Msg: why}
		close(p.done)
		delete(b.pending, id)
	}
}
