package vt

import (
	"github.com/charmbracelet/x/ansi"
)

// handleEsc handles an escape sequence.
func (e *Emulator) handleEsc(cmd ansi.Cmd) {
	e.flushGrapheme() // Flush any pending grapheme before handling ESC sequences.
	if !e.handlers.handleEsc(int(cmd)) {
		var str string
		if inter := cmd.Intermediate(); inter != 0 {
			str += string(inter) + " "
		}
		if final := cmd.Final(); final != 0 {
			str += string(final)
		}
		e.logf("unhandled sequence: ESC %q", str)
	}
	e.lastChar = 0 // alice patch: see flushGrapheme
}

// fullReset performs a full terminal reset as in [ansi.RIS].
//
// alice patch: as tmux's RIS (input_reset_cell, screen_write_reset), only
// the screen in use is cleared, and it stays in use: the alternate screen
// is not left, the main screen under it and the cursor 1049h saved are
// kept. The main screen's rows go to the scrollback, as an ED 2. (Both
// screens were reset, and resetting the modes left the alternate screen
// or not, and restored a saved cursor or not, by map order.)
func (e *Emulator) fullReset() {
	if e.scr == &e.scrs[0] {
		e.scr.ClearWithScrollback()
	}
	e.scr.Reset()
	e.resetTabStops()

	// XXX: Do we reset all modes here? Investigate.
	e.resetModes()

	e.gl, e.gr = 0, 1
	e.gsingle = 0
	e.charsets = [4]CharSet{}
	e.atPhantom = false
	e.saved, e.savedOrigin, e.savedPast = Cursor{}, false, false
	e.grapheme = e.grapheme[:0]
	e.lastChar = 0
}
