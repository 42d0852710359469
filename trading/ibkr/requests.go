package ibkr

import (
	"context"
	"time"

	"github.com/scmhub/ibapi"
	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/trading/broker"
)

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
