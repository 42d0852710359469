package workspace

import (
	"fmt"
	"unicode"

	uv "github.com/charmbracelet/ultraviolet"
)

// encodeExtended is EncodeKey for a program that asked for more than
// legacy keys (keymodes.go): the kitty protocol's "disambiguate" flag
// (CSI code ; mods u) or xterm's modifyOtherKeys (CSI 27 ; mods ; char ~).
// It reports false for a key that both still send the legacy way, which
// EncodeKey then encodes: unmodified and shifted text, and the keys legacy
// already sends with their modifiers (arrows, function keys, …). Without
// it, shift+enter reached such a program as enter and ctrl+shift+a as
// ctrl+a in the pane, though it asked to tell them apart.
func encodeExtended(k KeyPress, kittyFlags, modifyOther int) ([]byte, bool) {
	const locks = uv.ModCapsLock | uv.ModNumLock | uv.ModScrollLock
	mod := k.Mod &^ locks
	switch {
	case kittyFlags&1 != 0:
		return encodeKitty(k, mod)
	case modifyOther > 0:
		return encodeModifyOther(k, mod, modifyOther)
	}
	return nil, false
}

// kittyCode is the key's number in the kitty protocol for the keys this
// encoder handles: Enter, Tab, Backspace, Esc and text keys (their
// unshifted character); 0 for the others.
func kittyCode(k KeyPress) rune {
	switch k.Code {
	case uv.KeyEnter:
		return 13
	case uv.KeyTab:
		return 9
	case uv.KeyBackspace:
		return 127
	case uv.KeyEscape:
		return 27
	case uv.KeySpace:
		return ' '
	}
	if k.Code >= 0x20 && k.Code <= unicode.MaxRune && unicode.IsPrint(k.Code) {
		return unicode.ToLower(k.Code)
	}
	return 0
}

func encodeKitty(k KeyPress, mod uv.KeyMod) ([]byte, bool) {
	code := kittyCode(k)
	if code == 0 {
		return nil, false
	}
	m := xtermMod(mod)
	switch {
	case code == 27:
		// Esc is always CSI u under disambiguate.
	case mod == 0:
		return nil, false // Enter, Tab, Backspace and text: as legacy
	case mod == uv.ModShift && code != 13 && code != 9 && code != 127:
		return nil, false // shifted text is its text
	}
	if m == 1 {
		return fmt.Appendf(nil, "\x1b[%du", code), true
	}
	return fmt.Appendf(nil, "\x1b[%d;%du", code, m), true
}

// encodeModifyOther is xterm's modifyOtherKeys as tmux sends it with
// extended keys on, at either level: the extended form only for a key
// legacy cannot tell apart (ctrl+shift+letter, ctrl with a key that has no
// control byte, a modified Enter or Backspace, a Tab with ctrl), whatever
// alt adds (legacy writes alt as an ESC before the key).
//
// xterm's level 2 writes every modified key the extended way, but alice
// reads alt+key from its own terminal as ESC followed by a key, which is
// also an Escape typed just before it (a fast Esc j in vim, or any Esc
// behind a terminal that holds it, like tmux with its escape-time): vim,
// which asks for level 2, took CSI 27;3;106~ for a key of its own and lost
// the j, and Esc ctrl+a went out as ctrl+alt+a where tmux sends ESC ^A
// (black-box reports). Shift+Tab stays CSI Z, as tmux sends it.
func encodeModifyOther(k KeyPress, mod uv.KeyMod, _ int) ([]byte, bool) {
	code := kittyCode(k)
	special := code == 13 || code == 9 || code == 127
	base := mod &^ uv.ModAlt
	_, hasCtrlByte := ctrlByte(code)
	switch {
	case code == 0 || code == 27 || base == 0:
		return nil, false // unmodified, Escape, or alt alone
	case base == uv.ModShift && (!special || code == 9):
		return nil, false // shifted text, shift+Tab
	case base == uv.ModCtrl && hasCtrlByte && !special:
		return nil, false // a control byte
	}
	char := code
	if mod&uv.ModShift != 0 && !special {
		char = k.ShiftedCode
		if char == 0 {
			char = unicode.ToUpper(code)
		}
	}
	return fmt.Appendf(nil, "\x1b[27;%d;%d~", xtermMod(mod), char), true
}
