package ibkr

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/scmhub/ibapi"

	"github.com/alice-trading/alice/trading/broker"
)

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
		// Orders that finished while we were away (alice restarted, socket
		// lost) are only reported here.
		c.ReqCompletedOrders(true)
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
