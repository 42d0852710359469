package vt

import (
	"slices"

	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultScrollbackSize is the default maximum number of lines in the scrollback buffer.
const DefaultScrollbackSize = 10000

// Scrollback represents a scrollback buffer that stores lines scrolled off the screen.
type Scrollback struct {
	lines    []uv.Line
	maxLines int
	// free keeps the storage of up to maxFreeLines cleared lines for the
	// next Push (alice patch: a caller that drains after every write, as
	// alice does, cloned and dropped a line per line feed).
	free []uv.Line
	// wrapped[i] is lines[i]'s soft-wrap flag (alice patch: see wrap.go).
	wrapped []bool
	// used[i] is how many cells lines[i]'s line holds, tmux's cellused,
	// or -1 when the caller did not say (alice patch: see Used).
	used []int
	// sink, when set, takes each pushed line instead (alice patch: see
	// HistorySink).
	sink HistorySink
}

// HistorySink takes the lines that leave the screen as they leave it,
// where the scrollback would hold copies of their cells until the caller
// drains them (alice patch: with busy background sessions those copies
// were three quarters of everything alice allocated).
type HistorySink interface {
	// PushUsed takes a line as PushUsed would store it. The cells are
	// the screen's and are reused: the sink must not keep line.
	PushUsed(line uv.Line, wrapped bool, used int)
	// UnwrapNewest clears the wrap flag of the newest line it took.
	UnwrapNewest()
}

// SetSink routes pushed lines to k (nil: store them again). Lines already
// stored stay until the caller drains them. (alice patch)
func (s *Scrollback) SetSink(k HistorySink) {
	if s != nil {
		s.sink = k
	}
}

// maxFreeLines bounds the cleared lines kept for reuse. (alice patch)
const maxFreeLines = 4

// NewScrollback creates a new scrollback buffer with the given maximum number of lines.
func NewScrollback(maxLines int) *Scrollback {
	if maxLines <= 0 {
		maxLines = DefaultScrollbackSize
	}
	return &Scrollback{
		lines:    make([]uv.Line, 0, min(maxLines, 1000)), // Pre-allocate reasonable capacity
		maxLines: maxLines,
	}
}

// Push adds a line to the scrollback buffer.
// If the buffer is full, the oldest line is removed.
func (s *Scrollback) Push(line uv.Line) {
	s.PushWrapped(line, false)
}

// PushWrapped adds a line with its soft-wrap flag: it continues on the
// next line (alice patch).
func (s *Scrollback) PushWrapped(line uv.Line, wrapped bool) {
	s.PushUsed(line, wrapped, -1)
}

// PushUsed is PushWrapped with the number of cells the line holds
// (tmux's cellused: written cells, erased ones included, not blanks that
// only took the background), -1 when unknown (alice patch).
func (s *Scrollback) PushUsed(line uv.Line, wrapped bool, used int) {
	if s == nil || s.maxLines <= 0 {
		return
	}

	// Find last non-empty cell to trim trailing empty cells.
	// This helps with wrapping and window resizing.
	lastNonEmpty := -1
	if wrapped {
		lastNonEmpty = len(line) - 1 // its blanks at the margin are text
	}
	for i := len(line) - 1; i > lastNonEmpty; i-- {
		c := &line[i]
		if !c.IsZero() && !c.Equal(&uv.EmptyCell) {
			lastNonEmpty = i
			break
		}
	}

	if s.sink != nil { // alice patch
		s.sink.PushUsed(line[:lastNonEmpty+1], wrapped, used)
		return
	}

	// Clone the line content up to and including the last non-empty cell
	// (alice patch: into a cleared line's storage when there is one).
	var cloned uv.Line
	if n := len(s.free); n > 0 {
		cloned = append(s.free[n-1][:0], line[:lastNonEmpty+1]...)
		s.free[n-1] = nil
		s.free = s.free[:n-1]
	} else {
		cloned = slices.Clone(line[:lastNonEmpty+1])
	}

	if len(s.lines) >= s.maxLines {
		// Remove oldest line and append new one
		s.lines = slices.Delete(s.lines, 0, 1)
		s.wrapped = slices.Delete(s.wrapped, 0, 1)
		s.used = slices.Delete(s.used, 0, 1)
	}
	s.lines = append(s.lines, cloned)
	s.wrapped = append(s.wrapped, wrapped)
	s.used = append(s.used, used)
}

// PushN adds n lines from the buffer starting at line y to the scrollback.
func (s *Scrollback) PushN(buf *uv.RenderBuffer, y, n int) {
	if s == nil || buf == nil || n <= 0 {
		return
	}

	for i := range min(n, buf.Height()-y) {
		if line := buf.Line(y + i); line != nil {
			s.Push(line)
		}
	}
}

// Len returns the number of lines in the scrollback buffer.
func (s *Scrollback) Len() int {
	if s == nil {
		return 0
	}
	return len(s.lines)
}

// MaxLines returns the maximum number of lines the scrollback buffer can hold.
func (s *Scrollback) MaxLines() int {
	if s == nil {
		return 0
	}
	return s.maxLines
}

// SetMaxLines sets the maximum number of lines in the scrollback buffer.
// If the current number of lines exceeds the new maximum, oldest lines are removed.
func (s *Scrollback) SetMaxLines(maxLines int) {
	if s == nil || maxLines <= 0 {
		return
	}

	s.maxLines = maxLines
	if len(s.lines) > maxLines {
		// Remove oldest lines
		s.lines = s.lines[len(s.lines)-maxLines:]
		s.wrapped = s.wrapped[len(s.wrapped)-maxLines:]
		s.used = s.used[len(s.used)-maxLines:]
	}
}

// Line returns the line at the given index.
// Index 0 is the oldest line, Len()-1 is the most recent.
// Returns nil if index is out of bounds.
func (s *Scrollback) Line(index int) uv.Line {
	if s == nil || index < 0 || index >= len(s.lines) {
		return nil
	}
	return s.lines[index]
}

// Lines returns all lines in the scrollback buffer.
// Index 0 is the oldest line.
func (s *Scrollback) Lines() []uv.Line {
	if s == nil {
		return nil
	}
	return s.lines
}

// Clear removes all lines from the scrollback buffer.
func (s *Scrollback) Clear() {
	if s == nil {
		return
	}
	// alice patch: keep a few lines' storage for the next Push, and drop
	// the cleared lines' cells.
	for _, l := range s.lines {
		if len(s.free) == maxFreeLines {
			break
		}
		if cap(l) > 0 {
			clear(l[:cap(l)])
			s.free = append(s.free, l[:0])
		}
	}
	clear(s.lines)
	s.lines = s.lines[:0]
	s.wrapped = s.wrapped[:0]
	s.used = s.used[:0]
}

// Used is how many cells the line at index (0 = oldest) holds, tmux's
// cellused, or -1 when it was pushed without (alice patch).
func (s *Scrollback) Used(index int) int {
	if s == nil || index < 0 || index >= len(s.used) {
		return -1
	}
	return s.used[index]
}

// Wrapped reports whether the line at index (0 = oldest) continues on
// the next line: the cursor wrapped at the right margin (alice patch).
func (s *Scrollback) Wrapped(index int) bool {
	if s == nil || index < 0 || index >= len(s.wrapped) {
		return false
	}
	return s.wrapped[index]
}

// CellAt returns the cell at the given position in the scrollback buffer.
// x is the column, y is the line index (0 = oldest).
// Returns nil if position is out of bounds.
func (s *Scrollback) CellAt(x, y int) *uv.Cell {
	line := s.Line(y)
	if line == nil || x < 0 || x >= len(line) {
		return nil
	}
	return &line[x]
}

// PopNewest removes the newest line and returns it with its soft-wrap
// flag; ok is false when there is none (alice patch: growing the height
// pulls lines back onto the screen).
func (s *Scrollback) PopNewest() (line uv.Line, wrapped bool, used int, ok bool) {
	if s == nil || len(s.lines) == 0 {
		return nil, false, -1, false
	}
	n := len(s.lines) - 1
	line, wrapped, used = s.lines[n], s.wrapped[n], s.used[n]
	s.lines[n] = nil
	s.lines, s.wrapped, s.used = s.lines[:n], s.wrapped[:n], s.used[:n]
	return line, wrapped, used, true
}

// unwrapNewest clears the newest line's wrap flag (alice patch: see
// Screen.gridMoveLines).
func (s *Scrollback) unwrapNewest() {
	if n := len(s.wrapped); n > 0 {
		s.wrapped[n-1] = false
	}
}

// unwrapSink clears the wrap flag of the newest line the sink took and
// reports whether there is a sink (alice patch).
func (s *Scrollback) unwrapSink() bool {
	if s == nil || s.sink == nil {
		return false
	}
	s.sink.UnwrapNewest()
	return true
}
