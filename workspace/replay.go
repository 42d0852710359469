package workspace

import "sync"

// DefaultReplayBytes is the size of a session's replay ring (the reference
// keeps 512 KiB of raw pty output).
const DefaultReplayBytes = 512 << 10

// replayBuffer keeps the last N bytes of raw pty output so a session can be
// redrawn elsewhere (full-screen attach) or saved as scrollback on pause.
// Its storage grows with the output up to size, so a quiet session costs
// what it printed, not the whole ring.
type replayBuffer struct {
	mu    sync.Mutex
	buf   []byte
	size  int
	start int // index of the oldest byte when full
	full  bool
	total int64 // bytes ever written
}

func newReplayBuffer(size int) *replayBuffer {
	if size <= 0 {
		size = DefaultReplayBytes
	}
	return &replayBuffer{size: size}
}

// replayMinGrow is the smallest storage the buffer grows to.
const replayMinGrow = 4 << 10

func (r *replayBuffer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	r.total += int64(n)
	c := r.size
	if n >= c {
		r.buf = append(r.buf[:0], p[n-c:]...)
		r.start, r.full = 0, true
		return n, nil
	}
	if !r.full {
		if want := len(r.buf) + n; want > cap(r.buf) {
			grown := make([]byte, len(r.buf), min(c, max(want, 2*cap(r.buf), replayMinGrow)))
			copy(grown, r.buf)
			r.buf = grown
		}
		room := c - len(r.buf)
		if n <= room {
			r.buf = append(r.buf, p...)
			r.full = len(r.buf) == c
			return n, nil
		}
		r.buf = append(r.buf, p[:room]...)
		p = p[room:]
		r.full = true
	}
	for len(p) > 0 {
		k := copy(r.buf[r.start:], p)
		p = p[k:]
		r.start = (r.start + k) % c
	}
	return n, nil
}

// Bytes returns a copy of the buffered output, oldest first.
func (r *replayBuffer) Bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]byte, 0, len(r.buf))
	if !r.full {
		return append(out, r.buf...)
	}
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}

// Total is how many bytes were ever written (a sequence number).
func (r *replayBuffer) Total() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}
