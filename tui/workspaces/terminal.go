package workspaces

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
	uv "github.com/charmbracelet/ultraviolet"
)

// termFrame is the shortest time between two redraws of the attached
// session: the first change after a quiet spell is shown at once (a
// keystroke's echo), a burst is shown at most this often, always ending
// with its last state. It matches the renderer's cap (tea.WithFPS(480)).
const termFrame = time.Second / 480

// TermChangedMsg is the coalesced "the screen changed" nudge for the
// session shown in the workspaces pane. gen identifies which attachment
// armed it, so a nudge for a session that is no longer shown is dropped.
type TermChangedMsg struct {
	ID  string
	Gen int
}

// termSize is the pane's inner size for the emulator (one line is the
// title), clamped so tiny windows never produce a zero-sized pty.
func (p *Pane) termSize() (int, int) { return max(20, p.w), max(5, p.h-1) }

// ResizeTerm resizes the shown session to the pane, in a Cmd because it
// touches the pty. Unchanged sizes are skipped.
func (p *Pane) ResizeTerm() tea.Cmd {
	t := p.term
	if t == nil || p.w == 0 || p.zoomed {
		return p.resizeAll()
	}
	cols, rows := p.termSize()
	if cols == p.termCols && rows == p.termRows {
		return p.resizeAll()
	}
	p.termCols, p.termRows = cols, rows
	return tea.Batch(func() tea.Msg { t.Resize(cols, rows); return nil }, p.resizeAll())
}

// Cursor is the terminal cursor in pane coordinates when attached.
func (p *Pane) Cursor() (int, int, bool) {
	if !p.Attached() {
		return 0, 0, false
	}
	if p.frameGen != p.TermGen {
		p.followCursor()
	}
	x, y, vis := p.frame.X, p.frame.Y, p.frame.CursorVisible
	x, y = x-p.viewX, y-p.viewY // the part of a larger screen shown (termWindow)
	if x < 0 || y < 0 || x >= p.w || y >= p.h-1 {
		return 0, 0, false
	}
	return x, y + 1, vis
}

// attach shows t in the pane and forwards keys to it until detach.
func (p *Pane) attach(t Terminal) tea.Cmd {
	if p.term == nil || p.term.ID() != t.ID() {
		p.term, p.TermGen, p.Waiting = t, p.TermGen+1, false
		p.termCols, p.termRows = 0, 0
		p.viewX, p.viewY = 0, 0
	}
	p.followCursor()
	p.Mode = wsAttached
	// A detach just before (ctrl+q Enter typed at once) is over.
	withdraw := func() tea.Msg { return kit.WithdrawMsg(detachedText) }
	return tea.Batch(p.ResizeTerm(), p.Watch(), p.acknowledge(t), withdraw)
}

// detachedText is the toast a detach shows.
const detachedText = "detached; the session keeps running (enter re-attaches)"

// detachedMsg asks for the detach toast, unless the pane attached again
// before it came.
type detachedMsg struct{}

// detach leaves passthrough mode; the session keeps running and stays
// watched so re-attaching shows a fresh screen.
func (p *Pane) detach() tea.Cmd {
	p.Mode = WsList
	return tea.Batch(p.unwatch(), func() tea.Msg { return detachedMsg{} })
}

// Watch arms the single in-flight wait for the shown session's next
// change. The nudge is sent as soon as the screen changes, unless the
// previous one went out less than termFrame ago: then it waits out the
// rest of the frame, so a burst costs one redraw per frame and its final
// state is always drawn. A key typed into the session ends that wait at
// once, so its echo is never held back by the cap (one early redraw per
// keystroke at most). Nothing waits while nothing changes. It ends with
// the model's context, so no goroutine outlives the program.
func (p *Pane) Watch() tea.Cmd {
	t := p.term
	if t == nil || p.Waiting {
		return nil
	}
	p.Waiting = true
	ctx, gen, id, last, typed, pt := p.m.AppContext(), p.TermGen, t.ID(), p.lastNudge, p.typed, &p.patching
	changes := p.changes(t)
	return func() tea.Msg {
		changed := TermChangedMsg{ID: id, Gen: gen}
		select {
		case <-ctx.Done():
			return nil
		case <-changes:
		}
		// Each change is patched here as it comes: the first after a
		// quiet spell or after a key (an echo), and the echoes that
		// follow it; the model's frame for them would write nothing. A
		// change sooner than a frame after the last one, with no key
		// typed since, is a burst: the model draws its latest state.
		// The model catches up once the session has been quiet for
		// patchLinger (drawing it right after each echo took the CPU the
		// terminal needs to show that echo).
		for {
			if d := termFrame - time.Since(last); d > 0 {
				switch sleepCtx(ctx, d, typed) {
				case wakeEnded:
					return nil
				case wakeTimer:
					return changed
				}
			}
			if !pt.patchNow(t, gen) {
				return changed
			}
			last = time.Now()
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(patchLinger):
				return changed
			case <-changes:
			}
		}
	}
}

// patchLinger is how long the Watch goroutine goes on patching a shown
// session's echoes after one before the model draws the screen again.
const patchLinger = 50 * time.Millisecond

// wake is why sleepCtx returned.
type wake int

const (
	wakeTimer wake = iota // d passed
	wakeCut               // cut was signalled
	wakeEnded             // ctx ended
)

// changes is the pane's own subscription to t's changes, taken when t
// is first watched and given up when another session is (Unsubscribe) or
// the program ends (its context): a session shown by several clients
// nudges each of them.
func (p *Pane) changes(t Terminal) <-chan struct{} {
	if p.sub.id != t.ID() || p.sub.ch == nil {
		p.Unsubscribe()
		ch, cancel := t.Subscribe()
		stop := context.AfterFunc(p.m.AppContext(), cancel)
		p.sub.id, p.sub.ch = t.ID(), ch
		p.sub.cancel = func() {
			if stop() {
				cancel()
			}
		}
	}
	return p.sub.ch
}

// Unsubscribe ends the pane's subscription to its session's changes.
// Event loop only (the program's end unsubscribes by itself).
func (p *Pane) Unsubscribe() {
	if p.sub.cancel != nil {
		p.sub.cancel()
	}
	p.sub.id, p.sub.ch, p.sub.cancel = "", nil, nil
}

// sleepCtx waits d, or less if cut is signalled, unless ctx ends first.
// (A helper of its own, so test harnesses can tell this bounded wait from
// Watch blocking on its source.)
func sleepCtx(ctx context.Context, d time.Duration, cut <-chan struct{}) wake {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return wakeEnded
	case <-timer.C:
		return wakeTimer
	case <-cut:
		return wakeCut
	}
}

// kick tells an armed Watch that input went to the session.
func (p *Pane) kick() { signalTyped(p.typed) }

// signalTyped signals typed (capacity 1) without waiting.
func signalTyped(typed chan<- struct{}) {
	select {
	case typed <- struct{}{}:
	default:
	}
}

// onTermChanged re-arms the watch; the redraw itself happens in View.
func (p *Pane) onTermChanged(msg TermChangedMsg) tea.Cmd {
	if p.term == nil || msg.Gen != p.TermGen {
		return nil
	}
	p.Waiting = false
	p.lastNudge = time.Now()
	p.followCursor()
	return p.Watch()
}

// onTermList attaches to (or zooms into) the newest live session.
func (p *Pane) onTermList(msg termListMsg) tea.Cmd {
	if len(msg.terms) == 0 {
		p.endOpening(nil)
		return kit.ErrCmd(fmt.Errorf("no running session in %s: start one with s (shell), c (claude) or x (codex)", msg.ws.Tag))
	}
	t := msg.terms[len(msg.terms)-1]
	var ex tea.ExecCommand
	if msg.zoom {
		ex = t.Attach()
	}
	if ex == nil {
		cmd := p.attach(t)
		if p.endOpening(t) {
			return tea.Batch(cmd, p.detach())
		}
		return cmd
	}
	// What was typed since z goes in before the zoom starts; a detach key
	// among it means no zoom after all.
	if p.endOpening(t) {
		return nil
	}
	if p.term == nil || p.term.ID() != t.ID() {
		p.term, p.TermGen, p.Waiting = t, p.TermGen+1, false
	}
	p.zoomed = true
	p.zoomQ, _ = ex.(zoomQueue)
	return tea.Exec(ex, func(err error) tea.Msg {
		done := zoomDoneMsg{err: err}
		if l, ok := ex.(interface{ Leftover() []byte }); ok {
			done.input = l.Leftover()
		}
		return done
	})
}

// zoomQueue is a zoom that takes input the UI got after it started the
// zoom and before the zoom took the terminal (workspace.Attachment).
type zoomQueue interface {
	QueueKey(uv.KeyPressEvent)
	QueuePaste(string)
}

// Zooming reports whether a zoom was started and has not ended: input
// the UI still gets then was typed for the zoomed session (queueZoom).
func (p *Pane) Zooming() bool { return p.zoomQ != nil }

// queueZoom hands msg to the zoom being started, if it is input; reports
// whether it did.
func (p *Pane) queueZoom(msg tea.Msg) bool {
	if p.zoomQ == nil {
		return false
	}
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		p.zoomQ.QueueKey(uv.KeyPressEvent(m))
		return true
	case tea.PasteMsg:
		p.zoomQ.QueuePaste(m.Content)
		return true
	}
	return false
}

// isDetach matches the detach binding on the decoded key, plus ctrl+q
// reported with lock modifiers (caps/num lock under the kitty protocol).
func isDetach(msg tea.KeyPressMsg, b key.Binding) bool {
	if key.Matches(msg, b) {
		return true
	}
	k := msg.Key()
	const locks = tea.ModCapsLock | tea.ModNumLock | tea.ModScrollLock
	return k.Code == 'q' && k.Mod&^locks == tea.ModCtrl
}

// IsDetach reports whether msg is the detach key (decoded or raw) while a
// terminal is attached: the one key an attached session never receives.
func (p *Pane) IsDetach(msg tea.Msg) bool {
	if !p.Attached() {
		return false
	}
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		return isDetach(m, p.m.KeyMap().Workspaces.Detach)
	case fmt.Stringer:
		return isRawDetach(m.String())
	}
	return false
}

// isRawDetach recognises ctrl+q in encodings that may reach the model
// undecoded: the C0 byte, kitty CSI u and xterm modifyOtherKeys.
func isRawDetach(s string) bool {
	switch {
	case s == "\x11":
		return true
	case strings.HasPrefix(s, "\x1b[113;5") && strings.HasSuffix(s, "u"):
		return true
	case s == "\x1b[27;5;113~":
		return true
	}
	return false
}
