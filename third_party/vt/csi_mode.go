package vt

import (
	"io"

	"github.com/charmbracelet/x/ansi"
)

func (e *Emulator) handleMode(params ansi.Params, set, isAnsi bool) {
	for _, p := range params {
		param := p.Param(-1)
		if param == -1 {
			// Missing parameter, ignore
			continue
		}

		var mode ansi.Mode = ansi.DECMode(param)
		if isAnsi {
			mode = ansi.ANSIMode(param)
		} else if param == 47 {
			// alice patch: 47, xterm's first alternate screen, is 1047,
			// as in tmux (it was ignored: the program drew over the
			// main screen).
			mode = ansi.ModeAltScreen
		}

		setting := e.modes[mode]
		if setting == ansi.ModePermanentlyReset || setting == ansi.ModePermanentlySet {
			// Permanently set modes are ignored.
			continue
		}

		setting = ansi.ModeReset
		if set {
			setting = ansi.ModeSet
		}

		e.setMode(mode, setting)
	}
}

// setAltScreenMode sets the alternate screen mode.
//
// alice patch: fromAlt says the cursor the main screen gets back is the
// alternate screen's (1047), not its own (see leaveAltSize).
func (e *Emulator) setAltScreenMode(on, fromAlt bool) {
	// alice patch: the main screen, which kept its size, is resized to
	// the alternate screen's as tmux's screen_alternate_off.
	if !on && e.scr == &e.scrs[1] {
		e.leaveAltSize(fromAlt)
	}
	// alice patch: leaving (or asking to leave) the alternate screen ends
	// a pending wrap, as tmux's screen_alternate_off puts its cursor on
	// the last column at most.
	if !on {
		e.atPhantom = false
	}
	if (on && e.scr == &e.scrs[1]) || (!on && e.scr == &e.scrs[0]) {
		// Already in alternate screen mode, or normal screen, do nothing.
		return
	}
	// alice patch: one scroll region for both screens, as in tmux (its
	// screen's rupper/rlower): the alternate screen had a full one.
	if on {
		// alice patch: the alternate screen gets its cells now, at the
		// main screen's size (it has none while the main screen is on).
		e.scrs[1].Resize(e.scrs[0].Width(), e.scrs[0].Height())
		e.scrs[1].scroll = e.scrs[0].scroll
	} else {
		e.scrs[0].scroll = e.scrs[1].scroll
	}
	if on {
		e.scr = &e.scrs[1]
		e.scrs[1].cur = e.scrs[0].cur
		e.scr.Clear()
		e.scr.ClearTouched()
		// alice patch: the cursor stays where it was, as in xterm and
		// tmux (it was moved to the top left).
	} else {
		e.scr = &e.scrs[0]
		// alice patch: at most the last row and column, as tmux.
		c := &e.scrs[0].cur
		c.X, c.Y = min(max(c.X, 0), e.scr.Width()-1), min(max(c.Y, 0), e.scr.Height()-1)
		// alice patch: the alternate screen's cells go; entering it
		// again clears it anyway (as tmux's screen_alternate_on).
		e.scrs[1].release()
	}
	if e.cb.AltScreen != nil {
		e.cb.AltScreen(on)
	}
	if e.cb.CursorVisibility != nil {
		e.cb.CursorVisibility(!e.scr.cur.Hidden)
	}
}

// saveCursor saves the cursor position and pen (DECSC, SCOSC).
// alice patch: one saved cursor for both screens, as tmux's
// input_save_state (each screen had its own, and 1049h overwrote it).
func (e *Emulator) saveCursor() {
	e.saved = e.scr.cur
	e.savedOrigin = e.isModeSet(ansi.DECOM)
	e.savedPast = e.atPhantom
}

// restoreCursor restores the cursor position and pen (DECRC, SCORC).
func (e *Emulator) restoreCursor() {
	// alice patch: the position (at most the last column and row, which
	// ends a pending wrap) and the pen, as tmux's input_restore_state;
	// the cursor's visibility and shape are not saved state.
	e.scr.cur.Pen, e.scr.cur.Link = e.saved.Pen, e.saved.Link
	// Origin mode is saved state in tmux too; the position is absolute.
	// (setMode, so the mode callbacks hear of it; its homing of the
	// cursor is undone just below.)
	if e.isModeSet(ansi.DECOM) != e.savedOrigin {
		setting := ansi.ModeReset
		if e.savedOrigin {
			setting = ansi.ModeSet
		}
		e.setMode(ansi.DECOM, setting)
	}
	// Saved past the margin, tmux's column is one more: on a wider
	// screen that column (it was the old last one).
	x := e.saved.X
	if e.savedPast {
		x++
	}
	e.scr.setCursor(x, e.saved.Y, false)
	e.atPhantom = false
}

// alice patch: 1049h saves the cursor and pen (screen_alternate_on) apart
// from DECSC, when it enters the alternate screen; 1049l restores the
// last ones saved, even when the alternate screen is not on
// (screen_alternate_off: "This happens even if not currently in the
// alternate screen"), and leaves the cursor where it is when 1049h never
// saved one (the alternate screen was entered with 1047).
//
// The main screen's cursor does not move while the alternate screen is on
// (Resize moves it with the main screen's rows), so when 1049h entered
// the alternate screen, going back to the main screen is the restore.
func (e *Emulator) setAltScreenSaveCursor(on bool) {
	inAlt := e.scr == &e.scrs[1]
	fromAlt := false
	switch {
	case on && !inAlt:
		e.altSaved, e.altSavedSet, e.altBy1049 = e.scr.cur, true, true
		e.altSavedPast = e.atPhantom
	case !on && inAlt && !e.altBy1049:
		e.scrs[0].cur = e.scrs[1].cur // entered by 1047: one cursor
		fromAlt = true
		if e.altSavedSet {
			// An earlier 1049h saved one: restored before the main
			// screen is resized back, as tmux.
			c := &e.scrs[0].cur
			c.X, c.Y, c.Pen, c.Link = e.altSaved.X, e.altSaved.Y, e.altSaved.Pen, e.altSaved.Link
			if e.altSavedPast {
				c.X++
			}
			fromAlt = false
		}
	}
	e.setAltScreenMode(on, fromAlt)
	if !on && e.altSavedSet && !inAlt {
		e.scr.cur.Pen, e.scr.cur.Link = e.altSaved.Pen, e.altSaved.Link
		x := e.altSaved.X
		if e.altSavedPast {
			x++
		}
		e.scr.setCursor(x, e.altSaved.Y, false)
	}
}

// setMode sets the mode to the given value.
func (e *Emulator) setMode(mode ansi.Mode, setting ansi.ModeSetting) {
	e.logf("setting mode %T(%v) to %v", mode, mode, setting)
	e.modes[mode] = setting
	if mode == ansi.ModeAutoWrap {
		// alice patch: cached for handleGrapheme (a map lookup per
		// printed character was a sixth of the emulator's time).
		e.autoWrap = setting.IsSet()
	}
	if mode == ansi.ModeInsertReplace {
		e.insertMode = setting.IsSet() // alice patch, as autoWrap
	}
	e.printModes = !e.autoWrap || e.insertMode
	switch mode {
	case ansi.ModeOrigin:
		// alice patch: setting or resetting origin mode homes the cursor
		// (to the region's top when set), as tmux and xterm.
		e.setCursorPosition(0, 0)
	case ansi.ModeTextCursorEnable:
		e.scr.setCursorHidden(!setting.IsSet())
	case ansi.ModeAltScreen:
		// alice patch: 1047 does not save or restore the cursor, as in
		// tmux: leaving, the cursor stays where it was on the alternate
		// screen (one cursor for both screens).
		switch {
		case setting.IsSet() && e.scr == &e.scrs[0]:
			e.altBy1049 = false
		case !setting.IsSet() && e.scr == &e.scrs[1]:
			e.scrs[0].cur = e.scrs[1].cur
		}
		e.setAltScreenMode(setting.IsSet(), true)
	case ansi.ModeSaveCursor:
		if setting.IsSet() {
			e.saveCursor()
		} else {
			e.restoreCursor()
		}
	case ansi.ModeAltScreenSaveCursor: // Alternate Screen Save Cursor (1047 & 1048)
		e.setAltScreenSaveCursor(setting.IsSet())
	case ansi.ModeInBandResize:
		if setting.IsSet() {
			_, _ = io.WriteString(e.pw, ansi.InBandResize(e.Height(), e.Width(), 0, 0))
		}
	}
	if setting.IsSet() {
		if e.cb.EnableMode != nil {
			e.cb.EnableMode(mode)
		}
	} else if setting.IsReset() {
		if e.cb.DisableMode != nil {
			e.cb.DisableMode(mode)
		}
	}
}

// IsModeSet reports whether the mode is set (alice patch: the terminal
// writes pastes to the pty itself and asks for bracketed paste).
func (e *Emulator) IsModeSet(mode ansi.Mode) bool { return e.isModeSet(mode) }

// isModeSet returns true if the mode is set.
func (e *Emulator) isModeSet(mode ansi.Mode) bool {
	m, ok := e.modes[mode]
	return ok && m.IsSet()
}
