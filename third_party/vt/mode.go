package vt

import "github.com/charmbracelet/x/ansi"

// resetModes resets all modes to their default values.
//
// alice patch: the alternate screen modes keep their values while the
// alternate screen is on (a reset does not leave it, as tmux), and the
// modes' effects are applied in a fixed order, leaving out those that
// switch screens or restore a cursor (they ran in map order).
func (e *Emulator) resetModes() {
	inAlt := e.scr == &e.scrs[1]
	alt, altSave := e.modes[ansi.ModeAltScreen], e.modes[ansi.ModeAltScreenSaveCursor]
	e.modes = ansi.Modes{
		// Recognized modes and their default values.
		ansi.ModeCursorKeys:          ansi.ModeReset, // ?1
		ansi.ModeOrigin:              ansi.ModeReset, // ?6
		ansi.ModeAutoWrap:            ansi.ModeSet,   // ?7
		ansi.ModeMouseX10:            ansi.ModeReset, // ?9
		ansi.ModeLineFeedNewLine:     ansi.ModeReset, // ?20
		ansi.ModeTextCursorEnable:    ansi.ModeSet,   // ?25
		ansi.ModeNumericKeypad:       ansi.ModeReset, // ?66
		ansi.ModeLeftRightMargin:     ansi.ModeReset, // ?69
		ansi.ModeMouseNormal:         ansi.ModeReset, // ?1000
		ansi.ModeMouseHighlight:      ansi.ModeReset, // ?1001
		ansi.ModeMouseButtonEvent:    ansi.ModeReset, // ?1002
		ansi.ModeMouseAnyEvent:       ansi.ModeReset, // ?1003
		ansi.ModeFocusEvent:          ansi.ModeReset, // ?1004
		ansi.ModeMouseExtSgr:         ansi.ModeReset, // ?1006
		ansi.ModeAltScreen:           ansi.ModeReset, // ?1047
		ansi.ModeSaveCursor:          ansi.ModeReset, // ?1048
		ansi.ModeAltScreenSaveCursor: ansi.ModeReset, // ?1049
		ansi.ModeBracketedPaste:      ansi.ModeReset, // ?2004
	}

	e.insertMode = false // alice patch: IRM is not in the map
	e.printModes = !e.autoWrap

	if inAlt {
		e.modes[ansi.ModeAltScreen], e.modes[ansi.ModeAltScreenSaveCursor] = alt, altSave
	}

	// Set mode effects.
	for _, mode := range resetEffects {
		e.setMode(mode, e.modes[mode])
	}
}

// resetEffects are the modes whose effects resetModes applies, in order:
// every default mode but the alternate screens and the saved cursor.
var resetEffects = []ansi.Mode{
	ansi.ModeCursorKeys, ansi.ModeOrigin, ansi.ModeAutoWrap, ansi.ModeMouseX10,
	ansi.ModeLineFeedNewLine, ansi.ModeTextCursorEnable, ansi.ModeNumericKeypad,
	ansi.ModeLeftRightMargin, ansi.ModeMouseNormal, ansi.ModeMouseHighlight,
	ansi.ModeMouseButtonEvent, ansi.ModeMouseAnyEvent, ansi.ModeFocusEvent,
	ansi.ModeMouseExtSgr, ansi.ModeBracketedPaste,
}
