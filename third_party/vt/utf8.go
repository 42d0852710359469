package vt

import (
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// printableASCII reports whether r is a character that can never join the
// grapheme cluster beside it. No ASCII character is a combining mark, a ZWJ, a
// spacing mark or a regional indicator, and CR and LF are not printable, so a
// cluster boundary between two of these is certain without asking the
// segmenter.
func printableASCII(r rune) bool {
	return r >= ansi.SP && r < ansi.DEL
}

// handlePrint handles printable characters.
//
// A character is held back rather than printed straight away, because the one
// after it may be a combining mark that belongs to the same cluster. Printing
// "e" from "e\u0301" before the mark arrives puts the base in one cell and
// leaves the mark to become a zero-width cell of its own, which the next write
// or erase then destroys.
func (e *Emulator) handlePrint(r rune) {
	// No ASCII character can extend the cluster before it: none of them is
	// Extend, ZWJ, SpacingMark, Prepend, a regional indicator, or part of an
	// Indic conjunct. So an ASCII character arriving is proof that whatever is
	// buffered is finished, and the buffer can go out.
	//
	// This is also what keeps the buffer from being re-segmented as it grows.
	// Asking where the clusters are on every character costs the length of the
	// buffer each time, which is quadratic over a long run of combining marks
	// that never resolves into more than one cluster.
	if printableASCII(r) {
		// Two printable ASCII characters in a row is the common case by a wide
		// margin, and needs no segmenting at all.
		if len(e.grapheme) == 1 && printableASCII(rune(e.grapheme[0])) {
			// alice patch: a one-byte slice converts without allocating
			// (string(byte) allocated per character).
			e.lastChar = rune(e.grapheme[0]) // alice patch: see flushGrapheme
			e.handleGrapheme(string(e.grapheme[:1]), 1)
			e.grapheme = utf8.AppendRune(e.grapheme[:0], r)
			return
		}
		e.flushGrapheme()
	}

	e.grapheme = utf8.AppendRune(e.grapheme, r)
}

// flushGrapheme flushes the current grapheme buffer, if any, and handles the
// grapheme as a single unit.
func (e *Emulator) flushGrapheme() {
	if len(e.grapheme) == 0 {
		return
	}

	// XXX: We always use [ansi.GraphemeWidth] here to report accurate widths
	// and it's up to the caller to decide how to handle Unicode vs non-Unicode
	// modes.
	method := ansi.GraphemeWidth
	graphemes := e.grapheme
	for len(graphemes) > 0 {
		cluster, width := ansi.FirstGraphemeCluster(graphemes, method)
		if len(cluster) == 0 {
			break
		}
		// alice patch: REP repeats only a printable ASCII character
		// printed right before it (tmux's ictx->last: any other
		// character, control or sequence forgets it; handleControl,
		// handleCsi, handleEsc and the string handlers reset it).
		e.lastChar = 0
		if len(cluster) == 1 && cluster[0] < 0x80 {
			e.lastChar = rune(cluster[0])
		}
		e.handleGrapheme(string(cluster), width)
		graphemes = graphemes[len(cluster):]
	}
	e.grapheme = e.grapheme[:0] // Reset the grapheme buffer.
}

// handleGrapheme handles UTF-8 graphemes.
func (e *Emulator) handleGrapheme(content string, width int) {
	awm := e.autoWrap // alice patch: was isModeSet, a map lookup per character
	// alice patch: the common case — one narrow character, no pending
	// wrap, no autowrap-off or insert mode, no single shift, no charset
	// designated — is written into the cell in place (setNarrow), without
	// building a cell from the pen and copying it twice (a third of the
	// emulator's time on a full-screen flood).
	if width == 1 && len(content) == 1 && !e.printModes && !e.atPhantom && e.gsingle == 0 && e.charsets[e.gl] == nil {
		x, y := e.scr.CursorPosition()
		if e.scr.setNarrow(x, y, content) {
			e.atPhantom = awm && x+1 >= e.scr.Width()
			if !e.atPhantom {
				x++
			}
			e.scr.setCursor(x, y, false)
			return
		}
	}
	cell := uv.Cell{
		Content: content,
		Width:   width,
		Style:   e.scr.cursorPen(),
		Link:    e.scr.cursorLink(),
	}

	x, y := e.scr.CursorPosition()
	// alice patch: autowrap off or insert mode (rare; one test for both,
	// kept by setMode, as this runs for every printed character).
	if e.printModes {
		// With autowrap off, a character written while a wrap is
		// pending (autowrap was turned off after the margin was
		// reached) and a wide character that does not fit before the
		// right margin are dropped, as in tmux (screen_write_cell: "If
		// this character doesn't fit, ignore it", then the cursor
		// sanity check). The pending wrap stays.
		if !awm && (e.atPhantom || width > 1 && x+width > e.scr.Width()) {
			e.gsingle = 0
			return
		}
		// Insert mode (IRM) makes room for the character where the
		// cursor is, before any wrap, with default blanks, as tmux's
		// screen_write_cell (it was not implemented); past the margin
		// there is nothing to move.
		if e.insertMode && !e.atPhantom {
			e.scr.insertCells(x, y, max(width, 1), nil)
		}
	}
	// alice patch: a wide character that does not fit before the right
	// margin wraps first, as in xterm and tmux.
	if e.atPhantom && awm || awm && width > 1 && x+width > e.scr.Width() {
		// moves cursor down similar to [Terminal.linefeed] except it doesn't
		// respects [ansi.LNM] mode.
		// This will reset the phantom state i.e. pending wrap state.
		// alice patch: the row continues on the next (soft wrap).
		e.scr.setWrapped(y, true)
		e.index()
		_, y = e.scr.CursorPosition()
		x = 0
	}

	// A single shift applies to the next character, whatever that character
	// turns out to be. Take it now, so it cannot leak onto the one after this
	// when this is a cluster no charset has a mapping for.
	single := e.gsingle
	e.gsingle = 0

	// Handle character set mappings
	if len(content) == 1 { //nolint:nestif
		var charset CharSet
		c := content[0]
		if single > 1 && single < 4 {
			charset = e.charsets[single]
		} else if c < 128 {
			charset = e.charsets[e.gl]
		} else {
			charset = e.charsets[e.gr]
		}

		if charset != nil {
			if r, ok := charset[c]; ok {
				cell.Content = r
				cell.Width = 1
			}
		}
	}

	e.scr.SetCell(x, y, &cell)

	// Handle phantom state at the end of the line
	// alice patch: a wide character that ends at the margin arms pending
	// wrap too (x #977), with the cursor on the last column.
	e.atPhantom = awm && x+max(cell.Width, 1) >= e.scr.Width()
	if e.atPhantom {
		x = e.scr.Width() - 1
	} else {
		x += cell.Width
	}

	// NOTE: We don't reset the phantom state here, we handle it up above.
	e.scr.setCursor(x, y, false)
}
