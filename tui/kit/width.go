package kit

import "github.com/charmbracelet/x/ansi"

// Width is ansi.StringWidth with a fast path for the common case of a line
// that is printable ASCII and escape sequences (a shell's output, the
// UI's own styled text): one byte, one cell, counted without grapheme
// segmentation. Anything else — a byte ≥ 0x80, a control character, an
// escape sequence it does not parse — goes to ansi.StringWidth.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			end := escapeEnd(s, i)
			if end < 0 {
				return ansi.StringWidth(s)
			}
			i = end
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// escapeEnd returns the index just past the CSI (ESC [ … final) or OSC
// (ESC ] … BEL or ESC \) starting at s[i], or -1 for anything else.
func escapeEnd(s string, i int) int {
	if i+1 >= len(s) {
		return -1
	}
	switch s[i+1] {
	case '[':
		// Parameter bytes, then intermediate bytes, then the final byte.
		j := i + 2
		for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
			j++
		}
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
	case ']':
		for j := i + 2; j < len(s); j++ {
			switch s[j] {
			case 0x07:
				return j + 1
			case 0x1b:
				if j+1 < len(s) && s[j+1] == '\\' {
					return j + 2
				}
				return -1
			}
		}
	}
	return -1
}
