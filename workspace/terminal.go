package workspace

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// This file is the only one that touches charmbracelet/x/vt, so the
// emulator can be swapped without touching sessions or the TUI.

// KeyPress is a decoded key, the same struct bubbletea v2's
// tea.KeyPressMsg.Key() yields (uv.Key): the TUI converts with
// workspace.KeyPress(msg.Key()).
type KeyPress = uv.KeyPressEvent

// Terminal is an in-process VT emulator fed by a pty. It owns the reply
// goroutine that forwards the emulator's answers to terminal queries (and
// encoded keys) to the child: without it emulator writes block forever.
//
// x/vt's own Close races with Read, so the emulator is never closed;
// instead Close wakes the reply goroutine with a sentinel byte after the
// stopping flag is set.
type Terminal struct {
	mu            sync.Mutex
	emu           *vt.Emulator
	cursorVisible bool
	title         string
	closed        bool

	outMu sync.Mutex
	out   io.Writer // the current pty master; nil between processes
	// pending holds input typed while no process is attached (before the
	// first spawn, during a respawn), delivered when one attaches, so the
	// first keystrokes after "start session" are never lost.
	pending []byte

	changed   chan struct{}
	stopping  atomic.Bool
	replyDone chan struct{}
	log       *slog.Logger
}

// NewTerminal starts an emulator of cols×rows (clamped to at least 20×5).
func NewTerminal(cols, rows int, logger *slog.Logger) *Terminal {
	cols, rows = clampSize(cols, rows)
	t := &Terminal{
		emu:           vt.NewEmulator(cols, rows),
		cursorVisible: true,
		changed:       make(chan struct{}, 1),
		replyDone:     make(chan struct{}),
		log:           logger,
	}
	t.emu.SetScrollbackSize(5000)
	t.emu.SetCallbacks(vt.Callbacks{
		CursorVisibility: func(v bool) { t.cursorVisible = v }, // called under t.mu (inside Write)
		Title:            func(s string) { t.title = s },
	})
	go t.reply()
	return t
}

func clampSize(cols, rows int) (int, int) {
	return max(cols, 20), max(rows, 5)
}

// reply forwards everything the emulator produces (query replies, encoded
// keys, pastes) to the pty. It keeps draining even when the pty is gone so
// emulator writes never block.
func (t *Terminal) reply() {
	defer close(t.replyDone)
	buf := make([]byte, 4096)
	for {
		n, err := t.emu.Read(buf)
		if t.stopping.Load() || err != nil {
			return
		}
		t.outMu.Lock()
		w := t.out
		if w == nil && n > 0 && len(t.pending)+n <= maxPendingInput {
			t.pending = append(t.pending, buf[:n]...)
		}
		t.outMu.Unlock()
		if w != nil && n > 0 {
			_, _ = w.Write(buf[:n])
		}
	}
}

// SetOutput points the reply path at a new pty (nil detaches it).
func (t *Terminal) SetOutput(w io.Writer) {
	t.outMu.Lock()
	defer t.outMu.Unlock()
	t.out = w
	if w != nil && len(t.pending) > 0 {
		_, _ = w.Write(t.pending)
		t.pending = nil
	}
}

// maxPendingInput bounds input buffered while no process is attached.
const maxPendingInput = 64 << 10

// Feed writes child output into the emulator and nudges Changed. Upstream
// panics on some malformed input, so a panic is logged, not fatal.
func (t *Terminal) Feed(p []byte) {
	t.mu.Lock()
	if !t.closed {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.log.Warn("terminal emulator panicked on input", "panic", fmt.Sprint(r))
				}
			}()
			_, _ = t.emu.Write(p)
		}()
	}
	t.mu.Unlock()
	t.nudge()
}

func (t *Terminal) nudge() {
	select {
	case t.changed <- struct{}{}:
	default:
	}
}

// Changed is a coalesced notification (capacity 1) that the screen changed.
func (t *Terminal) Changed() <-chan struct{} { return t.changed }

// Render returns the screen as an ANSI-styled string.
func (t *Terminal) Render() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.Render()
}

// String returns the screen as plain text.
func (t *Terminal) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.String()
}

// Scrollback returns the lines that scrolled off the top, oldest first, as
// plain text.
func (t *Terminal) Scrollback() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	sb := t.emu.Scrollback()
	if sb == nil {
		return nil
	}
	lines := sb.Lines()
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, strings.TrimRight(l.String(), " "))
	}
	return out
}

// Cursor returns the cursor cell and whether the child shows it.
func (t *Terminal) Cursor() (x, y int, visible bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.emu.CursorPosition()
	return p.X, p.Y, t.cursorVisible
}

// Size returns the emulator size.
func (t *Terminal) Size() (cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.Width(), t.emu.Height()
}

// Title is the last window title the child set (OSC 0/2).
func (t *Terminal) Title() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.title
}

// IsAltScreen reports whether the child switched to the alternate screen.
func (t *Terminal) IsAltScreen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.IsAltScreen()
}

// Resize changes the emulator size; the caller resizes the pty to match.
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = clampSize(cols, rows)
	t.mu.Lock()
	if !t.closed && (cols != t.emu.Width() || rows != t.emu.Height()) {
		t.emu.Resize(cols, rows)
	}
	t.mu.Unlock()
	t.nudge()
}

// SendKey encodes a key the way the child expects (honouring application
// cursor mode) and sends it. Esc is forwarded like any other key.
func (t *Terminal) SendKey(k KeyPress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.emu.SendKey(k)
	}
}

// SendRaw queues raw input bytes for the child on the same ordered path as
// keys and pastes, so a Write after a SendKey can never overtake it.
func (t *Terminal) SendRaw(p []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return io.ErrClosedPipe
	}
	_, err := t.emu.InputPipe().Write(p)
	return err
}

// Paste sends text, bracketed if the child enabled bracketed paste.
func (t *Terminal) Paste(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.emu.Paste(s)
	}
}

// Close stops the reply goroutine. Feed and input calls become no-ops.
func (t *Terminal) Close() {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	t.closed = true
	t.stopping.Store(true)
	t.SetOutput(nil)
	// Wake the reply goroutine; it sees stopping and exits. Holding t.mu
	// keeps every other writer of the input pipe out.
	_, _ = t.emu.InputPipe().Write([]byte{0})
	t.mu.Unlock()
	<-t.replyDone
}
