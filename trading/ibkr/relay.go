package ibkr

import (
	"context"
	"io"
	"net"
	"sync"
)

// relay is a loopback hop between the ibapi client's socket and TWS.
//
// Why: ibapi's EClient tears a session down from its own goroutines (a
// watcher calls Disconnect when the reader stops) and its Disconnect
// resets fields those goroutines read, so calling Disconnect from outside
// races with the library itself. With the relay the adapter owns the TCP
// connection to TWS: it dials it (with the context's deadline, which the
// library's DialTCP lacks), and it ends a session by closing the relay, so
// the library only ever sees EOF and tears down once, on its own.
type relay struct {
	ln       net.Listener
	upstream net.Conn
	mu       sync.Mutex
	local    net.Conn
	once     sync.Once
	onEnd    func() // runs once, before the library's side is closed
	wg       sync.WaitGroup
}

// dialRelay connects to TWS and listens on a loopback port for the
// library to connect to.
func dialRelay(ctx context.Context, addr string, onEnd func()) (*relay, int, error) {
	var d net.Dialer
	up, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, 0, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		up.Close()
		return nil, 0, err
	}
	r := &relay{ln: ln, upstream: up, onEnd: onEnd}
	r.wg.Add(1)
	go r.run()
	return r, ln.Addr().(*net.TCPAddr).Port, nil
}

func (r *relay) run() {
	defer r.wg.Done()
	c, err := r.ln.Accept()
	r.ln.Close()
	if err != nil {
		r.close()
		return
	}
	r.mu.Lock()
	r.local = c
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		_, _ = io.Copy(r.upstream, c)
		r.close()
	}()
	_, _ = io.Copy(c, r.upstream)
	r.close()
}

// close ends both connections (idempotent); onEnd runs first so the
// session is marked dead before the library can notice.
func (r *relay) close() {
	r.once.Do(func() {
		if r.onEnd != nil {
			r.onEnd()
		}
		r.ln.Close()
		r.upstream.Close()
		r.mu.Lock()
		if r.local != nil {
			r.local.Close()
		}
		r.mu.Unlock()
	})
}
