package workspace

import (
	"slices"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// DefaultScrollbackLines caps a session's scrollback when Options leave it
// unset.
const DefaultScrollbackLines = 10000

// lineOverhead is what a stored line costs beside its text and runs (the
// slot in the ring), counted against the total budget.
const lineOverhead = 48

// attrRun gives the next n bytes of a line's text one style: 0 for no
// attributes, else the style inline or its id in the ring's style table
// (scrollstyles.go).
type attrRun struct {
	n     uint32
	style uint32
}

// sbLine is one line of scrollback, stored compactly: its text (blanks
// without attributes trimmed at the end) and the runs of attributes over
// it (nil for a line without any), not cells.
type sbLine struct {
	text    string
	runs    []attrRun
	seq     uint64 // order across every session's ring (the budget trims the oldest)
	wrapped bool   // the line continues on the next (the cursor wrapped at the margin)
	// used is how many cells the line held on the screen (tmux's
	// cellused: erased cells count, blanks that only took the background
	// do not), -1 when unknown; a reflow reads it (reflow.go).
	used int32
}

func (l *sbLine) cost() int64 { return int64(len(l.text)+8*len(l.runs)) + lineOverhead }

// scrollRing is a session's scrollback: the lines that left the top of the
// main screen, oldest first, capped at a number of lines and sharing a
// total byte budget with the other sessions. It is the one place
// scrollback lives — lines the emulator scrolled off are drained into it
// after every write, and lines the coalescer skipped are rendered straight
// into it — so the order is the order they scrolled. A ring (not a slice
// that shifts) keeps a push O(1) at any size.
type scrollRing struct {
	max       int
	lines     []sbLine
	start     int   // index of the oldest line once full
	n         int   // lines held (n < len(lines) after the budget trimmed some)
	total     int64 // lines ever pushed
	bytes     int64 // cost of the lines held and of their styles in the table
	styles    styleTable
	renumbers int           // style table renumberings (tests)
	budget    *ScrollBudget // nil: lines cap only
}

func newScrollRing(capacity int, budget *ScrollBudget) *scrollRing {
	if capacity <= 0 {
		capacity = DefaultScrollbackLines
	}
	return &scrollRing{max: capacity, budget: budget}
}

// push appends a line, dropping the oldest when full. The slice grows to
// the cap lazily so idle sessions cost nothing.
func (r *scrollRing) push(text string, runs []attrRun, wrapped bool) {
	r.pushLine(sbLine{text: text, runs: runs, wrapped: wrapped, used: -1})
}

// pushLine appends l.
func (r *scrollRing) pushLine(l sbLine) {
	r.total++
	if r.budget != nil {
		l.seq = r.budget.next()
	}
	r.styles.hold(l.runs)
	var delta int64
	if r.n == len(r.lines) && len(r.lines) < r.max && r.start != 0 {
		// Trimmed by the budget and full again below the cap: put the
		// oldest first so the ring can grow at the end.
		r.lines = append(append(make([]sbLine, 0, len(r.lines)+1), r.lines[r.start:]...), r.lines[:r.start]...)
		r.start = 0
	}
	switch {
	case len(r.lines) < r.max && r.n == len(r.lines):
		r.lines = append(r.lines, l)
		r.n++
	case r.n < len(r.lines): // the budget trimmed the oldest: reuse its slot
		i := (r.start + r.n) % len(r.lines)
		r.lines[i] = l
		r.n++
	default:
		old := &r.lines[r.start]
		r.styles.release(old.runs)
		delta -= old.cost()
		*old = l
		r.start = (r.start + 1) % len(r.lines)
	}
	r.account(delta + l.cost())
}

// pushPlain appends a line without attributes. A wrapped line keeps its
// blanks: they are text of the line it continues.
func (r *scrollRing) pushPlain(text string, wrapped bool) {
	if !wrapped {
		text = strings.TrimRight(text, " ")
	}
	r.push(text, nil, wrapped)
}

// pushCells appends a row of the emulator's cells as text and runs (a
// wrapped row whole, blanks at the margin included).
func (r *scrollRing) pushCells(cells uv.Line, wrapped bool) {
	r.pushRow(cells, wrapped, -1)
}

// pushRow is pushCells with the cells the row's line used (-1: unknown).
func (r *scrollRing) pushRow(cells uv.Line, wrapped bool, used int) {
	var b strings.Builder
	var scratch [32]attrRun
	runs := scratch[:0] // copied to their exact size at the end
	var cur uint32
	var prev uv.Style
	runStart, keep := 0, 0 // keep: bytes up to the last cell that is not a default blank
	for i := range cells {
		c := &cells[i]
		if c.IsZero() {
			continue // the second cell of a wide character
		}
		s := c.Content
		if s == "" {
			s = " "
		}
		id := cur
		if i == 0 || !c.Style.Equal(&prev) {
			id, prev = r.styleID(&c.Style), c.Style
		}
		if id != cur {
			if b.Len() > runStart {
				runs = append(runs, attrRun{n: uint32(b.Len() - runStart), style: cur})
			}
			cur, runStart = id, b.Len()
		}
		b.WriteString(s)
		if id != 0 || s != " " || wrapped {
			keep = b.Len()
		}
	}
	text := b.String()[:keep]
	if runStart < keep {
		runs = append(runs, attrRun{n: uint32(keep - runStart), style: cur})
	}
	var kept []attrRun
	if len(runs) > 1 || len(runs) == 1 && runs[0].style != 0 {
		kept = slices.Clone(runs)
	}
	r.pushLine(sbLine{text: text, runs: kept, wrapped: wrapped, used: int32(max(used, -1))})
}

// unwrapNewest clears the newest line's wrap flag (the screen's top row
// was cleared or moved, as tmux's grid clears the flag of the row above).
func (r *scrollRing) unwrapNewest() {
	if r.n > 0 {
		r.at(r.n - 1).wrapped = false
	}
}

// at returns the i-th held line, oldest first.
func (r *scrollRing) at(i int) *sbLine { return &r.lines[(r.start+i)%len(r.lines)] }

// snapshot returns the lines oldest first, as plain text.
func (r *scrollRing) snapshot() []string {
	out := make([]string, r.n)
	for i := range out {
		out[i] = strings.TrimRight(r.at(i).text, " ")
	}
	return out
}

// styled returns the lines oldest first with their attributes as SGR
// sequences, each line ending with its attributes reset.
func (r *scrollRing) styled() []string {
	out := make([]string, r.n)
	var b strings.Builder
	for i := range out {
		l := r.at(i)
		if l.runs == nil {
			out[i] = l.text
			continue
		}
		b.Reset()
		off := 0
		for _, run := range l.runs {
			seg := l.text[off : off+int(run.n)]
			off += int(run.n)
			if run.style == 0 {
				b.WriteString(seg)
				continue
			}
			st := r.styles.style(run.style)
			b.WriteString(st.String())
			b.WriteString(seg)
			b.WriteString(ansi.ResetStyle)
		}
		b.WriteString(l.text[off:])
		out[i] = b.String()
	}
	return out
}

func (r *scrollRing) len() int { return r.n }

// oldestSeq is the budget order of the oldest line (ok false when empty).
func (r *scrollRing) oldestSeq() (uint64, bool) {
	if r.n == 0 {
		return 0, false
	}
	return r.at(0).seq, true
}

// trimOldest drops the oldest lines — at most n, only those pushed before
// seq before (0: any), until want bytes are freed — and returns the bytes
// freed (taken off the budget too), styles no line uses any more included.
// It runs between pushes (reclaimStyles).
func (r *scrollRing) trimOldest(n int, before uint64, want int64) int64 {
	var freed int64
	for ; n > 0 && r.n > 0 && freed < want; n-- {
		l := r.at(0)
		if before != 0 && l.seq >= before {
			break
		}
		freed += l.cost()
		r.styles.release(l.runs)
		*l = sbLine{}
		r.start = (r.start + 1) % len(r.lines)
		r.n--
	}
	r.released(freed)
	return freed + r.reclaimStyles()
}

// released accounts for the bytes of lines just removed (freed) and
// resets a ring they emptied.
func (r *scrollRing) released(freed int64) {
	r.account(-freed)
	if r.n == 0 {
		r.lines, r.start = nil, 0
	}
}

func (r *scrollRing) clear() {
	if r.budget != nil {
		r.budget.add(-r.bytes)
	}
	clear(r.lines)
	r.lines, r.start, r.n, r.bytes = r.lines[:0], 0, 0, 0
	r.styles = styleTable{}
}
