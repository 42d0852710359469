package vt

import (
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// nextTab moves the cursor to the next tab stop n times. This respects the
// horizontal scrolling region. This performs the same function as [ansi.CHT].
func (e *Emulator) nextTab(n int) {
	x, y := e.scr.CursorPosition()
	scroll := e.scr.ScrollRegion()
	for range n {
		ts := e.tabstops.Next(x)
		if ts < x {
			break
		}
		x = ts
	}

	if x >= scroll.Max.X {
		x = min(scroll.Max.X-1, e.Width()-1)
	}

	// NOTE: We use t.scr.setCursor here because we don't want to reset the
	// phantom state.
	e.scr.setCursor(x, y, false)
}

// prevTab moves the cursor to the previous tab stop n times. This respects the
// horizontal scrolling region when origin mode is set. If the cursor would
// move past the leftmost valid column, the cursor remains at the leftmost
// valid column and the operation completes.
func (e *Emulator) prevTab(n int) {
	x, _ := e.scr.CursorPosition()
	leftmargin := 0
	scroll := e.scr.ScrollRegion()
	if e.isModeSet(ansi.DECOM) {
		leftmargin = scroll.Min.X
	}

	for range n {
		ts := e.tabstops.Prev(x)
		if ts > x {
			break
		}
		x = ts
	}

	if x < leftmargin {
		x = leftmargin
	}

	// alice patch: a pending wrap ends, as in tmux, whose CBT starts
	// from the last column (the wrap stayed, and the next character
	// went to the next row).
	e.scr.setCursorX(x, false)
	e.atPhantom = false
}

// moveCursor moves the cursor by the given x and y deltas. If the cursor
// is at phantom, the state will reset and the cursor is back in the screen.
func (e *Emulator) moveCursor(dx, dy int) {
	e.scr.moveCursor(dx, dy)
	e.atPhantom = false
}

// setCursor sets the cursor position. This resets the phantom state.
func (e *Emulator) setCursor(x, y int) {
	e.scr.setCursor(x, y, false)
	e.atPhantom = false
}

// setCursorPosition sets the cursor position. This respects [ansi.DECOM],
// Origin Mode. This performs the same function as [ansi.CUP].
func (e *Emulator) setCursorPosition(x, y int) {
	mode, ok := e.modes[ansi.DECOM]
	margins := ok && mode.IsSet()
	e.scr.setCursor(x, y, margins)
	e.atPhantom = false
}

// carriageReturn moves the cursor to the leftmost column. If [ansi.DECOM] is
// set, the cursor is set to the left margin. If not, and the cursor is on or
// to the right of the left margin, the cursor is set to the left margin.
// Otherwise, the cursor is set to the leftmost column of the screen.
// This performs the same function as [ansi.CR].
func (e *Emulator) carriageReturn() {
	x, y := e.scr.CursorPosition()
	// alice patch: in origin mode too the row stays (setCursor with
	// margins took y as relative to the region's top and moved the
	// cursor down by it); tmux's CR only sets the column.
	if region := e.scr.ScrollRegion(); uv.Pos(x, y).In(region) {
		e.scr.setCursor(region.Min.X, y, false)
	} else {
		e.scr.setCursor(0, y, false)
	}
	e.atPhantom = false
}

// repeatPreviousCharacter repeats the previous character n times. This is
// equivalent to typing the same character n times. This performs the same as
// [ansi.REP].
func (e *Emulator) repeatPreviousCharacter(n int) {
	// alice patch: as tmux's INPUT_CSI_REP, at most as many times as
	// there are columns left (none with a wrap pending), and all printed
	// now, so the last one cannot set lastChar again after this sequence
	// reset it.
	if e.lastChar == 0 {
		return
	}
	x, _ := e.scr.CursorPosition()
	room := e.scr.Width() - x
	if e.atPhantom {
		room = 0
	}
	for range min(n, room) {
		e.handlePrint(e.lastChar)
	}
	e.flushGrapheme()
}

// alice patch: CUU, CUD, CUF, CUB (and CPL, CNL after their carriage
// return) move as tmux's screen_write_cursor{up,down,right,left}: up and
// down stop at the scroll region's margin when they start inside it or on
// the side they move towards (down from above the region stops at its
// bottom, up from below at its top), at the screen's edge otherwise; a
// pending wrap ends on the last column for up, down and right, and left
// counts from past the margin (CUB 1 lands on the last column). The
// cursor was clamped to the region only when inside it.

func (e *Emulator) cursorUp(n int) {
	n = max(n, 1)
	x, y := e.scr.CursorPosition()
	if top := e.scr.scroll.Min.Y; y < top {
		n = min(n, y)
	} else {
		n = min(n, y-top)
	}
	e.atPhantom = false
	e.scr.setCursor(x, y-n, false)
}

func (e *Emulator) cursorDown(n int) {
	n = max(n, 1)
	x, y := e.scr.CursorPosition()
	if bottom := e.scr.scroll.Max.Y - 1; y > bottom {
		n = min(n, e.scr.Height()-1-y)
	} else {
		n = min(n, bottom-y)
	}
	e.atPhantom = false
	e.scr.setCursor(x, y+n, false)
}

func (e *Emulator) cursorRight(n int) {
	if e.atPhantom {
		// tmux's screen_write_set_cursor puts a cursor beyond the
		// margin on the last column.
		e.atPhantom = false
		return
	}
	x, y := e.scr.CursorPosition()
	e.scr.setCursor(x+max(n, 1), y, false)
}

func (e *Emulator) cursorLeft(n int) {
	n = max(n, 1)
	x, y := e.scr.CursorPosition()
	if e.atPhantom {
		x++ // tmux's cursor is past the margin
	}
	e.atPhantom = false
	e.scr.setCursor(max(x-n, 0), y, false)
}
