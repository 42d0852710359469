package ibkr

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// relay is a loopback hop between the ibapi client's socket and TWS.
//
// Why: ibapi's EClient tears a session down from its own goroutines (a
// watcher calls Disconnect when its reader hits EOF) and that Disconnect
// rewrites fields every API call reads, so a call racing the teardown is a
// data race inside the library. With the relay the adapter owns the
// connection to TWS: it dials it (with the context's deadline, which the
// library's DialTCP lacks), it decides when the library sees EOF, and it
// counts the reqCurrentTime frames the library wrote, so a session is only
// cut once the library's writer has taken every request the adapter made
// (see session.end).
//
// The relay's loopback port accepts one connection and closes; it offers a
// local process nothing TWS's own API port (which trusts 127.0.0.1) does
// not already offer it.
type relay struct {
	ln       net.Listener
	upstream net.Conn
	mu       sync.Mutex
	local    net.Conn
	once     sync.Once
	onEnd    func() // TWS closed: run in its own goroutine
	pings    atomic.Int64
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
		r.pump(c)
	}()
	_, _ = io.Copy(c, r.upstream)
	// TWS is gone (or we closed it): let the session end itself; the local
	// side stays open until then so the library sees EOF only after it.
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.onEnd()
	}()
}

// pump copies the library's frames to TWS, counting reqCurrentTime
// frames; it keeps reading after TWS died so the library's writer never
// blocks while the session drains.
func (r *relay) pump(local net.Conn) {
	br := bufio.NewReader(local)
	head := make([]byte, 4) // "API\0"
	if _, err := io.ReadFull(br, head); err != nil {
		return
	}
	upOK := r.write(head, true)
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(hdr[:])
		if n > 1<<24 {
			return
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(br, payload); err != nil {
			return
		}
		upOK = r.write(append(hdr[:], payload...), upOK)
		if isTimeRequest(payload) {
			r.pings.Add(1)
		}
	}
}

func (r *relay) write(b []byte, ok bool) bool {
	if !ok {
		return false
	}
	_, err := r.upstream.Write(b)
	return err == nil
}

// isTimeRequest recognises reqCurrentTime (id 49) in every framing: raw
// id, raw protobuf id (+200) or a NUL-terminated text id.
func isTimeRequest(p []byte) bool {
	if len(p) >= 4 {
		if id := binary.BigEndian.Uint32(p[:4]); id == 49 || id == 249 {
			return true
		}
	}
	return len(p) >= 3 && string(p[:3]) == "49\x00"
}

// close ends both connections (idempotent).
func (r *relay) close() {
	r.once.Do(func() {
		r.ln.Close()
		r.upstream.Close()
		r.mu.Lock()
		if r.local != nil {
			r.local.Close()
		}
		r.mu.Unlock()
	})
}
