package workspace

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// EncodeKey turns a decoded key press back into the bytes xterm would send
// for it, so an attached child reads exactly what it would read in a real
// terminal. appCursor is DECCKM (application cursor keys), which switches
// unmodified arrows/Home/End from CSI to SS3.
//
// Why our own encoder: x/vt's SendKey matches on the key code only and so
// drops the text of shifted keys (shift+a arrived as nothing). The decoded
// key carries the typed text; that text is what the child must see.
func EncodeKey(k KeyPress, appCursor bool) []byte {
	const locks = uv.ModCapsLock | uv.ModNumLock | uv.ModScrollLock
	mod := k.Mod &^ locks
	alt := mod&(uv.ModAlt|uv.ModMeta) != 0
	prefix := func(b []byte) []byte {
		if alt && len(b) > 0 {
			return append([]byte{0x1b}, b...)
		}
		return b
	}
	// Special (non-text) keys first: their encoding depends on modifiers.
	if b, ok := encodeSpecial(k.Code, mod, appCursor); ok {
		return b
	}
	switch k.Code {
	case uv.KeyEnter, uv.KeyKpEnter:
		return prefix([]byte{'\r'})
	case uv.KeyTab:
		if mod&uv.ModShift != 0 {
			return prefix([]byte("\x1b[Z")) // alt+shift+tab: tmux's M-BTab
		}
		return prefix([]byte{'\t'})
	case uv.KeyBackspace:
		if mod&uv.ModCtrl != 0 {
			return prefix([]byte{0x08})
		}
		return prefix([]byte{0x7f})
	case uv.KeyEscape:
		return prefix([]byte{0x1b})
	}
	if mod&uv.ModCtrl != 0 {
		if c, ok := ctrlByte(k.Code); ok {
			return prefix([]byte{c})
		}
	}
	if k.Text != "" && mod&uv.ModCtrl == 0 {
		return prefix([]byte(k.Text))
	}
	// No text (alt-modified keys, kitty/modifyOtherKeys reports): derive the
	// character from the code and shift state.
	r := k.Code
	if mod&uv.ModShift != 0 {
		switch {
		case k.ShiftedCode != 0:
			r = k.ShiftedCode
		default:
			r = unicode.ToUpper(r)
		}
	}
	if r == uv.KeySpace {
		r = ' '
	}
	if r < 0x20 || r > unicode.MaxRune || !utf8.ValidRune(r) {
		return nil // a key xterm sends nothing for
	}
	return prefix(utf8.AppendRune(nil, r))
}

// ctrlByte is the C0 byte xterm sends for ctrl+code.
func ctrlByte(code rune) (byte, bool) {
	switch {
	case code >= 'a' && code <= 'z':
		return byte(code - 'a' + 1), true
	case code >= 'A' && code <= 'Z':
		return byte(code - 'A' + 1), true
	case code == '@' || code == uv.KeySpace || code == ' ' || code == '2':
		return 0, true
	case code == '[' || code == '3':
		return 0x1b, true
	case code == '\\' || code == '4':
		return 0x1c, true
	case code == ']' || code == '5':
		return 0x1d, true
	case code == '^' || code == '6' || code == '~':
		return 0x1e, true
	case code == '_' || code == '7' || code == '/' || code == '-':
		return 0x1f, true
	case code == '?' || code == '8':
		return 0x7f, true
	}
	return 0, false
}

// xtermMod is the CSI modifier parameter (1 + shift + 2·alt + 4·ctrl + 8·meta).
func xtermMod(mod uv.KeyMod) int {
	m := 1
	if mod&uv.ModShift != 0 {
		m++
	}
	if mod&uv.ModAlt != 0 {
		m += 2
	}
	if mod&uv.ModCtrl != 0 {
		m += 4
	}
	if mod&uv.ModMeta != 0 {
		m += 8
	}
	return m
}

// cursorFinals are the keys sent as CSI/SS3 with a final letter.
var cursorFinals = map[rune]byte{
	uv.KeyUp: 'A', uv.KeyDown: 'B', uv.KeyRight: 'C', uv.KeyLeft: 'D',
	uv.KeyHome: 'H', uv.KeyEnd: 'F', uv.KeyBegin: 'E',
	uv.KeyF1: 'P', uv.KeyF2: 'Q', uv.KeyF3: 'R', uv.KeyF4: 'S',
}

// tildeKeys are the keys sent as CSI n ~.
var tildeKeys = map[rune]int{
	uv.KeyInsert: 2, uv.KeyDelete: 3, uv.KeyPgUp: 5, uv.KeyPgDown: 6,
	uv.KeyF5: 15, uv.KeyF6: 17, uv.KeyF7: 18, uv.KeyF8: 19, uv.KeyF9: 20,
	uv.KeyF10: 21, uv.KeyF11: 23, uv.KeyF12: 24,
}

func encodeSpecial(code rune, mod uv.KeyMod, appCursor bool) ([]byte, bool) {
	if f, ok := cursorFinals[code]; ok {
		isF := code >= uv.KeyF1 && code <= uv.KeyF4
		if mod == 0 {
			if isF || appCursor {
				return []byte{0x1b, 'O', f}, true
			}
			return []byte{0x1b, '[', f}, true
		}
		return []byte("\x1b[1;" + strconv.Itoa(xtermMod(mod)) + string(f)), true
	}
	if n, ok := tildeKeys[code]; ok {
		if mod == 0 {
			return []byte("\x1b[" + strconv.Itoa(n) + "~"), true
		}
		return []byte("\x1b[" + strconv.Itoa(n) + ";" + strconv.Itoa(xtermMod(mod)) + "~"), true
	}
	return nil, false
}
