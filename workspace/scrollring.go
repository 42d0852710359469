package workspace

// DefaultScrollbackLines caps a session's scrollback when Options leave it
// unset.
const DefaultScrollbackLines = 10000

// scrollRing is a session's scrollback: the plain-text lines that left the
// top of the main screen, oldest first, capped at a fixed number. It is the
// one place scrollback lives — lines the emulator scrolled off are drained
// into it after every write, and lines the coalescer skipped are rendered
// straight into it — so the order is the order they scrolled. A ring (not
// a slice that shifts) keeps a push O(1) at any size.
type scrollRing struct {
	max   int
	lines []string
	start int   // index of the oldest line once full
	total int64 // lines ever pushed
}

func newScrollRing(capacity int) *scrollRing {
	if capacity <= 0 {
		capacity = DefaultScrollbackLines
	}
	return &scrollRing{max: capacity}
}

// push appends a line, dropping the oldest when full. The slice grows to
// the cap lazily so idle sessions cost nothing.
func (r *scrollRing) push(line string) {
	r.total++
	if len(r.lines) < r.max {
		r.lines = append(r.lines, line)
		return
	}
	r.lines[r.start] = line
	r.start = (r.start + 1) % len(r.lines)
}

// snapshot returns the lines oldest first.
func (r *scrollRing) snapshot() []string {
	out := make([]string, 0, len(r.lines))
	out = append(out, r.lines[r.start:]...)
	return append(out, r.lines[:r.start]...)
}

func (r *scrollRing) len() int { return len(r.lines) }

func (r *scrollRing) clear() {
	r.lines, r.start = r.lines[:0], 0
}
