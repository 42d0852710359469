package kit

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/alice-trading/alice/core"
)

// OrDash shows an empty value as a dash.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// OneLine is pasted text for a one-line input: its lines (and runs of
// spaces) joined by single spaces, trimmed.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// FitHeight pads or cuts s to exactly h lines.
func FitHeight(s string, h int) string {
	return strings.Join(FitLines(strings.Split(s, "\n"), h), "\n")
}

func Stack(parts ...string) string { return strings.Join(parts, "\n") }

// FitLines is FitHeight for lines: the first h of them, padded with empty
// lines. It returns lines itself when it already has h.
func FitLines(lines []string, h int) []string {
	if len(lines) == h {
		return lines
	}
	if len(lines) > h {
		return lines[:h]
	}
	return append(append(make([]string, 0, h), lines...), make([]string, h-len(lines))...)
}

// Plural formats a count with its noun: "1 entry", "2 entries".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ey"):
		noun = noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "ch"):
		noun += "es"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}

func PadRight(s string, w int) string {
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return s + strings.Repeat(" ", pad)
	}
	return ansi.Truncate(s, w, "")
}

// Cell is s as one table cell exactly w display columns wide: on one line,
// cut with "…" when wider, padded with spaces when narrower. Widths are
// display widths (a CJK character or an emoji is two columns), so the
// columns after it line up whatever the text; fmt's %-*s pads by runes.
func Cell(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return PadRight(ansi.Truncate(OneLine(s), w, "…"), w)
}

// ShownLine is one line of text someone else wrote (a file's name or a
// line of its diff, from an agent's workspace) ready to be drawn: tabs
// expanded (ExpandTabs), and every other rune that must never reach the
// terminal as it is (core.UnsafeRune: ESC and other controls, line
// separators, bidirectional overrides) replaced by U+FFFD, so the text
// can neither restyle the screen nor reorder what is shown.
func ShownLine(s string) string {
	s = ExpandTabs(s)
	if strings.IndexFunc(s, core.UnsafeRune) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if core.UnsafeRune(r) {
			return unicode.ReplacementChar
		}
		return r
	}, s)
}

// TabStop is the distance between tab stops when tabs are expanded for
// display (as git, less and terminals do).
const TabStop = 8

// ExpandTabs replaces each tab of plain (unstyled) text with the spaces
// that reach the next tab stop, counted in cells from the start of its
// line, so that a tab shows as whitespace without breaking alignment.
// Stored text keeps its tabs; this is for display only.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for len(s) > 0 {
		i := strings.IndexAny(s, "\t\n")
		if i < 0 {
			b.WriteString(s)
			break
		}
		seg := s[:i]
		b.WriteString(seg)
		col += ansi.StringWidth(seg)
		if s[i] == '\n' {
			b.WriteByte('\n')
			col = 0
		} else {
			n := TabStop - col%TabStop
			b.WriteString(strings.Repeat(" ", n))
			col += n
		}
		s = s[i+1:]
	}
	return b.String()
}
