package tea

// fitClusters (alice patch). Views are laid out by lipgloss, which measures
// a grapheme cluster as one character of its full width: an emoji with a
// skin tone (👍🏽) or joined by ZWJ (👨‍👩‍👧) is two cells, ⚠️ (with its
// emoji variation selector) is two cells. A terminal without grapheme
// clustering (no mode 2027: tmux 3.3a, xterm) and so this renderer there,
// which then measures with wcwidth, count them rune by rune: 👍🏽 is four
// cells, ⚠️ one. A row holding one came out too wide or too short, its
// right border off by the difference; at the right margin the terminal
// wrapped and the screen stayed garbled until the next full redraw.
//
// So when the renderer measures with wcwidth, each cluster the two
// measures disagree on is drawn as its first rune, padded with blanks to
// the width the layout gave it (👍🏽 → 👍, ⚠️ → "⚠ "), or as blanks when that
// rune alone is wider. Everything else (escape sequences, text, clusters
// both measure alike) is kept byte for byte. On a terminal with grapheme
// clustering nothing is changed.

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// fitClusters rewrites the clusters of s that wcwidth and grapheme
// clustering measure differently; s may hold several lines.
func fitClusters(s string) string {
	if !mayMisfit(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	var state byte
	for rest := s; len(rest) > 0; {
		seq, width, n, newState := ansi.DecodeSequence(rest, state, nil)
		state, rest = newState, rest[n:]
		if width == 0 || len(seq) == 1 {
			b.WriteString(seq)
			continue
		}
		wc := ansi.StringWidthWc(seq)
		if wc == width {
			b.WriteString(seq)
			continue
		}
		first, size := firstRune(seq)
		if fw := ansi.StringWidthWc(first); size < len(seq) && fw > 0 && fw <= width {
			b.WriteString(first)
			b.WriteString(strings.Repeat(" ", width-fw))
			continue
		}
		b.WriteString(strings.Repeat(" ", width))
	}
	return b.String()
}

// mayMisfit is the cheap test for a cluster the two measures can disagree
// on: a four-byte rune (emoji, skin tones, regional indicators), a zero
// width joiner or a variation selector.
func mayMisfit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xF0 {
			return true
		}
	}
	return strings.Contains(s, "\u200d") || strings.Contains(s, "\ufe0f") || strings.Contains(s, "\ufe0e")
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
