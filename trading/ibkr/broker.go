package ibkr

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

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
