package workspace

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genStream is the randomized escape-sequence workout of the screen
// corpus: with a fixed seed it always yields the same bytes. It mixes
// printable runs (ASCII, accented, wide CJK), control characters, cursor
// movement, erase, insert/delete, SGR (16, 256 and RGB colours, bold,
// italic, underline, reverse), scroll regions, index/reverse index,
// autowrap on/off, save/restore cursor and the alternate screen.
func genStream(seed uint64, cols, rows, ops int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var b strings.Builder
	words := []string{"alpha", "beta", "wrap", "stop", "é", "ü", "日本", "語", "中文", "x", "-", "│", "█"}
	n := func(k int) int { return r.IntN(k) }
	for range ops {
		switch n(30) {
		case 0, 1, 2, 3, 4, 5, 6, 7:
			for k := n(12) + 1; k > 0; k-- {
				b.WriteString(words[n(len(words))])
				if n(3) == 0 {
					b.WriteByte(' ')
				}
			}
		case 8:
			b.WriteString(strings.Repeat(string(rune('a'+n(26))), n(cols+10)))
		case 9:
			b.WriteString("\r\n")
		case 10:
			b.WriteByte("\r\n\b\t"[n(4)])
		case 11:
			fmt.Fprintf(&b, "\x1b[%d;%dH", n(rows+2)+1, n(cols+4)+1)
		case 12:
			fmt.Fprintf(&b, "\x1b[%d%c", n(8)+1, "ABCDEFG"[n(7)])
		case 13:
			fmt.Fprintf(&b, "\x1b[%dK", n(3))
		case 14:
			fmt.Fprintf(&b, "\x1b[%dJ", n(3))
		case 15:
			fmt.Fprintf(&b, "\x1b[%d%c", n(6)+1, "@PXLM"[n(5)])
		case 16, 17, 18:
			b.WriteString(genSGR(r))
		case 19:
			top := n(rows) + 1
			fmt.Fprintf(&b, "\x1b[%d;%dr", top, top+n(rows-top+1))
		case 20:
			b.WriteString("\x1b[r")
		case 21:
			b.WriteString([]string{"\x1bD", "\x1bM", "\x1bE"}[n(3)])
		case 22:
			fmt.Fprintf(&b, "\x1b[%d%c", n(4)+1, "ST"[n(2)])
		case 23:
			b.WriteString([]string{"\x1b[?7l", "\x1b[?7h"}[n(2)])
		case 24:
			b.WriteString([]string{"\x1b7", "\x1b8"}[n(2)])
		case 25:
			if n(4) == 0 {
				b.WriteString([]string{"\x1b[?1049h", "\x1b[?1049l"}[n(2)])
			}
		case 26:
			fmt.Fprintf(&b, "\x1b[%dG", n(cols+2)+1)
		case 27:
			fmt.Fprintf(&b, "\x1b[%dd", n(rows+2)+1)
		case 28:
			// Fill to exactly the right margin, then more: pending wrap.
			fmt.Fprintf(&b, "\x1b[%d;1H%s", n(rows)+1, strings.Repeat("m", cols))
			if n(2) == 0 {
				b.WriteString("wrap")
			}
		case 29:
			fmt.Fprintf(&b, "\x1b[%d;%dH日", n(rows)+1, cols-n(2))
		}
	}
	// Leave the main screen, default attributes and no region in the end,
	// like a program that exits cleanly.
	b.WriteString("\x1b[m\x1b[r\x1b[?7h")
	return []byte(b.String())
}

func genSGR(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return "\x1b[m"
	case 1:
		return fmt.Sprintf("\x1b[%dm", []int{1, 3, 4, 7, 22, 23, 24, 27}[r.IntN(8)])
	case 2:
		return fmt.Sprintf("\x1b[%dm", 30+r.IntN(8))
	case 3:
		return fmt.Sprintf("\x1b[%dm", 40+r.IntN(8))
	case 4:
		return fmt.Sprintf("\x1b[%dm", 90+r.IntN(8))
	case 5:
		return fmt.Sprintf("\x1b[38;5;%dm", r.IntN(256))
	case 6:
		return fmt.Sprintf("\x1b[48;5;%dm", r.IntN(256))
	default:
		return fmt.Sprintf("\x1b[38;2;%d;%d;%dm", r.IntN(256), r.IntN(256), r.IntN(256))
	}
}
