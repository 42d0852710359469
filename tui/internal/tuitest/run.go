package tuitest

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// timerCmds are the commands that only wait for the wall clock: ticks,
// spinners, toast expiry and cursor blink. The harness never runs them,
// so no test outcome depends on how fast the machine is. A test that
// wants their message sends it explicitly.
func isTimer(name string) bool {
	switch name {
	case "charm.land/bubbletea/v2.Tick.func1",
		"charm.land/bubbletea/v2.Every.func1",
		"charm.land/bubbles/v2/cursor.(*Model).Blink.func1":
		return true
	}
	return false
}

// hangLimit only turns a command that neither finishes nor blocks on a
// channel into a clear failure instead of a hung test binary; it never
// decides what a passing test sees.
const hangLimit = 2 * time.Minute

// worker is one command running on its own goroutine.
type worker struct {
	name string
	gid  string
	done chan tea.Msg
}

// cmdName is the function behind cmd, as runtime stacks print it.
func cmdName(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return ""
}

// start runs cmd on a goroutine and learns that goroutine's id.
func start(cmd tea.Cmd, name string) *worker {
	w := &worker{name: name, done: make(chan tea.Msg, 1)}
	gid := make(chan string, 1)
	go func() {
		var buf [64]byte
		line := buf[:runtime.Stack(buf[:], false)]
		line = bytes.TrimPrefix(line, []byte("goroutine "))
		gid <- string(line[:bytes.IndexByte(line, ' ')])
		w.done <- cmd()
	}()
	w.gid = <-gid
	return w
}

// settle waits until w has either returned (ok) or is parked on a
// channel in the command's own body: a wait on its source (core events,
// a chat stream, a terminal's Changed) that only the test can feed, so it
// stays blocked until the test sends something. Parking anywhere else
// (a mutex, a helper's timer) is waited out. No deadline decides which.
func (w *worker) settle() (msg tea.Msg, ok bool, hung bool) {
	limit := time.Now().Add(hangLimit)
	for spin := 0; ; spin++ {
		select {
		case msg = <-w.done:
			return msg, true, false
		default:
		}
		if spin < 20 {
			runtime.Gosched()
			continue
		}
		if w.blockedOnSource() {
			select { // it may have returned between the two looks
			case msg = <-w.done:
				return msg, true, false
			default:
				return nil, false, false
			}
		}
		if time.Now().After(limit) {
			return nil, false, true
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// blockedOnSource reports whether w's goroutine is parked in a channel
// receive, send or select whose innermost frame is the command itself.
func (w *worker) blockedOnSource() bool {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte("goroutine " + w.gid + " [")
	i := bytes.Index(buf, head)
	if i < 0 {
		return false // not started yet, or already returned
	}
	rest := string(buf[i+len(head):])
	state, rest, _ := strings.Cut(rest, "]:\n")
	if !strings.HasPrefix(state, "chan receive") && !strings.HasPrefix(state, "chan send") &&
		!strings.HasPrefix(state, "select") {
		return false
	}
	frame, _, _ := strings.Cut(rest, "\n")
	if j := strings.LastIndexByte(frame, '('); j > 0 {
		frame = frame[:j]
	}
	return frame == w.name
}

// label names a worker in failures.
func (w *worker) label() string { return w.name + " (goroutine " + w.gid + ")" }
