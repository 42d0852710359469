package workspace

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
)

func TestZZX(t *testing.T) {
	for _, s := range []string{
		"abc\x1b[6GClaude",
		"\x1b[?2031habc\x1b[6GClaude",
		"\x1b[<u\x1b[>1uabc\x1b[6GClaude",
		"\x1b[>4;2mabc\x1b[6GClaude",
		"\x1b]0;\u2733 Claude Code\x07abc\x1b[6GClaude",
		"\x1b[38;5;174m╭───\x1b[6GClaude",
	} {
		e := vt.NewEmulator(40, 3)
		go io.Copy(io.Discard, e)
		e.Write([]byte(s))
		fmt.Printf("%q -> %q\n", s, strings.Split(e.String(), "\n")[0])
	}
}
