package workspaces

import (
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// A keystroke's echo is drawn by the goroutine that sees the session's
// screen change, straight into the frame on screen (tea.Program.Patch),
// before the TermChangedMsg that makes the model draw the same cells in
// its next view: the echo skips a hand-off to the event loop, the model's
// Update and View and the renderer's parse of the view. The root model
// says, after each update, where the shown session's screen sits in the
// window and whether nothing covers it (PublishSpot); the Watch goroutine
// patches only while that holds.

// CellPatcher is a Terminal that can copy the rows its screen changed
// since its last Frame into the frame on screen, with its top-left cell at
// (x0, y0) (workspace.Terminal.PatchCells); ok=false when it drew nothing.
type CellPatcher interface {
	PatchCells(dst *uv.RenderBuffer, x0, y0, cols, rows int) (x, y int, visible, ok bool)
}

// Patcher draws into the frame on screen and writes the change at once
// (tea.Program.Patch).
type Patcher func(tea.PatchDraw) bool

// patchSpot is where the shown session's screen sits in the window, for
// the attachment gen.
type patchSpot struct {
	id         string
	gen        int
	x, y       int
	cols, rows int
}

// patching is the pane's share of patched echoes: the program's Patch
// (nil: every change goes through the model) and the spot the root last
// published. The Watch goroutine reads spot; only the event loop writes it.
type patching struct {
	patch Patcher
	spot  atomic.Pointer[patchSpot]
	// drawn is set by a patch and cleared when the pane reads the screen
	// again (followCursor): until then the pane's frame is older than the
	// screen, and the last view must not be reused (catchUp).
	drawn atomic.Bool
}

// SetPatcher gives the pane the program's Patch. Call before the program
// runs.
func (p *Pane) SetPatcher(f Patcher) { p.patching.patch = f }

// PublishSpot records, after an update, where the shown session's screen
// starts in the window (the pane's top-left cell is at left, top) when
// nothing covers it (clear): attached, not zoomed, the whole screen shown
// at the pane's size. Anything else stops patching until the next update.
func (p *Pane) PublishSpot(left, top int, clear bool) {
	if p.patching.patch == nil {
		return
	}
	if !clear || !p.Attached() || p.zoomed || p.open.on || p.Diff != nil || p.Send != nil || p.viewX != 0 || p.viewY != 0 ||
		p.termCols == 0 || p.termRows != p.h-1 || p.termCols != p.w {
		if p.patching.spot.Load() != nil {
			p.patching.spot.Store(nil)
		}
		return
	}
	s := patchSpot{id: p.term.ID(), gen: p.TermGen, x: left, y: top + 1, cols: p.termCols, rows: p.termRows}
	if old := p.patching.spot.Load(); old == nil || *old != s {
		p.patching.spot.Store(&s)
	}
}

// patchNow draws t's changed rows into the frame on screen when the spot
// published for attachment gen still holds; reports whether it drew.
func (pt *patching) patchNow(t Terminal, gen int) bool {
	cp, ok := t.(CellPatcher)
	if pt.patch == nil || !ok {
		return false
	}
	s := pt.spot.Load()
	if s == nil || s.gen != gen || s.id != t.ID() {
		return false
	}
	return pt.patch(func(frame *uv.RenderBuffer) (*tea.Cursor, bool) {
		x, y, vis, ok := cp.PatchCells(frame, s.x, s.y, s.cols, s.rows)
		if !ok {
			return nil, false
		}
		// Set before the patch counts (tea's renderView): an update that
		// began after it sees the flag.
		pt.drawn.Store(true)
		if !vis || x < 0 || y < 0 || x >= s.cols || y >= s.rows {
			return nil, true
		}
		return tea.NewCursor(s.x+x, s.y+y), true
	})
}
