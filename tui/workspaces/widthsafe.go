package workspaces

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// fitClusters rewrites the characters of a rendered session line that
// terminals measure in two different ways, so the pane's frame holds on
// every terminal.
//
// The session's emulator and the layout (lipgloss) measure a grapheme
// cluster as one character: an emoji with a skin tone (👍🏽) or emoji
// joined by ZWJ (👨‍👩‍👧) fill one two-cell cell. A terminal without
// grapheme clustering (no mode 2027: tmux 3.3a, xterm, and so Bubble
// Tea's renderer there, which measures with wcwidth) counts each of their
// runes: such a row comes out two or more cells too wide, its right border
// falls off the screen and, near the right margin, the terminal scrolls
// and the screen stays garbled until the next full redraw.
//
// Such a cluster is shown as its first rune when that rune alone fills the
// same cells (👍🏽 → 👍, 👨‍👩‍👧 → 👨), else as blanks of its width.
// Everything else (escape sequences, text, clusters both ways measure
// alike) is kept byte for byte.
func fitClusters(line string) string {
	if !mayMisfit(line) {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	var state byte
	for rest := line; len(rest) > 0; {
		seq, width, n, newState := ansi.DecodeSequence(rest, state, nil)
		state, rest = newState, rest[n:]
		if width == 0 || len(seq) == 1 || ansi.StringWidthWc(seq) <= width {
			b.WriteString(seq)
			continue
		}
		first, size := firstRune(seq)
		if size < len(seq) && ansi.StringWidthWc(first) == width {
			b.WriteString(first)
		} else {
			b.WriteString(strings.Repeat(" ", width))
		}
	}
	return b.String()
}

// mayMisfit is the cheap test: a cluster measured wider rune by rune holds
// at least two wide runes, so it has a four-byte rune (emoji, modifiers)
// or a zero width joiner.
func mayMisfit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 {
			return true
		}
	}
	return strings.Contains(s, "\u200d")
}

// firstRune is s's first rune and its length in bytes.
func firstRune(s string) (string, int) {
	for i := range s {
		if i > 0 {
			return s[:i], i
		}
	}
	return s, len(s)
}

// fitScreen applies fitClusters to every line of a rendered screen.
func fitScreen(screen string) string {
	if !mayMisfit(screen) {
		return screen
	}
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		lines[i] = fitClusters(l)
	}
	return strings.Join(lines, "\n")
}
