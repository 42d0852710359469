package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/cancelreader"
)

// DefaultDetachKeys are the byte forms of ctrl+q: the legacy control byte,
// the kitty/CSI-u form and the xterm modifyOtherKeys form.
var DefaultDetachKeys = [][]byte{{0x11}, []byte("\x1b[113;5u"), []byte("\x1b[27;5;113~")}

// leaveZoom ends a full-screen attachment. The session's program wrote
// to the real terminal directly and may have left any mode on (vim: cursor
// and keypad keys, modifyOtherKeys; a shell: bracketed paste; htop: mouse;
// claude and codex: kitty keyboard flags, a hidden cursor), so each is put
// back to the terminal's default before the TUI takes the terminal again
// (it sets its own modes on resume, and its last exit leaves defaults).
// The alternate screen is erased before it is left: tmux copies rows of an
// alternate screen that was resized while in use onto the main screen
// when it is left, so after a resize during a zoom the session's screen
// stayed in the shell that started alice.
const leaveZoom = "\x1b[m" + // attributes
	"\x1b[r\x1b[?6l\x1b[?7h\x1b[4l" + // scroll region, origin mode, autowrap, insert mode
	"\x1b[?1l\x1b>" + // cursor keys and keypad: normal
	"\x1b[?9l\x1b[?1000l\x1b[?1001l\x1b[?1002l\x1b[?1003l\x1b[?1004l\x1b[?1005l\x1b[?1006l\x1b[?1015l" + // mouse, focus
	"\x1b[?2004l" + // bracketed paste
	"\x1b[>4m\x1b[<99u" + // modifyOtherKeys; kitty flags (an emptied stack resets them)
	"\x1b[0 q\x1b[?25h" + // cursor shape, visible
	"\x1b(B" + // G0 charset
	"\x1b[2J\x1b[?1049l"

// fdFile is a terminal given as a file descriptor: an *os.File, or the
// attach server's pty, which hands out its descriptor read once.
type fdFile interface{ Fd() uintptr }

// Attachment hands the real terminal to a session for full-screen use
// ("zoom"). It satisfies bubbletea's ExecCommand structurally, so the TUI
// runs it with tea.Exec(sess.Attach(), func(err error) tea.Msg {…}) and this
// package needs no bubbletea import.
type Attachment struct {
	s *Session
	// DetachKeys end the attachment (default DefaultDetachKeys).
	DetachKeys [][]byte
	stdin      io.Reader
	stdout     io.Writer
	// leftover is what was read after the detach key, in the same read:
	// input meant for the TUI, which takes the terminal back (Leftover).
	leftover []byte
	// typed is input the TUI got after it started the zoom and before the
	// zoom took the terminal (QueueKey, QueuePaste): Run handles it first,
	// as if read from the terminal.
	typedMu sync.Mutex
	typed   []byte
}

// QueueKey hands the zoom a key the TUI read after it started the zoom and
// before the zoom took the terminal, encoded as the session's keyboard
// modes have it: Run takes it before anything it reads, a detach key
// included (a burst "z a b ctrl+q" used to leave a key or two to the
// workspace list and the zoom open).
func (a *Attachment) QueueKey(k KeyPress) {
	a.queue(a.s.term.EncodeKey(k))
}

// QueuePaste is QueueKey for a paste (bracketed when the session asked).
func (a *Attachment) QueuePaste(text string) {
	a.queue(a.s.term.EncodePaste(text))
}

func (a *Attachment) queue(b []byte) {
	a.typedMu.Lock()
	a.typed = append(a.typed, b...)
	a.typedMu.Unlock()
}

// Leftover is the input read after the detach key, in the same read as
// it (keys typed right after ctrl+q, or a paste); the TUI handles it as
// its own input. Valid after Run returned.
func (a *Attachment) Leftover() []byte { return a.leftover }

// Attach returns a full-screen attachment to the session.
func (s *Session) Attach() *Attachment {
	return &Attachment{s: s, DetachKeys: DefaultDetachKeys, stdin: os.Stdin, stdout: os.Stdout}
}

// SetStdin sets the terminal input (bubbletea passes its input).
func (a *Attachment) SetStdin(r io.Reader) { a.stdin = r }

// SetStdout sets the terminal output.
func (a *Attachment) SetStdout(w io.Writer) { a.stdout = w }

// SetStderr is required by ExecCommand; the session only uses stdout.
func (a *Attachment) SetStderr(io.Writer) {}

// Run proxies the terminal to the session until a detach key is pressed or
// the session's process ends, then restores the terminal and pane size.
func (a *Attachment) Run() error {
	s := a.s
	if st, _ := s.State(); st != StateRunning {
		return fmt.Errorf("session %s is %s", s.name, st)
	}
	if f, ok := a.stdin.(fdFile); ok && term.IsTerminal(f.Fd()) {
		old, err := term.MakeRaw(f.Fd())
		if err != nil {
			return fmt.Errorf("attach: raw mode: %w", err)
		}
		defer term.Restore(f.Fd(), old) //nolint:errcheck
	}
	// The session keeps the terminal's size when the zoom ends: the TUI
	// gives it the pane's size as it takes the terminal back (the size the
	// pane has then; restoring the size from before the zoom here sent
	// the program a stale size first when the window changed meanwhile).
	a.fitToTerminal()

	// Draw the current screen, then stream live output.
	fmt.Fprintf(a.stdout, "\x1b[?1049h%s%s", s.repaint(), s.term.zoomModes())
	defer fmt.Fprint(a.stdout, leaveZoom)
	s.setSink(&zoomWriter{s: s, out: a.stdout})
	defer s.setSink(nil)

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)

	cr, err := cancelreader.NewReader(a.stdin)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	defer cr.Close()
	detached := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		detached <- a.copyInput(cr)
	}()
	defer func() {
		// A non-file input cannot be cancelled; its reader ends on the next
		// read instead of being waited for.
		if cr.Cancel() {
			wg.Wait()
		}
	}()

	alive := time.NewTicker(200 * time.Millisecond)
	defer alive.Stop()
	for {
		select {
		case err := <-detached:
			return err
		case <-winch:
			if w, h, ok := a.terminalSize(); ok {
				a.resized(w, h)
			}
		case <-alive.C:
			if st, _ := s.State(); st != StateRunning {
				return nil
			}
		}
	}
}

// fitToTerminal gives the session the terminal's size.
func (a *Attachment) fitToTerminal() {
	if w, h, ok := a.terminalSize(); ok {
		a.s.Resize(w, h)
	}
}

// terminalSize is the size of the terminal the zoom writes to.
func (a *Attachment) terminalSize() (w, h int, ok bool) {
	if f, isFile := a.stdout.(fdFile); isFile && term.IsTerminal(f.Fd()) {
		if w, h, err := term.GetSize(f.Fd()); err == nil {
			return w, h, true
		}
	}
	return 0, 0, false
}

// resized follows the terminal to its new size during the zoom. The
// emulator reflows its screen at the new size; the terminal's alternate
// screen, where the zoom runs, does not: the screen is drawn again as the
// session has it, as tmux redraws a pane from its grid after a resize (a
// shell at its prompt kept the rows drawn at the old width until it
// printed again).
func (a *Attachment) resized(w, h int) {
	if a.s.resize(w, h) {
		_ = a.s.repaintSink(a.stdout, zoomRepaintWait)
	}
}

// copyInput forwards input to the pty until a detach key. A detach
// sequence split across reads is held back until it is complete. Inside a
// bracketed paste a detach key is text of the paste: pasting ctrl+q in a
// zoom detached mid-paste, left the program inside an unended paste and
// handed the rest to the UI as keys (a pasted "hello^Qqy" quit alice).
func (a *Attachment) copyInput(r io.Reader) error {
	buf := make([]byte, 4096)
	var pending []byte
	held := append(append([][]byte(nil), a.DetachKeys...), pasteStartMarker, pasteEndMarker)
	inPaste := false
	a.typedMu.Lock()
	typed := a.typed
	a.typed = nil
	a.typedMu.Unlock()
	for {
		var n int
		var err error
		if len(typed) > 0 {
			// What the TUI got before the zoom started comes first.
			n, typed = copy(buf, typed), typed[min(len(typed), len(buf)):]
		} else {
			n, err = r.Read(buf)
		}
		if n > 0 {
			pending = append(pending, buf[:n]...)
			if i, n, _ := findDetachOutsidePaste(pending, a.DetachKeys, inPaste); i >= 0 {
				if i > 0 {
					_, _ = a.s.Write(pending[:i])
				}
				a.leftover = append([]byte(nil), pending[i+n:]...)
				return nil
			}
			keep := partialDetachSuffix(pending, held)
			if fwd := pending[:len(pending)-keep]; len(fwd) > 0 {
				_, _, inPaste = findDetachOutsidePaste(fwd, nil, inPaste)
				if _, werr := a.s.Write(fwd); werr != nil {
					return werr
				}
			}
			pending = append([]byte(nil), pending[len(pending)-keep:]...)
		}
		if err != nil {
			if errors.Is(err, cancelreader.ErrCanceled) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// The markers of a bracketed paste.
var (
	pasteStartMarker = []byte("\x1b[200~")
	pasteEndMarker   = []byte("\x1b[201~")
)

// findDetachOutsidePaste is findDetach for input that may hold bracketed
// pastes, a detach key inside one being text: inPaste is whether p starts
// inside a paste, and after whether the paste is still open where the
// scan stopped (at the detach key, or the end of p).
func findDetachOutsidePaste(p []byte, keys [][]byte, inPaste bool) (idx, n int, after bool) {
	for i := 0; i < len(p); i++ {
		switch {
		case inPaste:
			if bytes.HasPrefix(p[i:], pasteEndMarker) {
				inPaste = false
				i += len(pasteEndMarker) - 1
			}
		case bytes.HasPrefix(p[i:], pasteStartMarker):
			inPaste = true
			i += len(pasteStartMarker) - 1
		default:
			for _, k := range keys {
				if bytes.HasPrefix(p[i:], k) {
					return i, len(k), inPaste
				}
			}
		}
	}
	return -1, 0, inPaste
}

// partialDetachSuffix is the length of the longest suffix of p that is a
// proper prefix of a detach key, at least minHeldPrefix long: a read
// ending in a lone ESC (the Escape key) or ESC [ (alt+[) is a key of its
// own, and holding it until the next read kept a zoomed vim in insert
// mode until the next key, which then arrived as alt+key. A terminal
// writes a key's sequence at once, so a detach key split at all is rare,
// and split after its first two bytes rarer still.
func partialDetachSuffix(p []byte, keys [][]byte) int {
	longest := minHeldPrefix - 1
	for _, k := range keys {
		for l := min(len(k)-1, len(p)); l > longest; l-- {
			if bytes.Equal(p[len(p)-l:], k[:l]) {
				longest = l
				break
			}
		}
	}
	if longest < minHeldPrefix {
		return 0
	}
	return longest
}

// minHeldPrefix is the shortest part of a detach key held back for the
// next read (partialDetachSuffix).
const minHeldPrefix = 3

// repaint is the bytes that draw the session's screen as the emulator has
// it (the alternate one when the program is on it): erase, the rows, the
// cursor's place and the pen the program writes with.
func (s *Session) repaint() string {
	screen := strings.ReplaceAll(s.Render(), "\n", "\r\n")
	x, y, _ := s.Cursor()
	return fmt.Sprintf("\x1b[m\x1b[2J\x1b[H%s\x1b[%d;%dH%s", screen, y+1, x+1, s.term.penSGR())
}

// repaintSink draws the session's screen on w once the emulator has taken
// in every byte written to the sink so far; under the sink's lock, so no
// output goes out between (the pump holds it from queueing a read to
// writing it to the sink).
func (s *Session) repaintSink(w io.Writer, d time.Duration) error {
	s.sinkMu.Lock()
	defer s.sinkMu.Unlock()
	s.waitFed(d)
	_, err := io.WriteString(w, s.repaint())
	return err
}

// zoomWriter carries a zoomed session's output to the real terminal,
// except its switches between the main and the alternate screen. The zoom
// already runs on the terminal's alternate screen; a program that left it
// (vim, less, htop quitting) drew the rest of the zoom over the screen of
// the shell that started alice, and the zoom's end then erased that. Each
// switch is dropped and the screen the program switched to is repainted
// from the emulator once it has taken in the output up to the switch.
// zoomRepaintWait bounds how long a screen switch in a zoom waits for the
// emulator to take in the output before the switch.
const zoomRepaintWait = 15 * time.Second

type zoomWriter struct {
	s    *Session
	out  io.Writer
	held []byte // an escape sequence split by the read, completed by the next
}

// Write is called by the session's pump (the bytes are queued for the
// emulator already).
func (z *zoomWriter) Write(p []byte) (int, error) {
	out, switched := z.filter(p)
	if len(out) > 0 {
		if _, err := z.out.Write(out); err != nil {
			return 0, err
		}
	}
	if switched {
		// The repaint must show this read's output: after a short bound a
		// loaded machine repainted the screen from before it, and what
		// followed the switch in the same read was lost from view. The
		// bound only guards a feeder stuck behind a child that reads no
		// input (its query replies fill the pty).
		z.s.waitFed(zoomRepaintWait)
		if _, err := io.WriteString(z.out, z.s.repaint()); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// altModes are the DEC private modes that switch screens.
var altModes = map[string]bool{"1049": true, "1047": true, "47": true}

// filter returns p without DEC mode sequences that switch screens (other
// modes in the same sequence are kept) and whether it dropped one. A
// sequence cut at the end of p is held for the next call.
func (z *zoomWriter) filter(p []byte) ([]byte, bool) {
	data := p
	if len(z.held) > 0 {
		data = append(z.held, p...)
		z.held = nil
	}
	var out []byte
	switched := false
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], 0x1b)
		if j < 0 {
			return append(out, data[i:]...), switched
		}
		start := i + j
		out = append(out, data[i:start]...)
		k := start + 1
		for k < len(data) && k < start+3 && data[k] == "\x1b[?"[k-start] {
			k++
		}
		if k < start+3 { // not CSI ?
			if k == len(data) { // cut short: maybe it is
				z.held = append([]byte(nil), data[start:]...)
				return out, switched
			}
			out = append(out, data[start:k]...)
			i = k
			continue
		}
		for k < len(data) && (data[k] == ';' || data[k] >= '0' && data[k] <= '9') {
			k++
		}
		if k == len(data) {
			if k-start < 64 {
				z.held = append([]byte(nil), data[start:]...)
				return out, switched
			}
			return append(out, data[start:]...), switched
		}
		if final := data[k]; final == 'h' || final == 'l' {
			var kept []string
			for _, m := range strings.Split(string(data[start+3:k]), ";") {
				if altModes[m] {
					switched = true
				} else {
					kept = append(kept, m)
				}
			}
			if len(kept) > 0 {
				out = append(out, "\x1b[?"+strings.Join(kept, ";")+string(final)...)
			}
		} else {
			out = append(out, data[start:k+1]...)
		}
		i = k + 1
	}
}
