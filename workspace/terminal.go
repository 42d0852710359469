package workspace

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
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
	// feedMu serialises Feed (the session's feeder and its status lines):
	// the scanner state and the coalescer see one ordered stream.
	feedMu  sync.Mutex
	scanner outScanner
	lfs     []int   // scratch for the coalescer
	row     uv.Line // scratch: one row of cells

	// mu guards the emulator and everything below it. Feed holds it for one
	// chunk at a time, so Render never waits behind a long write.
	mu            sync.Mutex
	emu           *vt.Emulator
	cursorVisible bool
	title         string
	closed        bool
	modes         map[ansi.Mode]bool // modes the child set (callbacks)
	altScreen     bool
	keys          keyModes // kitty keyboard flags, modifyOtherKeys (keymodes.go)
	ring          *scrollRing
	// gen counts changes to the screen; rendered caches Render for
	// renderedGen, so a TUI view between two changes costs nothing.
	gen         uint64
	rendered    string
	renderedGen uint64
	// rows is the rendering of each row of the screen that rows was
	// rendered from (main or alternate, rowsWidth wide): Render renders
	// again only the rows the emulator marked changed (renderrows.go).
	rows      []string
	rowsWidth int
	rowsAlt   bool
	// uiWaiting counts readers for the UI (Render, Cursor) waiting for mu;
	// the feeder hands the lock over between chunks instead of taking it
	// straight back (a mutex has no handoff: a redraw waited behind many
	// chunks of a continuous repaint). uiGot counts the UI's acquisitions;
	// handoff (capacity 1) wakes the feeder when it moves.
	uiWaiting   atomic.Int32
	uiGot       atomic.Uint64
	handoff     chan struct{}
	handoffWait time.Duration
	// subs are the channels of Subscribe, nudged with changed; subsMu
	// serialises their changes (nudge reads subs without it).
	subsMu sync.Mutex
	subs   atomic.Pointer[[]chan struct{}]

	// sendMu keeps writes to the pty whole and in order: input (keys,
	// pastes, raw bytes: send) and the emulator's query replies (reply).
	sendMu sync.Mutex
	outMu  sync.Mutex
	out    io.Writer // the current pty master; nil between processes
	// pending holds input typed while no process is attached (before the
	// first spawn, during a respawn), delivered when one attaches, so the
	// first keystrokes after "start session" are never lost.
	pending []byte

	stopping  atomic.Bool
	replyDone chan struct{}
	log       *slog.Logger
}

// NewTerminal starts an emulator of cols×rows (clamped to at least 20×5)
// with the default scrollback cap.
func NewTerminal(cols, rows int, logger *slog.Logger) *Terminal {
	return newTerminal(cols, rows, DefaultScrollbackLines, nil, logger)
}

// emuScrollback is the emulator's own scrollback size: it only has to hold
// the lines of one chunk until they are drained into the ring.
const emuScrollback = 1 << 15

// rawChunk bounds one emulator write, so the lock is released often.
const rawChunk = 16 << 10

func newTerminal(cols, rows, scrollback int, budget *ScrollBudget, logger *slog.Logger) *Terminal {
	cols, rows = clampSize(cols, rows)
	t := &Terminal{
		emu:           vt.NewEmulator(cols, rows),
		cursorVisible: true,
		// The emulator's defaults that are set (its callbacks report
		// changes only); zoomModes reads autowrap from here.
		modes:       map[ansi.Mode]bool{ansi.ModeAutoWrap: true, ansi.ModeTextCursorEnable: true},
		ring:        newScrollRing(scrollback, budget),
		handoff:     make(chan struct{}, 1),
		handoffWait: handoffWait,
		replyDone:   make(chan struct{}),
		log:         logger,
	}
	t.emu.SetScrollbackSize(emuScrollback)
	t.emu.Scrollback().SetSink(ringSink{t.ring})
	// The main screen is resized when the alternate screen ends (it kept
	// its size under it): its newest ring lines go back first, as for a
	// Resize on the main screen (reflow.go). Inside emu.Write, under t.mu.
	t.emu.OnMainResize(t.unscrollLocked)
	if budget != nil {
		budget.register(t)
	}
	// The callbacks run inside emu.Write, under t.mu.
	t.emu.SetCallbacks(vt.Callbacks{
		CursorVisibility: func(v bool) { t.cursorVisible = v },
		Title:            func(s string) { t.title = s },
		AltScreen:        func(on bool) { t.altScreen = on },
		EnableMode:       func(m ansi.Mode) { t.modes[m] = true },
		DisableMode:      func(m ansi.Mode) { delete(t.modes, m) },
	})
	t.observeKeyModes()
	go t.reply()
	return t
}

func clampSize(cols, rows int) (int, int) {
	return max(cols, 20), max(rows, 5)
}

// reply forwards what the emulator answers (query replies) to the pty. It
// keeps draining even when the pty is gone so emulator writes never block.
func (t *Terminal) reply() {
	defer close(t.replyDone)
	buf := make([]byte, 4096)
	for {
		n, err := t.emu.Read(buf)
		if t.stopping.Load() || err != nil {
			return
		}
		if n > 0 {
			_ = t.send(buf[:n])
		}
	}
}

// send writes input for the child to the pty, in the caller's goroutine,
// or keeps it (up to maxPendingInput) while no process is attached. Keys
// went through the emulator's input pipe and the reply goroutine before:
// one goroutine hand-off more on every keystroke's way to its echo (traced
// with 20 busy sessions: 6–8 µs at the median, 22–51 at p90).
func (t *Terminal) send(p []byte) error {
	t.sendMu.Lock()
	defer t.sendMu.Unlock()
	t.outMu.Lock()
	w := t.out
	if w == nil && len(t.pending)+len(p) <= maxPendingInput {
		t.pending = append(t.pending, p...)
	}
	t.outMu.Unlock()
	if w == nil {
		return nil
	}
	_, err := w.Write(p)
	return err
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

// Feed writes child output into the emulator and nudges Changed. Plain
// batches with many lines are coalesced (coalesce.go); everything else is
// written in chunks. Upstream panics on some malformed input, so a panic is
// logged, not fatal.
func (t *Terminal) Feed(p []byte) {
	if len(p) == 0 {
		return
	}
	t.feedMu.Lock()
	defer t.feedMu.Unlock()
	defer t.nudge()
	if b := t.ring.budget; b != nil {
		defer b.enforce() // after t.mu is released: it locks other terminals
	}
	// A batch that starts inside an escape sequence (split by the read)
	// feeds that sequence's rest raw first, so the remainder can still be
	// coalesced — with colour every few characters most batches would
	// otherwise start mid-sequence.
	if t.scanner.state != scanGround {
		i := 0
		for i < len(p) && t.scanner.state != scanGround {
			t.scanner.scan(p[i : i+1])
			i++
		}
		t.feedRaw(p[:i])
		p = p[i:]
	}
	if len(p) == 0 {
		return
	}
	if t.scanner.scan(p) && t.feedCoalesced(p) {
		return
	}
	t.feedRaw(p)
}

// feedRaw writes p in chunks, releasing the lock and nudging Changed
// between them: a watcher can draw the screen mid-batch, so a child that
// repaints continuously is shown at the display's pace rather than once
// per batch.
func (t *Terminal) feedRaw(p []byte) {
	for len(p) > 0 {
		n := min(len(p), rawChunk)
		t.mu.Lock()
		if !t.closed {
			t.writeLocked(p[:n])
		}
		p = p[n:]
		more := len(p) > 0
		if more {
			t.nudge()
		}
		uiWaits, got := t.uiWaiting.Load() > 0, t.uiGot.Load()
		t.mu.Unlock()
		if more && uiWaits {
			t.yieldToUI(got)
		}
	}
}

// handoffWait bounds how long the feeder waits for a UI reader it let go
// first (normally microseconds: the reader only has to be scheduled).
const handoffWait = 2 * time.Millisecond

// yieldToUI waits (with mu unlocked) until a UI reader that was waiting
// for mu when the feeder still held it has taken it, so the reader goes
// before the feeder's next chunk. got is uiGot read under that lock.
func (t *Terminal) yieldToUI(got uint64) {
	timer := time.NewTimer(t.handoffWait)
	defer timer.Stop()
	for t.uiGot.Load() == got {
		select {
		case <-t.handoff: // possibly stale: check again
		case <-timer.C:
			return
		}
	}
}

// lockUI takes mu for a UI read, ahead of the feeder's next chunk.
func (t *Terminal) lockUI() {
	t.uiWaiting.Add(1)
	t.mu.Lock()
	t.uiWaiting.Add(-1)
	t.uiGot.Add(1)
	select {
	case t.handoff <- struct{}{}:
	default:
	}
}

// writeLocked writes to the emulator and moves what scrolled off into the
// ring.
func (t *Terminal) writeLocked(p []byte) {
	defer func() {
		if r := recover(); r != nil {
			t.log.Warn("terminal emulator panicked on input", "panic", fmt.Sprint(r))
		}
	}()
	t.gen++
	// ED 3 erases the saved lines, as in tmux (what `clear` sends): the
	// ring is the scrollback, so it is emptied at that byte. (A sequence
	// split between two writes is missed.)
	for {
		i := bytes.Index(p, []byte(ed3))
		if i < 0 {
			break
		}
		_, _ = t.emu.Write(p[:i+len(ed3)])
		t.drainLocked()
		t.ring.clear()
		p = p[i+len(ed3):]
	}
	_, _ = t.emu.Write(p)
	t.drainLocked()
}

// ed3 is ED 3, erase saved lines.
const ed3 = "\x1b[3J"

func (t *Terminal) drainLocked() {
	// The emulator cleared or moved its top row while the line above it
	// was already here (tmux unwraps the newest history line then).
	if t.emu.TakeHistoryUnwrapped() {
		t.ring.unwrapNewest()
	}
	sb := t.emu.Scrollback()
	if sb != nil && sb.Len() > 0 {
		for i, l := range sb.Lines() {
			t.ring.pushRow(l, sb.Wrapped(i), sb.Used(i))
		}
		sb.Clear()
	}
	// Between pushes: the styles of lines that left the ring are freed
	// (after the lines an unscroll popped were stored again, which keeps
	// theirs).
	t.ring.reclaimStyles()
	if sb != nil {
		sb.SetSink(ringSink{t.ring}) // back on after an unscroll
	}
}

// ringSink takes the lines the emulator scrolls off straight into the
// ring (vt.HistorySink), where its scrollback would copy every cell of
// each until the drain. unscrollLocked turns it off: from there to the
// next drain the emulator's scrollback holds ring lines for a reflow and
// whatever scrolls off after them, and the drain stores them in order.
type ringSink struct{ r *scrollRing }

func (k ringSink) PushUsed(line uv.Line, wrapped bool, used int) {
	k.r.pushRow(line, wrapped, used)
	k.r.reclaimStyles()
}

func (k ringSink) UnwrapNewest() { k.r.unwrapNewest() }

// screenRow copies row y of the screen into the scratch row.
func (t *Terminal) screenRow(y, w int) uv.Line {
	row := t.row[:w]
	for x := range row {
		if c := t.emu.CellAt(x, y); c != nil {
			row[x] = *c
		} else {
			row[x] = uv.EmptyCell
		}
	}
	return row
}

// coalescible reports whether the emulator is in a state where skipping
// lines is exact: main screen, no scroll region, no origin, insert or
// newline mode.
func (t *Terminal) coalescibleLocked() bool {
	return !t.altScreen && !t.emu.IsAltScreen() && !t.scanner.scrollRegion &&
		!t.modes[ansi.ModeOrigin] && !t.modes[ansi.ModeInsertReplace] && !t.modes[ansi.ModeLineFeedNewLine]
}

// feedCoalesced applies the head/skip/tail plan; false means nothing was
// written and the caller feeds the batch raw.
func (t *Terminal) feedCoalesced(p []byte) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || !t.coalescibleLocked() {
		return false
	}
	h, w := t.emu.Height(), t.emu.Width()
	plan, ok := planCoalesce(p, h, t.emu.CursorPosition().Y, t.lfs)
	if !ok {
		return false
	}
	t.lfs = plan.middleLFs
	// Check the skipped lines first: if one cannot be laid out exactly,
	// nothing has been written yet and the batch goes raw.
	lfs := plan.middleLFs
	first := max(0, len(lfs)-t.ring.max) // only these can survive in the ring
	start := 0
	if first > 0 {
		start = lfs[first-1] + 1
	}
	width := t.emu.WidthMethod().StringWidth
	if cap(t.row) < w {
		t.row = make(uv.Line, w)
	}
	probe := t.emu.CursorPen()
	for i, s := 0, start; i < len(lfs[first:]); i++ {
		lf := lfs[first+i]
		if !renderLine(plan.middle[s:lf-1], w, width, &probe, t.row, nil) {
			return false
		}
		s = lf + 1
	}
	t.writeLocked(plan.head)
	pushed := t.ring.total
	// The screen's first h-1 rows scroll out before the middle lines.
	for y := 0; y < h-1; y++ {
		t.ring.pushRow(t.screenRow(y, w)[:t.emu.WrappedCells(y)], t.emu.LineWrapped(y), t.emu.LineCells(y))
	}
	t.ring.total += int64(first)
	// The pen the first kept line starts with: the head's, then the SGR
	// sequences of the lines that were dropped.
	pen := t.emu.CursorPen()
	applySGR(sgrState(plan.middle[:start]), &pen)
	for _, lf := range lfs[first:] {
		renderLine(plan.middle[start:lf-1], w, width, &pen, t.row, t.ring)
		start = lf + 1
	}
	// They scrolled, as far as the emulator's count of the lines a taller
	// screen pulls back is concerned.
	t.emu.NoteScrolled(int(t.ring.total - pushed))
	// Erase the screen without ED 0 from home, which (as tmux's
	// scroll-on-clear) would push the rows into the scrollback again.
	setup := append([]byte("\x1b[H\x1b[2K\x1b[2;1H\x1b[J\x1b[H"), sgrState(plan.middle)...)
	t.drainLocked()
	// The erase of the top row is the coalescer's, not the child's: the
	// newest line keeps its wrap flag (the sink is off so that the
	// emulator flags it instead, and the flag is dropped).
	t.emu.Scrollback().SetSink(nil)
	_, _ = t.emu.Write(setup)
	t.emu.TakeHistoryUnwrapped()
	t.drainLocked()
	t.writeLocked(plan.tail)
	return true
}

func (t *Terminal) nudge() {
	if subs := t.subs.Load(); subs != nil {
		for _, ch := range *subs {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
}

// Subscribe returns a coalesced notification (capacity 1) that the screen
// changed, for one reader: every change nudges every subscriber (the panes
// of several attached clients showing one session each hear it). cancel
// ends the subscription with a last nudge, so a reader still waiting on
// the channel returns.
func (t *Terminal) Subscribe() (changes <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	t.subsMu.Lock()
	defer t.subsMu.Unlock()
	var next []chan struct{}
	if old := t.subs.Load(); old != nil {
		next = append(next, *old...)
	}
	next = append(next, ch)
	t.subs.Store(&next)
	return ch, func() {
		t.subsMu.Lock()
		defer t.subsMu.Unlock()
		old := t.subs.Load()
		if old == nil {
			return
		}
		next := slices.DeleteFunc(slices.Clone(*old), func(c chan struct{}) bool { return c == ch })
		t.subs.Store(&next)
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Render returns the screen as an ANSI-styled string. It is rendered at
// most once per change, and then only its changed rows.
func (t *Terminal) Render() string {
	t.lockUI()
	defer t.mu.Unlock()
	if t.renderedGen != t.gen || t.rendered == "" {
		t.rendered, t.renderedGen = t.renderRowsLocked(), t.gen
	}
	return t.rendered
}

// String returns the screen as plain text.
func (t *Terminal) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.String()
}

// tailText returns the bottom n non-blank rows of the screen as plain
// text, top to bottom, trailing spaces trimmed, and the screen's
// generation; changed is false (and nothing is read) when the generation
// is still since. Only the rows it returns are turned into text.
func (t *Terminal) tailText(n int, since uint64) (lines []string, gen uint64, changed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == since {
		return nil, t.gen, false
	}
	w := t.emu.Width()
	var b strings.Builder
	for y := t.emu.Height() - 1; y >= 0 && len(lines) < n; y-- {
		b.Reset()
		pending := 0 // blank cells not yet written: dropped at the end of the row
		for x := 0; x < w; x++ {
			c := t.emu.CellAt(x, y)
			switch {
			case c == nil || c.IsZero(): // the tail of a wide character
			case c.Equal(&uv.EmptyCell):
				pending++
			default:
				for ; pending > 0; pending-- {
					b.WriteByte(' ')
				}
				b.WriteString(c.String())
			}
		}
		if l := strings.TrimRight(b.String(), " "); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	slices.Reverse(lines)
	return lines, t.gen, true
}

// Scrollback returns the lines that scrolled off the top, oldest first, as
// plain text (at most the configured cap).
func (t *Terminal) Scrollback() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ring.snapshot()
}

// penSGR is the SGR sequence of the style the child writes with now.
func (t *Terminal) penSGR() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	pen := t.emu.CursorPen()
	return pen.String()
}

// ScrollbackStyled returns the same lines as Scrollback with their
// attributes (colours, bold, …) as SGR sequences.
func (t *Terminal) ScrollbackStyled() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ring.styled()
}

// oldestScrollSeq is the budget order of the oldest scrollback line.
func (t *Terminal) oldestScrollSeq() (uint64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ring.oldestSeq()
}

// trimScrollback drops a batch of the oldest scrollback lines pushed
// before seq before (0: any), until want bytes are freed.
func (t *Terminal) trimScrollback(before uint64, want int64) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ring.trimOldest(trimBatch, before, want)
}

// Mode reports whether the child set a terminal mode (e.g.
// ansi.ModeBracketedPaste, ansi.ModeMouseNormal).
func (t *Terminal) Mode(m ansi.Mode) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.modes[m]
}

// MouseReporting reports whether the child asked for mouse events.
func (t *Terminal) MouseReporting() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range []ansi.Mode{ansi.ModeMouseX10, ansi.ModeMouseNormal, ansi.ModeMouseHighlight, ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent} {
		if t.modes[m] {
			return true
		}
	}
	return false
}

// SendMouse forwards a mouse event (cell coordinates within the screen)
// encoded the way the child asked for; nothing is sent when it did not.
func (t *Terminal) SendMouse(m vt.Mouse) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.emu.SendMouse(m)
	}
}

// Cursor returns the cursor cell and whether the child shows it.
func (t *Terminal) Cursor() (x, y int, visible bool) {
	t.lockUI()
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
		switch {
		case t.emu.IsAltScreen():
			// The main screen keeps its size until the alternate
			// screen ends (OnMainResize).
		case cols != t.emu.Width():
			t.unscrollLocked(rows) // reflowed with the screen (reflow.go)
		case rows > t.emu.Height():
			t.unscrollLocked(rows - t.emu.Height()) // a taller screen pulls them back
		}
		t.emu.Resize(cols, rows)
		t.drainLocked() // rows a height shrink scrolled away
		t.gen++
	}
	t.mu.Unlock()
	t.nudge()
}

// SendKey encodes a key as xterm would (EncodeKey, honouring application
// cursor mode) and sends it. Esc is forwarded like any other key.
//
// The key is written after t.mu is released: the feeder, which needs
// t.mu to draw the echo, must not wait behind the write (traced: 37 µs).
// send keeps concurrent writes whole and in order.
func (t *Terminal) SendKey(k KeyPress) {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return
	}
	b := t.encodeKeyLocked(k)
	t.mu.Unlock()
	if len(b) > 0 {
		_ = t.send(b)
	}
}

// SendText sends text typed on the keyboard as it was typed: the bytes a
// terminal sends for printable characters and for Enter, Tab and
// Backspace (no other control, no escape sequence), which SendKey would
// encode back to the same bytes in every keyboard mode
// (TestTypedTextIsSentAsTyped). The TUI's input
// reader hands such reads over without decoding them into keys. It
// reports false when the session is closed.
func (t *Terminal) SendText(b []byte) bool {
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	return !closed && t.send(b) == nil
}

// EncodeKey is what SendKey would send for k now.
func (t *Terminal) EncodeKey(k KeyPress) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.encodeKeyLocked(k)
}

// encodeKeyLocked is EncodeKey with t.mu held.
func (t *Terminal) encodeKeyLocked(k KeyPress) []byte {
	return encodeKeyIn(k, t.keys.flags(t.emu.IsAltScreen()), t.keys.modifyOther, t.modes[ansi.ModeCursorKeys])
}

// EncodePaste is what Paste would send for text now.
func (t *Terminal) EncodePaste(text string) []byte {
	t.mu.Lock()
	bracketed := t.emu.IsModeSet(ansi.ModeBracketedPaste)
	t.mu.Unlock()
	if bracketed {
		return []byte(ansi.BracketedPasteStart + text + ansi.BracketedPasteEnd)
	}
	return []byte(text)
}

// encodeKeyIn is what SendKey sends for k in the given keyboard modes.
func encodeKeyIn(k KeyPress, kittyFlags, modifyOther int, appCursor bool) []byte {
	if b, ok := encodeExtended(k, kittyFlags, modifyOther); ok {
		return b
	}
	return EncodeKey(k, appCursor)
}

// SendRaw sends raw input bytes for the child on the same ordered path as
// keys and pastes, so a Write after a SendKey can never overtake it.
func (t *Terminal) SendRaw(p []byte) error {
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if closed {
		return io.ErrClosedPipe
	}
	return t.send(p)
}

// Paste sends text, bracketed if the child enabled bracketed paste.
func (t *Terminal) Paste(s string) {
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if !closed {
		_ = t.send(t.EncodePaste(s))
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
	// End the reply goroutine by closing the pipe it reads: its Read
	// returns EOF whether it is waiting or still busy with an earlier
	// reply. (Writing a wake-up byte instead blocked forever when the
	// goroutine saw stopping after an earlier reply and never read it.)
	// A writer that took the pipe before closed was set gets the error.
	if pw, ok := t.emu.InputPipe().(*io.PipeWriter); ok {
		_ = pw.CloseWithError(io.EOF)
	} else {
		_, _ = t.emu.InputPipe().Write([]byte{0})
	}
	t.ring.clear() // gives its bytes back to the budget
	t.mu.Unlock()
	if t.ring.budget != nil {
		t.ring.budget.unregister(t)
	}
	<-t.replyDone
}
