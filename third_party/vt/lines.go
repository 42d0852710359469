package vt

// Line-level access for a renderer that keeps each row's rendering and
// renders again only the rows that changed (alice patch; workspace
// Terminal.Render). Every change to a screen's cells marks its row in the
// screen's touched list; Reset and Resize mark every row (they used to
// empty the list).

// RenderLine renders row y of the current screen exactly as Render renders
// that row.
func (e *Emulator) RenderLine(y int) string { return e.scr.buf.Line(y).Render() }

// ClearTouched forgets which rows of the current screen changed.
func (e *Emulator) ClearTouched() { e.scr.ClearTouched() }

// touchAll marks every row of the screen changed.
func (s *Screen) touchAll() {
	s.buf.Touched = nil
	s.touchArea(s.buf.Bounds())
}

// ScrollRegion is the current screen's scroll region: rows top (inclusive)
// to bottom (exclusive), 0-based; the whole screen when none is set.
func (e *Emulator) ScrollRegion() (top, bottom int) {
	return e.scr.scroll.Min.Y, e.scr.scroll.Max.Y
}
