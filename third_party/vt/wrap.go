package vt

import (
	uv "github.com/charmbracelet/ultraviolet"
)

// alice patch: soft-wrapped rows and reflow on a width change, as tmux's
// GRID_LINE_WRAPPED and grid_reflow.
//
// A row is wrapped when the cursor wrapped from its right margin onto the
// next row (autowrap). The flag moves with its row (scrolling, IL, DL,
// into the scrollback); clearing a whole row clears its flag and the flag
// of the row above, as tmux's grid_clear_lines and grid_move_lines do.
// BS at column 0 goes back to the end of the row above when that row is
// wrapped. When the width changes, the main screen and the scrollback are
// laid out again: a row and the wrapped rows before it form one line,
// which is cut into rows of the new width (a wide character that does not
// fit goes to the next row whole), and the cursor stays on its character.
//
// Each row also counts the cells that hold its line's text, as tmux's
// cellused: printing and ICH/DCH raise it, clearing part of a row (EL 0/1,
// ECH, ED 0/1 on the cursor row) leaves it, clearing the whole row zeroes
// it. A line's trailing erased cells up to it are part of the line when it
// is reflowed, so a row that once held 100 cells and was erased after 26 is
// cut into two rows at a width of 80, as tmux does.

// isWrapped reports row y's soft-wrap flag.
func (s *Screen) isWrapped(y int) bool {
	return y >= 0 && y < len(s.wrapped) && s.wrapped[y]
}

// setWrapped sets row y's soft-wrap flag.
func (s *Screen) setWrapped(y int, v bool) {
	if y >= 0 && y < len(s.wrapped) {
		s.wrapped[y] = v
	}
}

// resizeWrapped keeps the flags and used counts of the rows that stay.
func (s *Screen) resizeWrapped(h int) {
	if h <= len(s.used) {
		s.used = s.used[:h]
	} else {
		s.used = append(s.used, make([]int, h-len(s.used))...)
	}
	if h <= len(s.wrapped) {
		s.wrapped = s.wrapped[:h]
		return
	}
	s.wrapped = append(s.wrapped, make([]bool, h-len(s.wrapped))...)
}

// noteUsed records that row y holds text up to cell end.
func (s *Screen) noteUsed(y, end int) {
	if y >= 0 && y < len(s.used) && end > s.used[y] {
		s.used[y] = min(end, s.buf.Width())
	}
}

// usedAfterShift is ICH (insert) or DCH of n cells at x, y on the used
// count, as tmux's grid_move_cells: the cells that moved count up to
// where they went (ICH to the margin, DCH to n before it). When nothing
// moves (n reaches the margin) the count stays.
func (s *Screen) usedAfterShift(x, y, n int, insert bool) {
	width := s.buf.Width()
	n = min(n, width-x)
	if n <= 0 || x >= width-1 || width-x-n <= 0 {
		return
	}
	if insert {
		s.noteUsed(y, width)
	} else {
		s.noteUsed(y, width-n)
	}
}

// moveWrapped moves the flags and used counts of n rows at y down
// (insert) or up within rows [y, bottom), as they move with their rows;
// the rows left behind have none. Nothing else is unwrapped: this is a
// scroll with history (tmux's grid_scroll_history_region) or the rows a
// shorter screen moves off its top.
func (s *Screen) moveWrapped(y, n, bottom int, insert bool) {
	bottom = min(bottom, len(s.wrapped))
	if y < 0 || y >= bottom || n <= 0 {
		return
	}
	n = min(n, bottom-y)
	w, u := s.wrapped, s.used[:bottom]
	if insert {
		copy(w[y+n:bottom], w[y:bottom-n])
		clear(w[y : y+n])
		copy(u[y+n:], u[y:bottom-n])
		clear(u[y : y+n])
	} else {
		copy(w[y:bottom-n], w[y+n:bottom])
		clear(w[bottom-n : bottom])
		copy(u[y:], u[y+n:bottom])
		clear(u[bottom-n:])
	}
}

// gridMoveLines is tmux 3.3a's grid_move_lines on the flags and used
// counts: rows [py, py+ny) move to [dy, dy+ny), the rows they leave are
// emptied, and two rows lose their wrap flag: the one above dy before the
// move (when rows move down, that is the top row that moves: SD, RI and
// IL cut the line it continued there) and the one above py after it,
// when py is not a destination (DL of at least as many rows as stay: the
// last row that stays). A row above the screen is the newest line of the
// history. (alice patch)
func (s *Screen) gridMoveLines(dy, py, ny int) {
	h := len(s.wrapped)
	if ny <= 0 || py == dy || py < 0 || dy < 0 || py+ny > h || dy+ny > h {
		return
	}
	s.unwrapRow(dy - 1)
	copy(s.wrapped[dy:dy+ny], s.wrapped[py:py+ny])
	copy(s.used[dy:dy+ny], s.used[py:py+ny])
	for y := py; y < py+ny; y++ {
		if y < dy || y >= dy+ny {
			s.wrapped[y], s.used[y] = false, 0
		}
	}
	if py < dy || py >= dy+ny {
		s.unwrapRow(py - 1)
	}
}

// gridClearLines is tmux's grid_clear_lines on the flags and used counts:
// rows [py, py+ny) are emptied and the row above loses its wrap flag.
// (alice patch)
func (s *Screen) gridClearLines(py, ny int) {
	if ny <= 0 {
		return
	}
	for y := max(py, 0); y < min(py+ny, len(s.wrapped)); y++ {
		s.wrapped[y], s.used[y] = false, 0
	}
	s.unwrapRow(py - 1)
}

// unwrapRow clears row y's wrap flag; row -1 is the newest line of the
// history, as tmux's grid counts rows from the top of its history.
// (alice patch)
func (s *Screen) unwrapRow(y int) {
	if y >= 0 {
		s.setWrapped(y, false)
	} else if y == -1 && s.unwrapHistory != nil {
		s.unwrapHistory()
	}
}

// unwrapCleared clears the flags and used counts of rows cleared over
// their whole width, and the flag of the row above them.
func (s *Screen) unwrapCleared(area uv.Rectangle) {
	area = area.Intersect(s.buf.Bounds())
	if area.Empty() || area.Min.X > 0 || area.Max.X < s.buf.Width() {
		return
	}
	s.gridClearLines(area.Min.Y, area.Dy())
}

// LineWrapped reports whether row y of the active screen continues on the
// next row (the cursor wrapped at the right margin). (alice patch)
func (e *Emulator) LineWrapped(y int) bool {
	return e.scr.isWrapped(y)
}

// usedCells is how many cells of a row a line holds: a wrapped row all of
// them (less a blank left at the margin by a wide character that wrapped
// whole), any other row up to its last cell that is not a default blank
// (or further, up to the row's used count: see reflow).
func usedCells(row uv.Line, wrapped bool, next uv.Line) int {
	n := len(row)
	if wrapped {
		if n > 0 && row[n-1].Equal(&uv.EmptyCell) && len(next) > 0 && next[0].Width > 1 {
			n--
		}
		return n
	}
	for n > 0 && row[n-1].Equal(&uv.EmptyCell) {
		n--
	}
	return n
}

// textCells is how many cells of a row hold text: up to its last cell
// that is not a blank of any style (a wide character's second cell is
// part of it).
func textCells(row uv.Line) int {
	n := len(row)
	for n > 0 && (row[n-1].Content == " " || row[n-1].Content == "" && row[n-1].Width > 0) {
		n--
	}
	return n
}

// reflowRow is a row laid out at the new width.
type reflowRow struct {
	cells   uv.Line
	used    int // cells of the line it holds
	wrapped bool
}

// reflow lays the scrollback and the screen out again at width (the
// screen's height is kept). cx, cy is the cursor (cx may be the old width:
// a wrap is pending); it returns where the cursor's character is now, and
// whether a wrap is pending there. As in tmux, a cursor at or past the end
// of its line stays at the end of the line; one whose line went into the
// scrollback goes to the top left.
func (s *Screen) reflow(width, cx, cy int) (x, y int, pending bool) {
	height := s.buf.Height()
	sb := s.scrollback
	nsb := sb.Len()
	total := nsb + height
	src := func(i int) (uv.Line, bool) {
		if i < nsb {
			return sb.Line(i), sb.Wrapped(i)
		}
		return s.buf.Line(i - nsb), s.isWrapped(i - nsb)
	}
	curRow := nsb + cy

	var out []reflowRow
	newRow := func() *reflowRow {
		out = append(out, reflowRow{cells: make(uv.Line, width)})
		r := &out[len(out)-1]
		for i := range r.cells {
			r.cells[i] = uv.EmptyCell
		}
		return r
	}
	outCurRow, outCurX := 0, 0
	curFirst, curAtEnd, curAt := -1, false, 0
	for i := 0; i < total; {
		// One line: rows i..j, every one but the last wrapped.
		first := len(out)
		row := newRow()
		col := 0
		offset, curOffset, curEnd, hasCur := 0, -1, false, false
		var lastWrapped bool
		prevJoinedRow := -1
		for rows := 0; i < total; i, rows = i+1, rows+1 {
			line, wrapped := src(i)
			var next uv.Line
			if i+1 < total {
				next, _ = src(i + 1)
			}
			used := usedCells(line, wrapped, next)
			cellused := -1 // the cells tmux counts when they are fewer than those moved
			rowUsed := -1  // the row's used count, when it is known
			if k := i - nsb; k >= 0 && k < len(s.used) {
				rowUsed = s.used[k]
			} else if k < 0 {
				rowUsed = sb.Used(i)
			}
			if rowUsed >= 0 {
				// A row's line is the cells it used (tmux's cellused):
				// erased cells count; a wrapped row the cursor only
				// passed through (a wrap pending after a line feed)
				// holds none. The scrollback keeps the count too.
				used = max(rowUsed, textCells(line))
			}
			if rows > 0 && !wrapped && used == 0 {
				// An empty row that does not continue ends the line
				// before it, and the row before keeps its flag, as
				// tmux's grid_reflow_join ("If the next line is empty,
				// skip it"): a row a region scrolled into the history
				// joined the blank row below the region when pulled
				// back.
				break
			}
			if !wrapped && rowUsed >= 0 {
				// Blanks that only took the background (BCE) do not
				// count, unless the row fits whole, when tmux moves it
				// as it is (its cellused still without them).
				if offset == 0 && used <= width {
					cellused = min(used, len(line))
					used = min(max(used, usedCells(line, false, nil)), width)
				}
			}
			if used > len(line) {
				// A scrollback line keeps no trailing default blanks,
				// but the erased cells it used count.
				padded := make(uv.Line, used)
				copy(padded, line)
				for j := len(line); j < used; j++ {
					padded[j] = uv.EmptyCell
				}
				line = padded
			}
			if i == curRow {
				hasCur = true
				// At or past the end of its line (the cells it
				// used) the cursor goes to the end of the line, as
				// tmux's grid_wrap_position (it stayed where it was).
				end := used
				if cellused >= 0 {
					end = cellused
				}
				curEnd = cx >= end
				if !curEnd {
					curOffset = offset + cx
				}
			}
			// The last row of a line whose first character does not fit
			// after the rows before: tmux's grid_reflow_join breaks there
			// and, the row being the last (not wrapped), clears the flag
			// of the row it was joining onto, so the cursor at the end
			// of the line stays on that row.
			// Only when the row before was joined onto that row whole
			// (started inside it, after other cells, and ended there):
			// tmux's join has consumed a line then ("lines" > 0).
			unwrapAt := -1
			// (A full row ended the join before, keeping the flag.)
			fits := used > 0 && (col == 0 || col+max(line[0].Width, 1) <= width)
			if rows > 0 && !wrapped && used > 0 && !fits && col < width && prevJoinedRow == len(out)-1 {
				unwrapAt = len(out) - 1
			}
			prevJoinedRow = -1
			if used > 0 && col > 0 && fits {
				prevJoinedRow = len(out) - 1 // where this row starts, after other cells
			}
			for k := 0; k < used; {
				c := line[k]
				cw := max(c.Width, 1)
				if col > 0 && col+cw > width {
					row.wrapped = true
					row = newRow()
					col = 0
				}
				if col+cw > width { // wider than the screen
					c, cw = uv.EmptyCell, 1
				}
				row.cells[col] = c
				for p := 1; p < cw; p++ {
					row.cells[col+p] = uv.Cell{}
				}
				n := 1
				for n < max(c.Width, 1) && k+n < used && line[k+n].IsZero() {
					n++
				}
				row.used += n
				col += cw
				k += n
			}
			if cellused >= 0 {
				row.used = min(row.used, cellused)
			}
			if unwrapAt >= 0 {
				out[unwrapAt].wrapped = false
			}
			offset += used
			lastWrapped = wrapped
			if !wrapped {
				i++
				break
			}
		}
		row.wrapped = lastWrapped
		if hasCur {
			curFirst, curAtEnd, curAt = first, curEnd, curOffset
		}
	}
	// Find the cursor's row, as tmux's grid_unwrap_position: from the
	// first row of its line down the wrapped rows, to the end of the
	// line or to the row holding its offset. A line whose last row is
	// still wrapped (the last row of all, or one before an empty row)
	// takes it on to the next row: at the end of such a line tmux's
	// cursor goes to the start of the row below (it stayed on the line).
	if curFirst >= 0 {
		// tmux finds the line by counting the rows that end a line
		// (grid_wrap_position, grid_unwrap_position), so where its
		// reflow split a line in two (above) the cursor lands a line
		// early: so here.
		wy := 0
		for i := 0; i < curRow && i < total; i++ {
			if _, w := src(i); !w {
				wy++
			}
		}
		r, ay := 0, 0
		for r < len(out)-1 && ay < wy {
			if !out[r].wrapped {
				ay++
			}
			r++
		}
		if curAtEnd {
			for r < len(out) && out[r].wrapped {
				r++
			}
			if r < len(out) {
				outCurX = out[r].used
			}
		} else {
			wx := curAt
			for r < len(out) && out[r].wrapped && wx >= out[r].used {
				wx -= out[r].used
				r++
			}
			outCurX = wx
		}
		outCurRow = r
	}

	// The last height rows are the screen, the rest the scrollback.
	top := max(0, len(out)-height)
	// Scrolled lines are the newest of the scrollback; when they were all
	// of it here they still are (tmux's grid_reflow adjusts hscrolled by
	// the rows its lines gained or lost).
	if s.scrolled >= nsb {
		s.scrolled = max(0, s.scrolled+top-nsb)
	} else {
		s.scrolled = min(s.scrolled, top)
	}
	if sb != nil {
		sb.Clear()
		for _, r := range out[:top] {
			cells := r.cells
			if r.wrapped {
				cells = cells[:min(r.used, len(cells))]
			}
			sb.PushUsed(cells, r.wrapped, r.used)
		}
	}
	s.buf.Resize(width, height)
	s.resizeWrapped(height)
	for yy := 0; yy < height; yy++ {
		line := s.buf.Line(yy)
		if k := top + yy; k < len(out) {
			copy(line, out[k].cells)
			s.wrapped[yy] = out[k].wrapped
			s.used[yy] = min(out[k].used, width)
		} else {
			for xx := range line {
				line[xx] = uv.EmptyCell
			}
			s.wrapped[yy] = false
			s.used[yy] = 0
		}
		s.buf.TouchLine(0, yy, width)
	}
	x, y = outCurX, min(outCurRow-top, height-1)
	if y < 0 {
		return 0, 0, false
	}
	if x >= width {
		return width - 1, y, true
	}
	return x, y, false
}

// PendingWrap reports whether a wrap is pending: the cursor is on the last
// column after writing it, where tmux's cursor is past the margin. (alice
// patch)
func (e *Emulator) PendingWrap() bool {
	return e.atPhantom
}

// pullHistory moves up to n of the newest scrollback lines that scrolled
// there (scrolled) back onto the top of the screen, the rows moving down
// over the bottom n rows (blank after a height growth), as tmux's
// screen_resize_y pulls hscrolled lines from its history when the height
// grows. It returns how many rows came back. (alice patch)
func (s *Screen) pullHistory(n int) int {
	n = min(n, s.scrolled, s.scrollback.Len(), s.buf.Height())
	if n <= 0 {
		return 0
	}
	lines, h, w := s.buf.Lines, s.buf.Height(), s.buf.Width()
	// Rotate the row slices down by n: the bottom n rows' storage comes
	// to the top for the pulled lines.
	bottom := append([]uv.Line(nil), lines[h-n:]...)
	copy(lines[n:], lines[:h-n])
	copy(lines, bottom)
	copy(s.wrapped[n:], s.wrapped[:h-n])
	copy(s.used[n:], s.used[:h-n])
	for y := n - 1; y >= 0; y-- {
		line, wrapped, used, _ := s.scrollback.PopNewest()
		row := lines[y]
		for x := range row {
			row[x] = uv.EmptyCell
		}
		copy(row, line[:min(len(line), w)])
		// The scrollback drops a last wide character's second cell
		// with the trailing blanks: put it back.
		for x := 0; x < len(row); x++ {
			for p := 1; p < row[x].Width && x+p < len(row); p++ {
				row[x+p] = uv.Cell{}
			}
		}
		s.wrapped[y] = wrapped
		if used < 0 {
			used = len(line)
		}
		s.used[y] = min(used, w)
	}
	s.scrolled -= n
	for y := 0; y < h; y++ {
		s.buf.TouchLine(0, y, w)
	}
	return n
}

// NoteScrolled records that n more lines scrolled into the scrollback
// than the emulator saw (alice patch: alice puts the lines of a long
// batch of output straight into its own scrollback).
func (e *Emulator) NoteScrolled(n int) {
	if n > 0 {
		e.scrs[0].scrolled += n
	}
}

// scrollOffTop moves the top n rows off the screen, whatever the scroll
// region, into the scrollback when the screen has one (the alternate
// screen has none: they are gone), as tmux's screen_resize_y makes room
// for the cursor's row when the height shrinks. (alice patch)
func (s *Screen) scrollOffTop(n int) {
	h := s.buf.Height()
	n = min(n, h)
	if n <= 0 {
		return
	}
	if s.scrollback != nil {
		for y := range n {
			s.scrollback.PushUsed(s.historyLine(y), s.isWrapped(y), s.lineCells(y))
		}
		s.scrolled += n
	}
	s.deleteRows(0, n, h)
	s.moveWrapped(0, n, h, false)
}

// cutWideAtMargin blanks a wide character the right margin cuts after the
// width shrank without a reflow (the alternate screen): tmux's grid keeps
// it past the margin and draws a blank of its style in the last column
// (tty_draw_line). It was a two-column cell in the last column. (alice
// patch)
func (s *Screen) cutWideAtMargin() {
	w := s.buf.Width()
	for y := 0; y < s.buf.Height(); y++ {
		l := s.buf.Line(y)
		if len(l) < w || w == 0 {
			continue
		}
		x := w - 1
		for x > 0 && l[x].IsZero() {
			x-- // the second cell of a wide character
		}
		if c := l[x]; x+max(c.Width, 1) > w {
			blank := uv.EmptyCell
			blank.Style = c.Style
			for k := x; k < w; k++ {
				l[k] = blank
			}
			s.buf.TouchLine(x, y, w-x)
		}
	}
}

// lineCells is how many cells of row y its line holds, tmux's cellused:
// the cells written (erased ones included) or showing text.
func (s *Screen) lineCells(y int) int {
	l := s.buf.Line(y)
	n := textCells(l)
	if y >= 0 && y < len(s.used) {
		n = max(n, s.used[y])
	}
	return min(n, len(l))
}

// historyLine is row y as it goes into the scrollback: a wrapped row up
// to the cells its line holds (lineCells), as tmux's history keeps a
// line's cellused, any other row whole (the scrollback trims its default
// blanks). A wrapped row kept all its cells: one the cursor only passed
// through came back from the history as a row of blanks that the next
// row's text joined. (alice patch)
func (s *Screen) historyLine(y int) uv.Line {
	l := s.buf.Line(y)
	if s.isWrapped(y) {
		return l[:s.lineCells(y)]
	}
	return l
}

// WrappedCells is how many cells of row y of the active screen its line
// holds when the row is wrapped (what the scrollback keeps of it), its
// width when it is not. (alice patch)
func (e *Emulator) WrappedCells(y int) int {
	if e.scr.isWrapped(y) {
		return e.scr.lineCells(y)
	}
	return e.scr.Width()
}

// cursorAt is where the cursor at x, y of this screen (the alternate
// screen, not reflowed) goes when it is resized to width×height as tmux
// resizes the alternate screen's rows as the alternate screen ends
// (screen_alternate_off, with reflow): shorter, the rows below the cursor
// go first, then those above it; at another width, a cursor at or past
// the end of its row's line goes to the end of the line (its rows are
// taken as they are: what the alternate screen shows seldom wraps).
// (alice patch)
func (s *Screen) cursorAt(width, height, x, y int) (int, int) {
	if width != s.buf.Width() {
		if end := s.lineCells(min(max(y, 0), s.buf.Height()-1)); x >= end {
			x = end
		}
		x = min(x, width)
	}
	if height < s.buf.Height() {
		y = min(y, height-1)
	}
	return x, y
}

// LineCells is how many cells of row y of the active screen its line
// holds, tmux's cellused (what the scrollback keeps as its used count).
// (alice patch)
func (e *Emulator) LineCells(y int) int {
	return e.scr.lineCells(y)
}
