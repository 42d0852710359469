package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// UnsafeRune reports whether r must never reach a person's screen as it
// is in text another party (an agent, a stored record) supplied: control
// characters (C0 including tab, newline and carriage return, DEL, C1
// U+0080–U+009F — ESC starts terminal escape sequences), the Unicode
// line and paragraph separators (a line break by another name), and the
// bidirectional overrides, embeddings, isolates and marks (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C), which reorder what is shown.
func UnsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	case r == '\u200e', r == '\u200f', r == '\u061c':
		return true
	}
	return false
}

// PlainLine is untrusted text made safe to show on one line: line breaks
// and tabs become spaces, every other unsafe rune (see UnsafeRune) and
// every byte that is not UTF-8 becomes U+FFFD, runs of spaces collapse
// and the ends are trimmed; past max characters (runes; max <= 0: no
// limit) it is cut and ends with "…". Display only: stored text keeps
// what it was.
func PlainLine(s string, max int) string {
	var b strings.Builder
	n := 0
	space := false
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				r = unicode.ReplacementChar
			}
		}
		switch {
		case unicode.IsSpace(r):
			space = n > 0
			continue
		case UnsafeRune(r):
			r = unicode.ReplacementChar
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if max > 0 && n >= max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// PlainLines is PlainLine for text whose line breaks are its own (a
// multi-line rendering alice built around untrusted values): each line
// is made safe on its own, leading indentation kept, no length limit.
func PlainLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		lines[i] = l[:indent] + PlainLine(l[indent:], 0)
	}
	return strings.Join(lines, "\n")
}

// MarkdownLine is untrusted text (a commit message, a symbol, a broker's
// error) for a surface that renders Markdown (Telegram, the Inbox): one
// plain line (PlainLine, at most max characters) with every ASCII
// punctuation or symbol character backslash-escaped, which CommonMark
// shows literally — no links, emphasis, code, HTML or list markers can
// come out of it.
func MarkdownLine(s string, max int) string {
	return escapeMarkdown(PlainLine(s, max))
}

// MarkdownLines is MarkdownLine for text laid out in lines by alice (an
// operation's evidence): each line on its own, leading indentation kept.
func MarkdownLines(s string) string {
	lines := strings.Split(PlainLines(s), "\n")
	for i, l := range lines {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		lines[i] = l[:indent] + escapeMarkdown(l[indent:])
	}
	return strings.Join(lines, "\n")
}

func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && (unicode.IsPunct(r) || unicode.IsSymbol(r)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
