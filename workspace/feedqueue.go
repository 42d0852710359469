package workspace

import (
	"sync"
	"time"
)

// maxQueued bounds the output waiting for the emulator; past it the pty
// reader pauses (the child then blocks on its write, as with any terminal).
const maxQueued = 8 << 20

// Batching: output at least burstBytes large waits up to lingerTries ms
// for batchBytes to gather.
const (
	burstBytes  = 2 << 10
	batchBytes  = 256 << 10
	lingerTries = 4
)

// feedQueue hands pty output from the reader to the feeder. put copies and
// returns at once unless maxQueued bytes wait; take returns everything
// queued as one batch, blocking until there is some or the queue closed.
// A batch is being fed (busy) from take until release; the reader may
// feed a small read itself (tryDirect … release) when nothing is queued
// or being fed, so the order of the output is kept either way.
type feedQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	spare  []byte
	busy   bool
	closed bool
}

// tryDirect reports whether the caller may feed the emulator itself:
// nothing is queued or being fed. It then holds the feed until release.
func (q *feedQueue) tryDirect() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.buf) > 0 || q.busy || q.closed {
		return false
	}
	q.busy = true
	return true
}

// release ends a feed started by take or tryDirect.
// Only the feeder waits for a feed to end, and only when there is
// something queued: a direct feed with nothing queued wakes nobody (an
// echo's feed used to wake the idle feeder for nothing, one goroutine and
// often one thread wake-up on the echo's path).
func (q *feedQueue) release() {
	q.mu.Lock()
	q.busy = false
	waiting := len(q.buf) > 0
	q.mu.Unlock()
	if waiting {
		q.cond.Broadcast()
	}
}

func newFeedQueue() *feedQueue {
	q := &feedQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *feedQueue) put(p []byte) {
	q.mu.Lock()
	for len(q.buf) >= maxQueued && !q.closed {
		q.cond.Wait()
	}
	q.buf = append(q.buf, p...)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// take returns the queued bytes (valid until the next take; call release
// after feeding them) and false once the queue is closed and empty.
func (q *feedQueue) take() ([]byte, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for (len(q.buf) == 0 || q.busy) && !q.closed {
		q.cond.Wait()
	}
	// A burst (more than a small echo waiting) lingers a few milliseconds
	// so batches are big enough to coalesce; interactive echo is not
	// delayed.
	for tries := 0; tries < lingerTries && len(q.buf) >= burstBytes && len(q.buf) < batchBytes && !q.closed; tries++ {
		q.mu.Unlock()
		time.Sleep(time.Millisecond)
		q.mu.Lock()
	}
	batch := q.buf
	q.busy = len(batch) > 0
	// A big burst's buffer is not kept for an idle session.
	if cap(q.spare) > batchBytes {
		q.spare = nil
	}
	q.buf, q.spare = q.spare[:0], batch
	q.cond.Broadcast()
	return batch, !(q.closed && len(batch) == 0)
}

func (q *feedQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}
