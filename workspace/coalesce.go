package workspace

import (
	"bytes"
	"slices"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
	"github.com/rivo/uniseg"
)

// Coalescing: why and how.
//
// x/vt copies the whole screen cell by cell on every line feed and shifts
// its scrollback on every pushed line, so feeding it `cat bigfile` costs
// O(lines × screen). A batch of plain output (printable text, UTF-8, CR,
// LF, TAB, SGR colours) that holds many more line feeds than the screen has
// rows only needs its last screenful drawn: everything before scrolls out.
// So for such a batch the emulator gets
//
//	head  the lines up to the one that scrolls with the cursor on the
//	      bottom row (H-cy line feeds, usually one), raw — they mix with
//	      whatever was on screen (overwrites, the cursor's row), which only
//	      the emulator can do; the screen then holds H-1 finished rows and
//	      a fresh bottom row;
//	skip  the middle lines never reach the emulator: the H-1 finished rows
//	      and the middle lines go straight into the scrollback ring as
//	      text and attribute runs, wrapped at the screen width;
//	setup cursor home + erase the screen (not ED 0 from home, which
//	      scrolls it into the scrollback) + the SGR state the middle left;
//	tail  the last H lines and the partial line, raw.
//
// The result (screen, cursor, scrollback) equals feeding everything raw;
// coalesce_test.go checks that chunk by chunk. Anything else (cursor
// addressing, alt screen, scroll regions, origin/insert/newline modes, a
// line not ended by CR LF) goes through unchanged.

// scanState is where the output stream is between batches.
type scanState uint8

const (
	scanGround scanState = iota
	scanEsc
	scanCSI
	scanString    // OSC/DCS/APC/PM/SOS body
	scanStringEsc // ESC inside a string (maybe ST)
)

// outScanner follows the escape-sequence structure of the output stream:
// whether a batch starts in the middle of a sequence, whether it holds only
// plain output, and whether the child set a scroll region (DECSTBM has no
// emulator callback).
type outScanner struct {
	state        scanState
	csiPlain     bool // the CSI being read so far can still be an SGR
	csiParams    bool // the CSI being read has parameters
	scrollRegion bool
}

// scan advances over p and reports whether p holds only plain output.
func (s *outScanner) scan(p []byte) bool {
	plain := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch s.state {
		case scanGround:
			switch {
			case c >= 0x20 && c != 0x7f, c == '\r', c == '\n', c == '\t':
			case c == 0x1b:
				s.state = scanEsc
			default:
				plain = false
			}
		case scanEsc:
			switch c {
			case '[':
				s.state, s.csiPlain, s.csiParams = scanCSI, true, false
			case ']', 'P', '_', '^', 'X':
				s.state, plain = scanString, false
			case 'c': // RIS: full reset
				s.scrollRegion, s.state, plain = false, scanGround, false
			default:
				if c >= 0x20 && c <= 0x2f { // intermediate: stay in escape
					plain = false
					continue
				}
				s.state, plain = scanGround, false
			}
		case scanCSI:
			switch {
			case c >= '0' && c <= '9', c == ';', c == ':':
				s.csiParams = true
			case c >= 0x3c && c <= 0x3f, c >= 0x20 && c <= 0x2f: // private marker, intermediates
				s.csiPlain = false
			case c >= 0x40 && c <= 0x7e:
				if c != 'm' || !s.csiPlain {
					plain = false
				}
				if c == 'r' && s.csiPlain {
					s.scrollRegion = s.csiParams
				}
				s.state = scanGround
			default:
				s.state, plain = scanGround, false
			}
		case scanString:
			switch c {
			case 0x07:
				s.state = scanGround
			case 0x1b:
				s.state = scanStringEsc
			}
		case scanStringEsc:
			if c == '\\' {
				s.state = scanGround
			} else {
				s.state = scanString
			}
		}
	}
	return plain
}

// coalescePlan splits a plain batch into head, middle and tail (see the
// comment at the top). ok is false when the batch is not worth or not safe
// to coalesce.
type coalescePlan struct {
	head, tail []byte
	middle     []byte
	middleLFs  []int // positions of the middle's line feeds, within middle
}

// planCoalesce splits p for a screen of height rows with the cursor on row
// cy. The head runs to the line feed that brings the cursor to the bottom
// and scrolls once (height-cy of them), leaving a fresh bottom row; the
// tail is the last height line feeds and what follows. It needs a
// non-empty middle, and every line from the head's last to the middle's
// last ending in CR LF so each skipped line starts in column 0. lfs is
// scratch storage.
func planCoalesce(p []byte, height, cy int, lfs []int) (coalescePlan, bool) {
	headLFs := max(1, height-cy)
	n := bytes.Count(p, []byte{'\n'})
	if n <= headLFs+height+1 {
		return coalescePlan{}, false
	}
	headEnd, off := 0, 0
	for range headLFs {
		i := bytes.IndexByte(p[off:], '\n')
		off += i + 1
	}
	headEnd = off
	if headEnd < 2 || p[headEnd-2] != '\r' {
		return coalescePlan{}, false
	}
	// tail: the last height line feeds and whatever follows them.
	tailStart := len(p)
	for range height + 1 {
		tailStart = bytes.LastIndexByte(p[:tailStart], '\n')
	}
	tailStart++
	middle := p[headEnd:tailStart]
	lfs = lfs[:0]
	for off := 0; off < len(middle); {
		i := bytes.IndexByte(middle[off:], '\n')
		if i < 0 {
			break
		}
		pos := off + i
		if pos == 0 || middle[pos-1] != '\r' {
			return coalescePlan{}, false
		}
		lfs = append(lfs, pos)
		off = pos + 1
	}
	return coalescePlan{head: p[:headEnd], middle: middle, tail: p[tailStart:], middleLFs: lfs}, true
}

// sgrState returns the SGR sequences that set the pen the middle leaves:
// everything from its last full reset on.
func sgrState(middle []byte) []byte {
	if bytes.IndexByte(middle, 0x1b) < 0 {
		return nil
	}
	// Walk back escape by escape to the last full reset: usually within
	// the last line, so this costs a line, not the batch.
	from := 0
	for end := len(middle); end > 0; {
		i := bytes.LastIndexByte(middle[:end], 0x1b)
		if i < 0 {
			break
		}
		r := middle[i:]
		if bytes.HasPrefix(r, []byte("\x1b[m")) || bytes.HasPrefix(r, []byte("\x1b[0m")) || bytes.HasPrefix(r, []byte("\x1b[0;")) {
			from = i
			break
		}
		end = i
	}
	var out []byte
	for p := middle[from:]; ; {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 || i+1 >= len(p) || p[i+1] != '[' {
			if i < 0 || i+1 >= len(p) {
				return out
			}
			p = p[i+1:]
			continue
		}
		j := bytes.IndexByte(p[i:], 'm')
		if j < 0 {
			return out
		}
		out = append(out, p[i:i+j+1]...)
		p = p[i+j+1:]
	}
}

// rowSink takes the rows renderLine lays out (the scrollback ring).
type rowSink interface {
	// Each takes whether the row is wrapped: the line goes on in the next.
	pushPlain(text string, wrapped bool)            // a row without attributes
	pushCells(cells uv.Line, wrapped bool)          // a row of cells
	push(text string, runs []attrRun, wrapped bool) // a row as text and runs
	styleID(s *uv.Style) uint32                     // the run style of s
	// sgr applies an SGR sequence's parameters to pen, whose run style
	// is from, and returns pen's run style after it.
	sgr(from uint32, params []byte, pen *uv.Style) uint32
}

// asciiStrings are the one-byte strings of printable ASCII, so laying out
// ASCII text allocates no strings. Read only.
var asciiStrings = func() (t [0x80]string) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = string(rune(c))
	}
	return t
}()

// renderLine lays one skipped line (without its CR LF) out in the screen
// rows it would have occupied at width w and hands them to out — what the
// emulator's scrollback would hold, attributes included. pen is the style
// in force at the start; the line's SGR sequences (the only escapes the
// scanner lets into a coalesced batch) update it, so it carries on to the
// next line. row is scratch of w cells. A nil out only checks. It returns
// false when it cannot be sure: x/vt's wrapping of wide characters at the
// right margin drops cells in ways not worth mirroring, so such a batch is
// fed raw instead.
func renderLine(seg []byte, w int, width func(string) int, pen *uv.Style, row uv.Line, out rowSink) bool {
	if pen.IsZero() && plainASCII(seg) {
		if out != nil {
			for len(seg) > w {
				out.pushPlain(string(seg[:w]), true)
				seg = seg[w:]
			}
			out.pushPlain(string(seg), false)
		}
		return true
	}
	if pen.Bg == nil && colouredASCII(seg) {
		if out == nil {
			return true // ASCII lays out exactly
		}
		saved := *pen
		if renderColoured(seg, w, pen, out) {
			return true
		}
		*pen = saved // a background: blank cells take it, lay out cells
	}
	// General case: a tiny row writer with deferred wrap, CR, TAB, SGR and
	// wide characters, as the emulator does it.
	// A row scrolled in (by the line feed before it or a wrap) is blank
	// in the pen's background, as the emulator does it.
	row = row[:w]
	blank := func() {
		c := uv.EmptyCell
		c.Style.Bg = pen.Bg
		for i := range row {
			row[i] = c
		}
	}
	blank()
	col, pending := 0, false
	wide, wrapped := false, false
	flush := func(wrapRow bool) {
		if out != nil {
			out.pushCells(row, wrapRow)
		}
		blank()
		col, pending = 0, false
	}
	rest := seg
	for len(rest) > 0 {
		c := rest[0]
		switch {
		case c == 0x1b:
			j := bytes.IndexByte(rest, 'm')
			if j < 0 {
				rest = nil
				continue
			}
			if j >= 2 && rest[1] == '[' {
				readSGR(rest[2:j], pen)
			}
			rest = rest[j+1:]
			continue
		case c == '\r':
			col, pending = 0, false
			rest = rest[1:]
			continue
		case c == '\t':
			if pending {
				col = w - 1
			}
			col = min((col/8+1)*8, w-1)
			pending = false
			rest = rest[1:]
			continue
		case c < 0x20 || c == 0x7f:
			rest = rest[1:]
			continue
		}
		var g string
		var cw int
		if c < 0x80 {
			g, cw = asciiStrings[c], 1
			rest = rest[1:]
		} else {
			cluster, r, _, _ := uniseg.FirstGraphemeCluster(rest, -1)
			rest = r
			g = string(cluster)
			if cw = width(g); cw <= 0 {
				continue
			}
		}
		wide = wide || cw > 1
		if pending || col+cw > w {
			flush(true)
			wrapped = true
		}
		row[col] = uv.Cell{Content: g, Width: cw, Style: *pen}
		if cw == 2 && col+1 < w {
			row[col+1] = uv.Cell{}
		}
		col += cw
		if col >= w {
			col, pending = w-1, true
			if cw == 2 {
				col = w - 2
			}
		}
	}
	flush(false)
	return !(wide && (wrapped || pending))
}

// colouredASCII reports whether seg is printable ASCII and SGR sequences
// only.
func colouredASCII(seg []byte) bool {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c != 0x1b || i+1 >= len(seg) || seg[i+1] != '[' {
			return false
		}
		j := bytes.IndexByte(seg[i:], 'm')
		if j < 0 {
			return false
		}
		for _, p := range seg[i+2 : i+j] {
			if p != ';' && p != ':' && (p < '0' || p > '9') {
				return false
			}
		}
		i += j
	}
	return true
}

// renderColoured is renderLine for printable ASCII with SGR attributes:
// text and runs straight from the bytes, no cells. It pushes nothing and
// returns false when the pen takes a background (the blank cells of a row
// scrolled in take it: renderLine's general case handles that).
func renderColoured(seg []byte, w int, pen *uv.Style, out rowSink) bool {
	type row struct {
		text    string
		runs    []attrRun
		wrapped bool
	}
	var rows []row
	var text []byte
	var scratch [32]attrRun
	runs := scratch[:0] // a row's runs, copied to their exact size when it ends
	cur := out.styleID(pen)
	runStart, col := 0, 0
	emit := func(wrapped bool) {
		if len(text) > runStart {
			runs = append(runs, attrRun{n: uint32(len(text) - runStart), style: cur})
		}
		// Blanks without attributes at the end are not stored (but for
		// a wrapped row they are text of its line).
		keep := len(text)
		for k := len(runs) - 1; !wrapped && k >= 0 && runs[k].style == 0; k-- {
			start, t := keep-int(runs[k].n), keep
			for t > start && text[t-1] == ' ' {
				t--
			}
			runs[k].n -= uint32(keep - t)
			keep = t
			if runs[k].n > 0 {
				break
			}
			runs = runs[:k]
		}
		var kept []attrRun
		if len(runs) > 1 || len(runs) == 1 && runs[0].style != 0 {
			kept = slices.Clone(runs)
		}
		rows = append(rows, row{string(text[:keep]), kept, wrapped})
		text, runs, runStart, col = text[:0], runs[:0], 0, 0
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == 0x1b {
			j := bytes.IndexByte(seg[i:], 'm')
			id := out.sgr(cur, seg[i+2:i+j], pen)
			if pen.Bg != nil {
				return false
			}
			i += j
			if id != cur {
				if len(text) > runStart {
					runs = append(runs, attrRun{n: uint32(len(text) - runStart), style: cur})
				}
				cur, runStart = id, len(text)
			}
			continue
		}
		if col == w {
			emit(true)
		}
		text = append(text, c)
		col++
	}
	emit(false)
	for _, r := range rows {
		out.push(r.text, r.runs, r.wrapped)
	}
	return true
}

// plainASCII reports whether seg is printable ASCII only.
func plainASCII(seg []byte) bool {
	for _, c := range seg {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// readSGR applies one SGR sequence's parameters ("1;38;5;103", colon
// sub-parameters allowed) to pen, as the emulator does.
func readSGR(params []byte, pen *uv.Style) {
	if len(params) == 0 {
		uv.ReadStyle(nil, pen)
		return
	}
	var ps [32]int
	n, cur, have := 0, 0, false
	for i := 0; i <= len(params) && n < len(ps); i++ {
		if i < len(params) && params[i] >= '0' && params[i] <= '9' {
			cur, have = cur*10+int(params[i]-'0'), true
			continue
		}
		if !have {
			cur = parser.MissingParam
		}
		if i < len(params) && params[i] == ':' {
			cur |= parser.HasMoreFlag
		}
		ps[n] = cur
		n++
		cur, have = 0, false
	}
	uv.ReadStyle(ansi.ToParams(ps[:n]), pen)
}

// applySGR applies every SGR sequence in b to pen.
func applySGR(b []byte, pen *uv.Style) {
	for {
		i := bytes.Index(b, []byte("\x1b["))
		if i < 0 {
			return
		}
		j := bytes.IndexByte(b[i:], 'm')
		if j < 0 {
			return
		}
		readSGR(b[i+2:i+j], pen)
		b = b[i+j+1:]
	}
}
