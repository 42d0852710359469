package workspace

import (
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/rivo/uniseg"
)

// Reflow on a width change, as tmux (grid_reflow): the emulator lays its
// main screen and its own scrollback out again at the new width (x/vt
// patch, third_party/vt/wrap.go). The scrollback lives in the ring, so
// before a width change the newest ring lines go back into the emulator's
// scrollback — whole lines (a line and the wrapped rows before it), at
// least as many as the screen has rows, so what the screen shows after
// the reflow is what tmux shows, history pulled down when the lines get
// shorter included — and the drain after the resize stores them again at
// the new width. Older lines keep the width they were written at. A
// taller screen (same width) takes back as many ring lines as it grew:
// the emulator pulls those that scrolled there onto its top, as tmux.

// maxUnscroll bounds the ring lines moved back on one resize.
const maxUnscroll = 4096

// unscrollLocked moves the newest whole lines of the ring (at least
// lines of them, at most maxUnscroll rows) back into the emulator's
// scrollback, cells and wrap flags as they were.
func (t *Terminal) unscrollLocked(lines int) {
	sb := t.emu.Scrollback()
	r := t.ring
	if sb == nil {
		return
	}
	// The scrollback holds lines again until the next drain (ringSink).
	sb.SetSink(nil)
	if r.n == 0 {
		return
	}
	k, ends := 0, 0
	for k < r.n && k < maxUnscroll {
		next := r.at(r.n - 1 - k) // the next older row to take
		if ends >= lines && !next.wrapped {
			break // enough, and the rows taken start a line
		}
		if !next.wrapped {
			ends++
		}
		k++
	}
	width := t.emu.WidthMethod().StringWidth
	for _, l := range r.popNewest(k) {
		sb.PushUsed(r.cellsOf(&l, width), l.wrapped, int(l.used))
	}
}

// popNewest removes the newest n lines and returns them, oldest first.
// Their styles stay in the table until the next reclaimStyles, so cellsOf
// can read them; the drain that stores the lines again keeps them.
func (r *scrollRing) popNewest(n int) []sbLine {
	n = min(n, r.n)
	out := make([]sbLine, n)
	var freed int64
	for i := n - 1; i >= 0; i-- {
		l := r.at(r.n - 1)
		out[i] = *l
		freed += l.cost()
		r.styles.release(l.runs)
		*l = sbLine{}
		r.n--
		r.total--
	}
	r.released(freed)
	return out
}

// cellsOf turns a stored line back into the emulator's cells.
func (r *scrollRing) cellsOf(l *sbLine, width func(string) int) uv.Line {
	cells := make(uv.Line, 0, len(l.text))
	run, left := 0, len(l.text)
	var runStyle uv.Style // the style of runs[run], looked up once per run
	if len(l.runs) > 0 {
		left, runStyle = int(l.runs[0].n), r.styles.style(l.runs[0].style)
	}
	rest, off := l.text, 0
	for len(rest) > 0 {
		g, next, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
		rest = next
		var st uv.Style
		for l.runs != nil && off >= left && run+1 < len(l.runs) {
			run++
			left += int(l.runs[run].n)
			runStyle = r.styles.style(l.runs[run].style)
		}
		if l.runs != nil && off < left {
			st = runStyle
		}
		off += len(g)
		w := width(g)
		if w <= 0 {
			continue
		}
		cells = append(cells, uv.Cell{Content: g, Width: w, Style: st})
		for range w - 1 {
			cells = append(cells, uv.Cell{})
		}
	}
	return cells
}

// Wrapped returns the soft-wrap flags of the scrollback lines (in
// Scrollback's order) followed by the screen's rows: true where a line
// continues on the next, so a copy can join them as tmux's copy mode does.
func (t *Terminal) Wrapped() []bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]bool, 0, t.ring.len()+t.emu.Height())
	for i := range t.ring.len() {
		out = append(out, t.ring.at(i).wrapped)
	}
	for y := range t.emu.Height() {
		out = append(out, t.emu.LineWrapped(y))
	}
	return out
}
