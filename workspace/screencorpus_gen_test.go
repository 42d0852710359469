package workspace

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genTrailer ends every generated stream: the main screen, default
// attributes, no region, autowrap on, insert mode off, the ASCII set,
// like a program that exits cleanly.
const genTrailer = "\x1b[m\x1b[r\x1b[?7h\x1b[4l\x1b[?6l\x0f\x1b(B"

// genStream is the randomized escape-sequence workout of the screen
// corpus: with a fixed seed it always yields the same bytes. It mixes
// printable runs (ASCII, accented, combining marks, wide CJK and emoji),
// control characters, cursor movement, erase, insert/delete, SGR (16, 256
// and RGB colours, bold, dim, italic, underline styles and colour,
// reverse, strike, overline), scroll regions, index/reverse index,
// autowrap on/off, insert mode, origin mode, tab stops, REP, DEC line
// drawing (ESC ( 0, SO/SI), save/restore cursor (ESC 7/8, CSI s/u), the
// alternate screens (1049, 1047) and DECALN.
func genStream(seed uint64, cols, rows, ops int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var b strings.Builder
	words := []string{"alpha", "beta", "wrap", "stop", "é", "ü", "日本", "語", "中文", "x", "-", "│", "█"}
	n := func(k int) int { return r.IntN(k) }
	for range ops {
		switch n(40) {
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
		case 30:
			fmt.Fprintf(&b, "\x1b[%db", n(6)+1) // REP
		case 31:
			b.WriteString([]string{"\x1bH", "\x1b[g", "\x1b[3g", "\t\t\t", "\x1b[Z", "\t\t"}[n(6)])
		case 32:
			b.WriteString([]string{"\x1b[4h", "\x1b[4l"}[n(2)])
		case 33:
			b.WriteString([]string{"\x1b[?6h", "\x1b[?6l", "\x1b[s", "\x1b[u"}[n(4)])
		case 34:
			if n(3) == 0 {
				b.WriteString([]string{"\x1b[?1047h", "\x1b[?1047l", "\x1b#8"}[n(3)])
			}
		case 35:
			// DEC line drawing, through G0 or through G1 and SO/SI.
			art := "lqkxjmtuvwn~a"
			var t strings.Builder
			for k := n(8) + 1; k > 0; k-- {
				t.WriteByte(art[n(len(art))])
			}
			if n(2) == 0 {
				fmt.Fprintf(&b, "\x1b(0%s\x1b(B", t.String())
			} else {
				fmt.Fprintf(&b, "\x1b)0\x0e%s\x0f", t.String())
			}
		case 36:
			b.WriteString([]string{"e\u0301", "a\u0308x", "🙂", "o\u0302\u0323", "日\u0301"}[n(5)])
		case 37:
			b.WriteString([]string{"\x1b[2m", "\x1b[9m", "\x1b[53m", "\x1b[21m", "\x1b[4:3m", "\x1b[58;5;196m", "\x1b[5m", "\x1b[39;49m", "\x1b[29;55m"}[n(9)])
		case 38:
			fmt.Fprintf(&b, "\x1b[4%dm\x1b[%d%c", n(8), n(cols)+1, "XK@P"[n(4)])
		case 39:
			// Up to the margin, then a control that keeps or ends the wrap.
			fmt.Fprintf(&b, "\x1b[%d;%dHab%s", n(rows)+1, cols-1, []string{"\n", "\x1bD", "\x1bM", "\b", "\x1b[C", "\x1b[2D", "\x1b[A", "\x1b7\x1b8", "\r"}[n(9)])
			if n(2) == 0 {
				b.WriteString("cd")
			}
		}
	}
	b.WriteString(genTrailer)
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
