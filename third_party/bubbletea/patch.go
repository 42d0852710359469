package tea

// Patch (alice patch): a keystroke's echo in a session shown inside the
// window used to reach the screen through the event loop — a message, the
// model's Update and View (the whole window as text), the renderer parsing
// the changed lines back into cells — a goroutine hand-off and three
// passes over the frame for one changed cell. tmux writes the cell as it
// parses it. Patch lets the code that owns those cells (the session's
// emulator) put them into the frame on screen and have the change written
// at once, from its own goroutine, under the renderer's lock.
//
// It is an addition, not a second source of truth: the model still gets
// its message and draws the same cells in its next View, which then finds
// nothing left to write. The lines a patch touched are forgotten by
// lineDraw, so that next frame parses them again instead of trusting text
// it drew before the patch.

import (
	"bytes"
	"fmt"
	"io"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// PatchDraw draws into the frame on screen (the alternate screen's cells,
// the window's size) and returns where the cursor now is. It returns
// ok=false to give up without having changed anything.
type PatchDraw func(frame *uv.RenderBuffer) (cursor *Cursor, ok bool)

// Patch runs draw on the frame the terminal shows and writes the change
// at once. It does nothing and reports false when the frame on screen is
// not settled: before the first frame, while the renderer is stopped (a
// command holds the terminal), while a view the model produced has not
// been drawn yet (the patch could be older than it, or newer and then
// undone by it), or outside the alternate screen. Safe for concurrent use
// with the event loop.
func (p *Program) Patch(draw PatchDraw) bool {
	r := p.patcher.Load()
	if r == nil {
		return false
	}
	return r.patch(draw)
}

// patchEpoch counts the patches drawn so far.
func (p *Program) patchEpoch() uint64 {
	if r := p.patcher.Load(); r != nil {
		return r.patches.Load()
	}
	return 0
}

// ViewKeeper is a Model that can tell, after an Update, that its view
// did not change (alice patch): the event loop then neither asks for the
// view nor wakes the renderer. A keystroke passed to a session shown in
// the window changes nothing until the session answers, and the answer is
// patched onto the screen (Patch), so the view the model would give is at
// best the frame on screen and at worst older than it.
type ViewKeeper interface {
	ViewUnchanged() bool
}

func keepsView(m Model) bool {
	k, ok := m.(ViewKeeper)
	return ok && k.ViewUnchanged()
}

// renderView hands the model's view to the renderer, unless a patch was
// drawn since epoch (read before the update the view is for): the update
// may have read the screen as it was before the patch, and drawing its
// view would undo the patch for a frame. A view begun after the patch
// follows (the patch's own message brings one), so nothing is lost by
// dropping this one.
func (p *Program) renderView(model Model, epoch uint64) {
	v := model.View()
	if r := p.patcher.Load(); r != nil {
		r.renderSince(v, epoch)
		return
	}
	p.renderer.render(v)
}

// renderSince is render unless a patch was drawn since epoch, checked
// under the lock a patch holds while it counts itself.
func (s *cursedRenderer) renderSince(v View, epoch uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.patches.Load() == epoch {
		s.setViewLocked(v)
	}
}

// patchedLine marks a lineDraw line a patch changed: no view's line equals
// it, so the next frame parses that line again.
const patchedLine = "\x00patched"

func (s *cursedRenderer) patch(draw PatchDraw) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	lv := s.lastView
	if lv == nil || s.stopped || s.starting || s.pendingErase || !lv.AltScreen ||
		s.drawnLines == nil || len(s.drawnLines) != s.cellbuf.Height() || !viewEquals(lv, &s.view) || s.viewSincePatch {
		return false
	}
	cur, ok := draw(s.cellbuf.RenderBuffer)
	if !ok {
		return false
	}
	drew := false
	for y, t := range s.cellbuf.Touched {
		if t != nil && (t.FirstCell != -1 || t.LastCell != -1) && y < len(s.drawnLines) {
			s.drawnLines[y] = patchedLine
			s.drawnClean = min(s.drawnClean, y)
			drew = true
		}
	}
	s.scr.SetScrollOptim(false) // cells changed in place: nothing moved
	s.scr.Render(s.cellbuf.RenderBuffer)
	if cur != nil {
		s.scr.MoveTo(cur.X, cur.Y)
	}
	// The view on screen and the one waiting to be drawn (the same) now
	// have the cursor where the patch left it, so a flush of that view
	// does not move it back or show it again.
	nv := *lv
	nv.Cursor = nil
	if cur != nil {
		c := *cur
		if lv.Cursor != nil { // the patch moves the cursor; its look is the view's
			c.Shape, c.Blink, c.Color = lv.Cursor.Shape, lv.Cursor.Blink, lv.Cursor.Color
		}
		nv.Cursor = &c
	}
	s.lastView, s.view = &nv, nv
	if err := s.scr.Flush(); err != nil {
		return false
	}
	show, hide := cur != nil && lv.Cursor == nil, cur == nil && lv.Cursor != nil
	if drew || s.buf.Len() > 0 || show || hide {
		// The frame on screen is newer than every view begun before now
		// (cells, or only the cursor: renderView drops those views).
		s.patches.Add(1)
		s.patched = true
	}
	if s.buf.Len() == 0 && !show && !hide {
		return true
	}
	// Text the cursor was already in front of (an echo) is written as it
	// is, as tmux writes it: the cursor only moves by printing, so there
	// is nothing to hide it from or to synchronise, and a terminal whose
	// cursor blinks is not made to hide and show it at every keystroke.
	plain := plainText(s.buf.Bytes())
	var out bytes.Buffer
	if hide || (!s.syncdUpdates && cur != nil && s.buf.Len() > 0 && !plain) {
		out.WriteString(ansi.ResetModeTextCursorEnable)
	}
	if s.syncdUpdates && s.buf.Len() > 0 && !plain {
		out.WriteString(ansi.SetModeSynchronizedOutput)
		out.Write(s.buf.Bytes())
		out.WriteString(ansi.ResetModeSynchronizedOutput)
	} else {
		out.Write(s.buf.Bytes())
	}
	if show || (!s.syncdUpdates && cur != nil && s.buf.Len() > 0 && !hide && !plain) {
		out.WriteString(ansi.SetModeTextCursorEnable)
	}
	s.buf.Reset()
	if s.logger != nil {
		s.logger.Printf("patch: %q", out.String())
	}
	s.draws++
	if _, err := io.Copy(s.w, &out); err != nil && s.logger != nil {
		s.logger.Printf("patch: %v", fmt.Errorf("bubbletea: error writing a patch: %w", err))
	}
	return true
}

// plainText reports whether b is only printable text (UTF-8 included):
// no escape sequence and no control character, so writing it moves the
// cursor only along the text it prints.
func plainText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}
