package workspace

import (
	"strings"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Frame returns the screen (as Render) and the cursor (as Cursor) read
// under one lock: a redraw that needs both waits for a busy feeder once,
// not twice.
func (t *Terminal) Frame() (screen string, x, y int, visible bool) {
	t.lockUI()
	defer t.mu.Unlock()
	if t.renderedGen != t.gen || t.rendered == "" {
		t.rendered, t.renderedGen = t.renderRowsLocked(), t.gen
	}
	p := t.emu.CursorPosition()
	return t.rendered, p.X, p.Y, t.cursorVisible
}

// renderRowsLocked renders the screen as emu.Render does — every row, in
// order, joined by newlines — rendering again only the rows the emulator
// marked changed since the last call: a keystroke's echo changes one row
// of forty. Any change of screen (main or alternate) or size renders every
// row. Called with t.mu held.
func (t *Terminal) renderRowsLocked() string {
	w, h, alt := t.emu.Width(), t.emu.Height(), t.emu.IsAltScreen()
	all := len(t.rows) != h || t.rowsWidth != w || t.rowsAlt != alt
	if all {
		t.rows = make([]string, h)
		t.rowsWidth, t.rowsAlt = w, alt
	}
	touched := t.emu.Touched()
	for y := range t.rows {
		if all || y < len(touched) && touched[y] != nil {
			t.rows[y] = t.emu.RenderLine(y)
		}
	}
	t.emu.ClearTouched()
	return strings.Join(t.rows, "\n")
}

// PatchCells copies the rows the screen changed since the last Frame
// straight into dst, the frame on the outer terminal, with the screen's
// top-left cell at (x0, y0), and reports the cursor: a keystroke's echo
// drawn without a view of the whole window (tea.Program.Patch). It draws
// nothing and reports ok=false when the screen is not cols×rows, when it
// is not the screen Frame last rendered (size, main or alternate), when
// more than half the rows changed (a scroll: the window's renderer moves
// lines more cheaply), or when a changed row holds a character whose
// width the window's renderer may measure otherwise (patchableCell); the
// TUI's next frame draws those.
func (t *Terminal) PatchCells(dst *uv.RenderBuffer, x0, y0, cols, rows int) (x, y int, visible, ok bool) {
	t.lockUI()
	defer t.mu.Unlock()
	w, h, alt := t.emu.Width(), t.emu.Height(), t.emu.IsAltScreen()
	if w != cols || h != rows || len(t.rows) != h || t.rowsWidth != w || t.rowsAlt != alt {
		return 0, 0, false, false
	}
	touched := t.emu.Touched()
	n := 0
	for row := 0; row < h && row < len(touched); row++ {
		if touched[row] == nil {
			continue
		}
		if n++; 2*n > h {
			return 0, 0, false, false
		}
		for col := 0; col < w; col++ {
			if c := t.emu.CellAt(col, row); c != nil && !c.IsZero() && !patchableCell(c) {
				return 0, 0, false, false
			}
		}
	}
	for row := 0; row < h && row < len(touched); row++ {
		if touched[row] == nil {
			continue
		}
		for col := 0; col < w; col++ {
			c := t.emu.CellAt(col, row)
			if c == nil || c.IsZero() {
				c = &uv.EmptyCell // never written: a blank, as the row's rendering has it
			}
			dst.SetCell(x0+col, y0+row, c)
			if c.Width == 2 {
				// The next column is the wide cell's own (SetCell put its
				// placeholder there); a blank written over it would
				// erase the character.
				col++
			}
		}
	}
	p := t.emu.CursorPosition()
	return p.X, p.Y, t.cursorVisible, true
}

// patchableCell reports whether the window's renderer draws c in exactly
// the columns the emulator gave it, whichever width method it measures
// with: one column of one code point both methods call narrow (plainCell),
// or two of one code point both call wide (日, 本: what typing CJK
// echoes). Clusters and characters the methods disagree on are left to
// the TUI's frame (fitClusters).
func patchableCell(c *uv.Cell) bool {
	switch c.Width {
	case 1:
		return plainCell(c.Content)
	case 2:
		r, size := utf8.DecodeRuneInString(c.Content)
		return size == len(c.Content) && r != utf8.RuneError &&
			ansi.StringWidth(c.Content) == 2 && ansi.StringWidthWc(c.Content) == 2
	}
	return false
}

// plainCell reports whether a cell's content is one code point that every
// width method measures as one column (then the window's renderer, which
// may measure by grapheme clusters or by wcwidth, draws it in the one
// column the emulator gave it): Latin and the like at once, anything else
// (❯ ● ✻ ⎿ box drawing; 日 and ✅ are two columns, patchableCell) by asking
// both.
func plainCell(s string) bool {
	if len(s) <= 1 {
		return true
	}
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) {
		return false
	}
	return r < 0x300 || ansi.StringWidth(s) == 1 && ansi.StringWidthWc(s) == 1
}
