package vt

import (
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/exp/ordered"
)

// Screen represents a virtual terminal screen.
type Screen struct {
	// cb is the callbacks struct to use.
	cb *Callbacks
	// The buffer of the screen.
	buf *uv.RenderBuffer
	// rowScratch holds row headers while deleteRows rotates them (alice
	// patch).
	rowScratch []uv.Line
	// The cur of the screen.
	cur, saved Cursor
	// scroll is the scroll region.
	scroll uv.Rectangle
	// scrollback is the scrollback buffer for lines scrolled off the top.
	scrollback *Scrollback
	// wrapped[y] is row y's soft-wrap flag: the cursor wrapped from its
	// right margin onto the next row (alice patch, tmux's
	// GRID_LINE_WRAPPED; see wrap.go).
	wrapped []bool
	// used[y] is how many cells of row y hold a line's text, tmux's
	// cellused (alice patch; see wrap.go).
	used []int
	// scrolled is how many of the newest scrollback lines scrolled there
	// (rather than being pushed by an erase), tmux's hscrolled: growing
	// the height pulls them back onto the screen (alice patch; see
	// pullHistory).
	scrolled int
	// unwrapHistory clears the wrap flag of the newest history line, the
	// row above the screen's top in tmux's grid (alice patch; see
	// gridMoveLines).
	unwrapHistory func()
}

// NewScreen creates a new screen.
func NewScreen(w, h int) *Screen {
	s := Screen{
		buf:        uv.NewRenderBuffer(w, h),
		scrollback: NewScrollback(DefaultScrollbackSize),
		wrapped:    make([]bool, h),
		used:       make([]int, h),
	}
	s.scroll = s.buf.Bounds()
	return &s
}

// Reset resets the screen.
// It clears the screen, sets the cursor to the top left corner, reset the
// cursor styles, and resets the scroll region.
func (s *Screen) Reset() {
	s.buf.Clear()
	clear(s.wrapped)
	clear(s.used)
	s.cur = Cursor{}
	s.saved = Cursor{}
	s.scroll = s.buf.Bounds()
	s.touchAll() // alice patch: was Touched = nil, which hid the reset from a line cache
}

// Bounds returns the bounds of the screen.
func (s *Screen) Bounds() uv.Rectangle {
	return s.buf.Bounds()
}

// Touched returns touched lines in the screen buffer.
func (s *Screen) Touched() []*uv.LineData {
	return s.buf.Touched
}

// ClearTouched clears the touched state.
func (s *Screen) ClearTouched() {
	s.buf.Touched = nil
}

// CellAt returns the cell at the given x, y position.
func (s *Screen) CellAt(x int, y int) *uv.Cell {
	return s.buf.CellAt(x, y)
}

// SetCell sets the cell at the given x, y position.
// setNarrow is SetCell for a narrow character in the cursor's pen and
// link, written into the cell in place, when the cell it replaces is a
// narrow one too (no wide character is cut, so nothing else changes). It
// reports false, writing nothing, otherwise. (alice patch)
func (s *Screen) setNarrow(x, y int, content string) bool {
	l := s.buf.Line(y)
	if x < 0 || x >= len(l) || l[x].Width != 1 {
		return false
	}
	c := &l[x]
	if c.Content != content || !c.Style.Equal(&s.cur.Pen) || !c.Link.Equal(&s.cur.Link) {
		s.buf.TouchLine(x, y, 1)
		c.Content, c.Style, c.Link = content, s.cur.Pen, s.cur.Link
	}
	s.noteUsed(y, x+1)
	return true
}

func (s *Screen) SetCell(x, y int, c *uv.Cell) {
	// alice patch: a wide character partly overwritten leaves blanks of
	// the default style, as in tmux (the buffer kept its style).
	if l := s.buf.Line(y); x >= 0 && x < len(l) {
		cw := 1
		if c != nil && c.Width > 1 {
			cw = c.Width
		}
		for i := x; i < x+cw && i < len(l); i++ {
			start := i
			for start > 0 && l[start].IsZero() {
				start-- // a wide character's placeholder: find its first cell
			}
			w := l[start].Width
			if w > 1 && (start != x || w != cw) {
				for k := start; k < start+w && k < len(l); k++ {
					l[k] = uv.EmptyCell
				}
				s.buf.TouchLine(start, y, w)
			}
		}
	}
	s.buf.SetCell(x, y, c)
	if c != nil {
		s.noteUsed(y, x+max(c.Width, 1))
	}
}

// Height returns the height of the screen.
func (s *Screen) Height() int {
	return s.buf.Height()
}

// Resize resizes the screen.
func (s *Screen) Resize(width int, height int) {
	if s.buf == nil {
		s.buf = uv.NewRenderBuffer(width, height)
	} else {
		s.buf.Resize(width, height)
		s.touchAll() // alice patch: was Touched = nil (see Reset)
	}
	s.resizeWrapped(height)
	s.scroll = s.buf.Bounds()
}

// release drops the screen's cells, leaving it 0x0 (alice patch: the
// alternate screen while the main screen is on).
func (s *Screen) release() {
	s.buf = uv.NewRenderBuffer(0, 0)
	s.rowScratch = nil
	s.wrapped, s.used = nil, nil
	s.scroll = s.buf.Bounds()
}

// Width returns the width of the screen.
func (s *Screen) Width() int {
	return s.buf.Width()
}

// Clear clears the screen with blank cells.
func (s *Screen) Clear() {
	s.ClearArea(s.Bounds())
}

// ClearWithScrollback saves the screen's lines to scrollback before
// clearing. This is used for operations like ED 2 (erase screen) where
// content should be preserved in history.
// alice patch: every row down to the last one with content goes, blank
// rows between included, with its wrap flag, as tmux's
// grid_view_clear_history scrolls them into its history (only the rows
// with content went, so a wrapped row could be followed by an unrelated
// line).
func (s *Screen) ClearWithScrollback() {
	if s.scrollback != nil {
		last := 0
		for y := 0; y < s.buf.Height(); y++ {
			// alice patch: a row something was written to counts even
			// when it shows only blanks, as tmux's cellused != 0 in
			// grid_view_clear_history (a row of spaces was left out).
			if line := s.buf.Line(y); line != nil && (y < len(s.used) && s.used[y] > 0 || !s.isLineEmpty(line)) {
				last = y + 1
			}
		}
		for y := 0; y < last; y++ {
			s.scrollback.PushUsed(s.historyLine(y), s.isWrapped(y), s.lineCells(y))
		}
		if last > 0 {
			s.scrolled = 0 // as grid_view_clear_history
		}
		if last == s.buf.Height() {
			// tmux clears nothing after scrolling every row away, so
			// the last one keeps its wrap flag in the history.
			s.buf.ClearArea(s.Bounds())
			s.touchArea(s.Bounds())
			clear(s.wrapped)
			clear(s.used)
			return
		}
	}
	s.Clear()
}

// isLineEmpty returns true if the line contains only empty/space cells.
func (s *Screen) isLineEmpty(line uv.Line) bool {
	for _, cell := range line {
		if cell.Content != "" && cell.Content != " " {
			return false
		}
	}
	return true
}

// ClearArea clears the given area.
func (s *Screen) ClearArea(area uv.Rectangle) {
	s.unwrapCleared(area)
	s.buf.ClearArea(area)
	s.touchArea(area)
}

// Fill fills the screen or part of it.
func (s *Screen) Fill(c *uv.Cell) {
	s.FillArea(c, s.Bounds())
}

// FillArea fills the given area with the given cell.
func (s *Screen) FillArea(c *uv.Cell, area uv.Rectangle) {
	s.unwrapCleared(area)
	s.buf.FillArea(c, area)
	s.touchArea(area)
}

// setHorizontalMargins sets the horizontal margins.
func (s *Screen) setHorizontalMargins(left, right int) {
	s.scroll.Min.X = left
	s.scroll.Max.X = right
}

// setVerticalMargins sets the vertical margins.
func (s *Screen) setVerticalMargins(top, bottom int) {
	s.scroll.Min.Y = top
	s.scroll.Max.Y = bottom
}

// setCursorX sets the cursor X position. If margins is true, the cursor is
// only set if it is within the scroll margins.
func (s *Screen) setCursorX(x int, margins bool) {
	s.setCursor(x, s.cur.Y, margins)
}

// setCursor sets the cursor position. If margins is true, the cursor is only
// set if it is within the scroll margins. This follows how [ansi.CUP] works.
func (s *Screen) setCursor(x, y int, margins bool) {
	old := s.cur.Position
	if !margins {
		y = ordered.Clamp(y, 0, s.buf.Height()-1)
		x = ordered.Clamp(x, 0, s.buf.Width()-1)
	} else {
		y = ordered.Clamp(s.scroll.Min.Y+y, s.scroll.Min.Y, s.scroll.Max.Y-1)
		x = ordered.Clamp(s.scroll.Min.X+x, s.scroll.Min.X, s.scroll.Max.X-1)
	}
	s.cur.X, s.cur.Y = x, y

	if s.cb.CursorPosition != nil && (old.X != x || old.Y != y) {
		s.cb.CursorPosition(old, uv.Pos(x, y))
	}
}

// moveCursor moves the cursor by the given x and y deltas. If the cursor
// position is inside the scroll region, it is bounded by the scroll region.
// Otherwise, it is bounded by the screen bounds.
// This follows how [ansi.CUU], [ansi.CUD], [ansi.CUF], [ansi.CUB], [ansi.CNL],
// [ansi.CPL].
func (s *Screen) moveCursor(dx, dy int) {
	scroll := s.scroll
	old := s.cur.Position
	if old.X < scroll.Min.X {
		scroll.Min.X = 0
	}
	if old.X >= scroll.Max.X {
		scroll.Max.X = s.buf.Width()
	}

	pt := uv.Pos(s.cur.X+dx, s.cur.Y+dy)

	var x, y int
	if old.In(scroll) {
		y = ordered.Clamp(pt.Y, scroll.Min.Y, scroll.Max.Y-1)
		x = ordered.Clamp(pt.X, scroll.Min.X, scroll.Max.X-1)
	} else {
		y = ordered.Clamp(pt.Y, 0, s.buf.Height()-1)
		x = ordered.Clamp(pt.X, 0, s.buf.Width()-1)
	}

	s.cur.X, s.cur.Y = x, y

	if s.cb.CursorPosition != nil && (old.X != x || old.Y != y) {
		s.cb.CursorPosition(old, uv.Pos(x, y))
	}
}

// Cursor returns the cursor.
func (s *Screen) Cursor() Cursor {
	return s.cur
}

// CursorPosition returns the cursor position.
func (s *Screen) CursorPosition() (x, y int) {
	return s.cur.X, s.cur.Y
}

// ScrollRegion returns the scroll region.
func (s *Screen) ScrollRegion() uv.Rectangle {
	return s.scroll
}

// SaveCursor saves the cursor.
func (s *Screen) SaveCursor() {
	s.saved = s.cur
}

// RestoreCursor restores the cursor.
func (s *Screen) RestoreCursor() {
	old := s.cur.Position
	s.cur = s.saved

	if s.cb.CursorPosition != nil && (old.X != s.cur.X || old.Y != s.cur.Y) {
		s.cb.CursorPosition(old, s.cur.Position)
	}
}

// setCursorHidden sets the cursor hidden.
func (s *Screen) setCursorHidden(hidden bool) {
	changed := s.cur.Hidden != hidden
	s.cur.Hidden = hidden
	if changed && s.cb.CursorVisibility != nil {
		s.cb.CursorVisibility(!hidden)
	}
}

// setCursorStyle sets the cursor style.
func (s *Screen) setCursorStyle(style CursorStyle, blink bool) {
	changed := s.cur.Style != style || s.cur.Steady != !blink
	s.cur.Style = style
	s.cur.Steady = !blink
	if changed && s.cb.CursorStyle != nil {
		s.cb.CursorStyle(style, !blink)
	}
}

// cursorPen returns the cursor pen.
func (s *Screen) cursorPen() uv.Style {
	return s.cur.Pen
}

// cursorLink returns the cursor link.
func (s *Screen) cursorLink() uv.Link {
	return s.cur.Link
}

// ShowCursor shows the cursor.
func (s *Screen) ShowCursor() {
	s.setCursorHidden(false)
}

// HideCursor hides the cursor.
func (s *Screen) HideCursor() {
	s.setCursorHidden(true)
}

// InsertCell inserts n blank characters at the cursor position pushing out
// cells to the right and out of the screen.
func (s *Screen) InsertCell(n int) {
	if n <= 0 {
		return
	}

	s.insertCells(s.cur.X, s.cur.Y, n, s.blankCell())
}

// insertCells makes room for n cells of blank (nil: the default blank) at
// x, y.
func (s *Screen) insertCells(x, y, n int, blank *uv.Cell) {
	// alice patch: cells move as they are, and a wide character cut by
	// the cursor or pushed half past the right margin becomes blanks
	// (one cut by the margin kept its first half, wider than the room
	// left; one cut by the cursor left an orphan placeholder).
	l, end, ok := s.cellRow(x, y)
	if !ok {
		return
	}
	n = min(n, end-x)
	s.breakWide(l, x)
	s.breakWide(l, end-n)
	copy(l[x+n:end], l[x:end-n])
	fillCells(l[x:x+n], blank)
	s.buf.TouchLine(x, y, end-x)
	s.usedAfterShift(x, y, n, true)
}

// DeleteCell deletes n cells at the cursor position moving cells to the left.
func (s *Screen) DeleteCell(n int) {
	if n <= 0 {
		return
	}

	x, y := s.cur.X, s.cur.Y
	// alice patch: cells move as they are (uv's DeleteCellArea set them
	// one by one, and setting a wide character's placeholder blanked the
	// character: every wide character right of the deleted cells
	// vanished); a wide character cut at either end of the deleted cells
	// becomes blanks.
	l, end, ok := s.cellRow(x, y)
	if !ok {
		return
	}
	n = min(n, end-x)
	s.breakWide(l, x)
	s.breakWide(l, x+n)
	s.breakWide(l, end)
	copy(l[x:end-n], l[x+n:end])
	fillCells(l[end-n:end], s.blankCell())
	s.buf.TouchLine(x, y, end-x)
	s.usedAfterShift(x, y, n, false)
}

// cellRow is row y and the right end of the cells ICH and DCH move when
// the cursor is at x (false when x is outside the margins).
func (s *Screen) cellRow(x, y int) (uv.Line, int, bool) {
	area := s.cellArea()
	l := s.buf.Line(y)
	end := min(area.Max.X, len(l))
	if l == nil || x < area.Min.X || x >= end {
		return nil, 0, false
	}
	return l, end, true
}

// breakWide blanks the wide character that covers both x-1 and x, if
// any, so that cells can be cut apart at x.
func (s *Screen) breakWide(l uv.Line, x int) {
	if x <= 0 || x >= len(l) || !l[x].IsZero() {
		return
	}
	start := x - 1
	for start > 0 && l[start].IsZero() {
		start--
	}
	w := max(l[start].Width, 1)
	for k := start; k < start+w && k < len(l); k++ {
		l[k] = uv.EmptyCell
	}
}

// fillCells sets cells to blank (nil: the default blank).
func fillCells(cells []uv.Cell, blank *uv.Cell) {
	c := uv.EmptyCell
	if blank != nil {
		c = *blank
	}
	for i := range cells {
		cells[i] = c
	}
}

// cellArea is where ICH and DCH move cells: between the left and right
// margins on every row. alice patch: the top and bottom margins do not
// apply, as in xterm and tmux (outside them nothing moved).
func (s *Screen) cellArea() uv.Rectangle {
	return uv.Rect(s.scroll.Min.X, 0, s.scroll.Dx(), s.buf.Height())
}

// ScrollUp scrolls the content up n lines within the given region. Lines
// scrolled past the top margin are lost. This is equivalent to [ansi.SU] which
// moves the cursor to the top margin and performs a [ansi.DL] operation.
func (s *Screen) ScrollUp(n int) {
	x, y := s.CursorPosition()
	s.setCursor(s.cur.X, 0, true)
	s.DeleteLine(n)
	s.setCursor(x, y, false)
}

// ScrollDown scrolls the content down n lines within the given region. Lines
// scrolled past the bottom margin are lost. This is equivalent to [ansi.SD]
// which moves the cursor to top margin and performs a [ansi.IL] operation.
func (s *Screen) ScrollDown(n int) {
	x, y := s.CursorPosition()
	s.setCursor(s.cur.X, 0, true)
	s.insertLine(n, true)
	s.setCursor(x, y, false)
}

// InsertLine inserts n blank lines at the cursor position Y coordinate.
// Only operates if cursor is within scroll region. Lines below cursor Y
// are moved down, with those past bottom margin being discarded.
// It returns true if the operation was successful.
func (s *Screen) InsertLine(n int) bool {
	return s.insertLine(n, false)
}

// insertLine is InsertLine; scroll says it is SD or RI, which move the
// wrap flags as tmux's grid_view_scroll_region_down (one row at a time)
// rather than as its grid_view_insert_lines_region. (alice patch)
func (s *Screen) insertLine(n int, scroll bool) bool {
	if n <= 0 {
		return false
	}

	x, y := s.cur.X, s.cur.Y

	// alice patch: outside the scroll region the lines from the cursor
	// to the bottom of the screen move, as in tmux (nothing moved).
	if y < s.scroll.Min.Y || y >= s.scroll.Max.Y {
		// tmux's grid_view_insert_lines moves the rows that stay and
		// wipes the ones they leave: when n reaches the bottom no row
		// stays and none is wiped, the rows keep their text (its
		// tty_cmd_insertline sends IL outside the outer terminal's
		// scroll region, which ignores it too).
		if n >= s.buf.Height()-y {
			return true
		}
		s.buf.InsertLineArea(y, n, s.blankCell(), s.Bounds())
		s.gridMoveLines(y+n, y, s.buf.Height()-y-n)
		return true
	}
	// Only operate if cursor Y is within scroll region
	if x < s.scroll.Min.X || x >= s.scroll.Max.X {
		return false
	}

	s.buf.InsertLineArea(y, n, s.blankCell(), s.scroll)
	if s.scroll.Min.X == 0 && s.scroll.Max.X == s.buf.Width() {
		// alice patch: the wrap flags as tmux 3.3a moves them.
		bottom := s.scroll.Max.Y
		n = min(n, bottom-y)
		if scroll {
			for range n {
				s.gridMoveLines(y+1, y, bottom-1-y)
			}
		} else {
			stay := bottom - y - n
			s.gridMoveLines(y+n, y, stay)
			s.gridClearLines(y+stay, n-stay)
		}
	}

	return true
}

// DeleteLine deletes n lines at the cursor position Y coordinate.
// Only operates if cursor is within scroll region. Lines below cursor Y
// are moved up, with blank lines inserted at the bottom of scroll region.
// If scrollback is enabled and cursor is at top of scroll region, lines
// are saved to the scrollback buffer before deletion.
// It returns true if the operation was successful.
func (s *Screen) DeleteLine(n int) bool {
	return s.deleteLine(n, true)
}

// deleteLine is DeleteLine; history says whether lines deleted at the top
// of a whole-screen region go to the scrollback. alice patch: DL does not
// put them there, as tmux (its grid_view_delete_lines drops them; only
// scrolling, a line feed at the bottom or SU, fills the history): a line
// DL deleted came back when the screen grew taller.
func (s *Screen) deleteLine(n int, history bool) bool {
	if n <= 0 {
		return false
	}

	scroll := s.scroll
	x, y := s.cur.X, s.cur.Y

	// alice patch: outside the scroll region the lines from the cursor
	// to the bottom of the screen move, as in tmux (nothing moved).
	if y < scroll.Min.Y || y >= scroll.Max.Y {
		s.buf.DeleteLineArea(y, n, s.blankCell(), s.Bounds())
		// The wrap flags as tmux's grid_view_delete_lines moves them.
		h := s.buf.Height()
		n = min(n, h-y)
		stay := h - y - n
		s.gridMoveLines(y, y+n, stay)
		s.gridClearLines(h-n, y+2*n-h)
		return true
	}
	// Only operate if cursor Y is within scroll region
	if x < scroll.Min.X || x >= scroll.Max.X {
		return false
	}

	// Save lines to scrollback if we're at the top of the scroll region
	// and the scroll region uses the full width (typical terminal scroll).
	// This captures lines that would be lost during scroll up operations.
	// alice patch: the top line of any region that scrolls goes there,
	// as tmux 3.3a's grid_scroll_history_region (a region below a fixed
	// header fills its history: checked against tmux), but not the lines
	// DL deletes (history is false).
	if history && s.scrollback != nil && y == scroll.Min.Y &&
		scroll.Min.X == 0 && scroll.Max.X == s.buf.Width() {
		// Save lines that will be deleted
		linesToSave := min(n, scroll.Max.Y-y)
		for i := range linesToSave {
			s.scrollback.PushUsed(s.historyLine(y+i), s.isWrapped(y+i), s.lineCells(y+i))
		}
		s.scrolled += linesToSave
	}

	// alice patch: a full-width region scrolls by moving rows, not cells.
	// DeleteLineArea copied every cell of the region one by one on each
	// line feed at the bottom: a third of alice's CPU with 20 chatty
	// sessions.
	if scroll.Min.X == 0 && scroll.Max.X == s.buf.Width() {
		s.deleteRows(y, n, scroll.Max.Y)
		// The wrap flags as tmux 3.3a moves them: a scroll with history
		// (the main screen) moves the rows into it and the region up as
		// they are (grid_scroll_history_region), one without (the
		// alternate screen) moves them a row at a time
		// (grid_view_scroll_region_up), and DL as
		// grid_view_delete_lines_region.
		bottom := scroll.Max.Y
		n = min(n, bottom-y)
		switch {
		case history && s.scrollback != nil:
			s.moveWrapped(y, n, bottom, false)
		case history:
			for range n {
				s.gridMoveLines(y, y+1, bottom-1-y)
			}
		default:
			stay := bottom - y - n
			s.gridMoveLines(y, y+n, stay)
			s.gridClearLines(y+stay, n-stay)
		}
		return true
	}

	s.buf.DeleteLineArea(y, n, s.blankCell(), scroll)

	return true
}

// deleteRows deletes n full-width rows at y within rows [y, bottom): the
// rows below move up as whole rows, and the deleted rows' storage comes
// back blank at the bottom. (alice patch)
func (s *Screen) deleteRows(y, n, bottom int) {
	n = min(n, bottom-y)
	lines := s.buf.Lines
	gone := append(s.rowScratch[:0], lines[y:y+n]...)
	copy(lines[y:], lines[y+n:bottom])
	copy(lines[bottom-n:bottom], gone)
	clear(gone)
	s.rowScratch = gone[:0]
	fill := uv.EmptyCell
	if c := s.blankCell(); c != nil {
		fill = *c
	}
	for _, line := range lines[bottom-n : bottom] {
		for x := range line {
			line[x] = fill
		}
	}
	w := s.buf.Width()
	for i := y; i < bottom; i++ {
		s.buf.TouchLine(0, i, w)
	}
}

// blankCell returns the cursor blank cell with the background color set to the
// current pen background color. If the pen background color is nil, the return
// value is nil.
func (s *Screen) blankCell() *uv.Cell {
	if s.cur.Pen.Bg == nil {
		return nil
	}

	c := uv.EmptyCell
	c.Style.Bg = s.cur.Pen.Bg
	return &c
}

// touchArea marks all lines in the given area as touched.
func (s *Screen) touchArea(area uv.Rectangle) {
	for y := area.Min.Y; y < area.Max.Y; y++ {
		s.buf.TouchLine(area.Min.X, y, area.Max.X-area.Min.X)
	}
}

// Scrollback returns the screen's scrollback buffer.
func (s *Screen) Scrollback() *Scrollback {
	return s.scrollback
}

// SetScrollback sets the screen's scrollback buffer.
// Pass nil to disable scrollback.
func (s *Screen) SetScrollback(sb *Scrollback) {
	s.scrollback = sb
}

// SetScrollbackSize sets the maximum number of lines in the scrollback buffer.
func (s *Screen) SetScrollbackSize(maxLines int) {
	if s.scrollback == nil {
		s.scrollback = NewScrollback(maxLines)
	} else {
		s.scrollback.SetMaxLines(maxLines)
	}
}

// alignmentTest is DECALN (alice patch): every cell an E of the default
// style, the cursor home, the scroll region the whole screen.
func (s *Screen) alignmentTest() {
	e := uv.EmptyCell
	e.Content = "E"
	// The wrap flags stay, as in tmux's screen_write_alignmenttest,
	// which sets every cell and nothing else.
	w, h := s.buf.Width(), s.buf.Height()
	area := uv.Rect(0, 0, w, h)
	for y := range h {
		fillCells(s.buf.Line(y), &e)
		s.noteUsed(y, w)
	}
	s.touchArea(area)
	s.scroll = s.buf.Bounds()
	s.setCursor(0, 0, false)
}
