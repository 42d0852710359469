package workspace

import (
	"strings"
	"sync"
	"time"
)

// observers fan raw pty output out to watchers (agent-status detection)
// before any coalescing.
type observers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func([]byte)
}

// Observe registers fn to receive every raw output batch the pty reader
// gets, in order, before the emulator sees it. fn runs on the reader
// goroutine: it must not block and must copy p if it keeps it. cancel
// unregisters it (safe to call more than once).
func (s *Session) Observe(fn func([]byte)) (cancel func()) {
	o := &s.obs
	o.mu.Lock()
	if o.fns == nil {
		o.fns = map[int]func([]byte){}
	}
	id := o.next
	o.next++
	o.fns[id] = fn
	o.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			o.mu.Lock()
			delete(o.fns, id)
			o.mu.Unlock()
		})
	}
}

func (s *Session) observe(p []byte) {
	o := &s.obs
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, fn := range o.fns {
		fn(p)
	}
}

// Title is the window title the child last set (OSC 0/2).
func (s *Session) Title() string { return s.term.Title() }

// ScreenText returns the last n lines of the visible screen as plain text,
// trailing blank rows dropped first (so the prompt is the last line).
func (s *Session) ScreenText(n int) []string {
	rows := strings.Split(s.term.String(), "\n")
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	if n >= 0 && len(rows) > n {
		rows = rows[len(rows)-n:]
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(r, " ")
	}
	return out
}

// Input types raw bytes into the session without attaching (the same
// ordered path as keys and pastes). Text typed before the process is up
// is delivered when it starts.
func (s *Session) Input(p []byte) error {
	if err := s.term.SendRaw(p); err != nil {
		return err
	}
	return nil
}

// Created is when the session was first started (its age in the UI).
func (s *Session) Created() time.Time { return s.created }
