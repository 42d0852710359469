package kit

import (
	"strings"
)

// orDash shows an empty value as a dash.
func OrDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// firstLine is s up to its first newline.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// fitHeight pads or cuts s to exactly h lines.
func FitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func Stack(parts ...string) string { return strings.Join(parts, "\n") }
