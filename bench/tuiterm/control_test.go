package main

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// An echo drawn in two writes with a hidden cursor between them is still
// found, and control mode's octal escapes are undone.
func TestEchoFoundAcrossWrites(t *testing.T) {
	for _, c := range []struct {
		name   string
		chunks []string
		want   string
		found  bool
	}{
		{"one write", []string{"^[a"}, "^[a", true},
		{"split by the pty", []string{"^", "[a"}, "^[a", true},
		{"second part redrawn with the cursor hidden", []string{"^", `\033[?25l[a\033[?25h`}, "^[a", true},
		{"backslash", []string{`a\134b`}, `a\b`, true},
		{"not yet", []string{"^", `\033[?25l`}, "^[a", false},
		{"escape at the end", []string{`x\03`}, `x\03`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var seen strings.Builder
			for _, ch := range c.chunks {
				seen.WriteString(unescapeOutput(ch))
			}
			if got := strings.Contains(ansi.Strip(seen.String()), c.want); got != c.found {
				t.Fatalf("found %q in %q: %v, want %v", c.want, seen.String(), got, c.found)
			}
		})
	}
}
