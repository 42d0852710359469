package workspace

import (
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

// attrRun gives the next n bytes of a line's text one style, by its index
// in the ring's style table (0: no attributes).
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
	max    int
	lines  []sbLine
	start  int   // index of the oldest line once full
	n      int   // lines held (n < len(lines) after the budget trimmed some)
	total  int64 // lines ever pushed
	bytes  int64 // cost of the lines held
	styles styleTable
	// compactAfter defers the next style compaction until this many lines
	// were ever pushed (total), after one that found most styles in use.
	compactAfter int64
	compactions  int           // how many ran (tests)
	budget       *ScrollBudget // nil: lines cap only
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
		delta -= r.lines[r.start].cost()
		r.lines[r.start] = l
		r.start = (r.start + 1) % len(r.lines)
	}
	delta += l.cost()
	r.bytes += delta
	if r.budget != nil {
		r.budget.add(delta)
	}
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
	var runs []attrRun
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
			id, prev = r.styles.id(&c.Style), c.Style
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
	if len(runs) == 1 && runs[0].style == 0 {
		runs = nil
	}
	r.pushLine(sbLine{text: text, runs: runs, wrapped: wrapped, used: int32(max(used, -1))})
}

// styleID numbers a style for runs (rowSink).
func (r *scrollRing) styleID(s *uv.Style) uint32 { return r.styles.id(s) }

// sgr applies an SGR sequence to pen (rowSink); the result for a given
// style and sequence is remembered, so a stream that cycles through a few
// colours parses each sequence once.
func (r *scrollRing) sgr(from uint32, params []byte, pen *uv.Style) uint32 {
	var k sgrKey
	cacheable := len(params) < len(k)-4 && len(r.styles.list) < maxStyles
	if cacheable {
		k[0], k[1], k[2], k[3] = byte(from), byte(from>>8), byte(from>>16), byte(from>>24)
		copy(k[4:], params)
		k[4+len(params)] = 'm'
		if id, ok := r.styles.sgr[k]; ok {
			if id == 0 {
				*pen = uv.Style{}
			} else {
				*pen = r.styles.list[id]
			}
			return id
		}
	}
	readSGR(params, pen)
	id := r.styles.id(pen)
	if cacheable && (id != 0 || pen.IsZero()) {
		if r.styles.sgr == nil {
			r.styles.sgr = map[sgrKey]uint32{}
		}
		r.styles.sgr[k] = id
	}
	return id
}

// sgrKey is a run style and an SGR sequence's parameters (ended by 'm').
type sgrKey [28]byte

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
			st := r.styles.list[run.style]
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
// freed (taken off the budget too).
func (r *scrollRing) trimOldest(n int, before uint64, want int64) int64 {
	var freed int64
	for ; n > 0 && r.n > 0 && freed < want; n-- {
		l := r.at(0)
		if before != 0 && l.seq >= before {
			break
		}
		freed += l.cost()
		*l = sbLine{}
		r.start = (r.start + 1) % len(r.lines)
		r.n--
	}
	r.released(freed)
	return freed
}

// released accounts for the bytes of lines just removed (freed) and
// resets a ring they emptied.
func (r *scrollRing) released(freed int64) {
	r.bytes -= freed
	if r.budget != nil {
		r.budget.add(-freed)
	}
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

// maxStyles bounds a ring's style table; when it is full the table is
// rebuilt from the lines still held, and styles beyond it are dropped.
const maxStyles = 1 << 16

// styleTable numbers the distinct styles of a ring's lines (0 is the
// empty style), so a run costs 8 bytes whatever its colours.
type styleTable struct {
	list []uv.Style
	ids  map[uv.Style]uint32
	sgr  map[sgrKey]uint32 // what an SGR sequence makes of a style
}

func (t *styleTable) id(s *uv.Style) uint32 {
	if s.IsZero() {
		return 0
	}
	if id, ok := t.ids[*s]; ok {
		return id
	}
	if t.ids == nil {
		t.list, t.ids = []uv.Style{{}}, map[uv.Style]uint32{}
	}
	if len(t.list) >= maxStyles {
		return 0
	}
	id := uint32(len(t.list))
	t.list = append(t.list, *s)
	t.ids[*s] = id
	return id
}

// compactStyles renumbers the styles the ring's lines still use, dropping
// the rest, when the table is full. It runs between pushes (style ids
// handed out before it are stale after it).
//
// A compaction walks every run of the ring. When it finds most of the
// table still in use (the lines held really have that many colours, as
// with 24-bit gradients), the next one waits until half of the ring has
// been pushed again — before that it would free next to nothing — and
// styles beyond the table are dropped meanwhile. Compacting again at every
// push once the table was full took minutes of CPU for a few thousand
// lines of a colour gradient.
func (r *scrollRing) compactStyles() {
	if len(r.styles.list) < maxStyles || r.total < r.compactAfter {
		return
	}
	r.compactions++
	old := r.styles
	r.styles = styleTable{}
	for i := 0; i < r.n; i++ {
		l := r.at(i)
		for j := range l.runs {
			if s := l.runs[j].style; s != 0 {
				l.runs[j].style = r.styles.id(&old.list[s])
			}
		}
	}
	if len(r.styles.list) >= maxStyles*3/4 {
		r.compactAfter = r.total + int64(max(r.n/2, 1))
	}
}
