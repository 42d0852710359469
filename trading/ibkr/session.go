package ibkr

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scmhub/ibapi"
)

// session is one socket to TWS: its client, and the handshake facts TWS
// pushes after startApi (nextValidId, managedAccounts). A session never
// comes back after it dies; the broker makes a new one.
type session struct {
	c     *ibapi.EClient
	relay *relay
	// calls holds a read lock while using c; markDead takes the write lock,
	// so no call is in flight once a session is dead and the library may
	// tear its client down.
	calls     sync.RWMutex
	libDone   chan struct{} // closed when the library reports the connection closed
	libOnce   sync.Once
	handshook atomic.Bool  // Connect returned: the library's goroutines run
	pingsSent atomic.Int64 // reqCurrentTime requests made (the relay counts them arrive)
	endOnce   sync.Once

	mu       sync.Mutex
	nextID   int64
	accounts []string
	ready    chan struct{} // closed once both handshake facts arrived
	readyOK  bool
	dead     chan struct{} // closed when the socket is gone
	deadOnce sync.Once
	pongs    []chan int64 // reqCurrentTime waiters
}

func newSession(b *Broker) *session {
	s := &session{ready: make(chan struct{}), dead: make(chan struct{}), libDone: make(chan struct{})}
	s.c = ibapi.NewEClient(&wrapper{b: b, s: s})
	return s
}

func (s *session) gotNextID(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id > s.nextID {
		s.nextID = id
	}
	s.checkReadyLocked()
}

func (s *session) gotAccounts(accts []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts = nil
	for _, a := range accts {
		for _, x := range strings.Split(a, ",") {
			if x = strings.TrimSpace(x); x != "" {
				s.accounts = append(s.accounts, x)
			}
		}
	}
	s.checkReadyLocked()
}

func (s *session) checkReadyLocked() {
	if !s.readyOK && s.nextID > 0 && len(s.accounts) > 0 {
		s.readyOK = true
		close(s.ready)
	}
}

func (s *session) markDead() {
	s.calls.Lock()
	s.deadOnce.Do(func() { close(s.dead) })
	s.calls.Unlock()
}

// do runs f with the client unless the session is dead.
func (s *session) do(f func(c *ibapi.EClient)) bool {
	s.calls.RLock()
	defer s.calls.RUnlock()
	if s.isDead() {
		return false
	}
	f(s.c)
	return true
}

// end kills the session. It is marked dead first (no call is in flight
// after that), then one last reqCurrentTime goes out and end waits until
// the relay saw it: the library's writer goroutine has then received every
// request made on the session, which orders them before the library's own
// teardown. Only then does the relay close and the library see EOF.
func (s *session) end() {
	s.endOnce.Do(func() {
		s.markDead()
		if s.relay == nil {
			return
		}
		select {
		case <-s.libDone:
		default:
			if s.handshook.Load() {
				n := s.pingsSent.Add(1)
				s.c.ReqCurrentTime()
				deadline := time.Now().Add(2 * time.Second)
				for s.relay.pings.Load() < n && time.Now().Before(deadline) {
					time.Sleep(2 * time.Millisecond)
				}
			}
		}
		s.relay.close()
	})
}

// wait gives the library's goroutines a moment to finish after end.
func (s *session) wait(d time.Duration) {
	if s.relay != nil {
		s.relay.wg.Wait()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.libDone:
	case <-t.C:
	}
}

func (s *session) libClosed() { s.libOnce.Do(func() { close(s.libDone) }) }

func (s *session) isDead() bool {
	select {
	case <-s.dead:
		return true
	default:
		return false
	}
}

func (s *session) pong(t int64) {
	s.mu.Lock()
	ws := s.pongs
	s.pongs = nil
	s.mu.Unlock()
	for _, w := range ws {
		w <- t
	}
}

// ping asks TWS for its clock; an answer proves the socket and TWS's
// message loop are alive.
func (s *session) ping(ctx context.Context, timeout time.Duration) (time.Time, error) {
	ch := make(chan int64, 1)
	s.mu.Lock()
	s.pongs = append(s.pongs, ch)
	s.mu.Unlock()
	if !s.do(func(c *ibapi.EClient) { s.pingsSent.Add(1); c.ReqCurrentTime() }) {
		return time.Time{}, notConnected("connection closed")
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case v := <-ch:
		return time.Unix(v, 0).UTC(), nil
	case <-s.dead:
		return time.Time{}, notConnected("connection closed")
	case <-t.C:
		return time.Time{}, notConnected(fmt.Sprintf("TWS did not answer reqCurrentTime within %s", timeout))
	case <-ctx.Done():
		return time.Time{}, ctx.Err()
	}
}
