package workspace

import "strings"

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
