package workspaces

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/tui/kit"
)

// A file's name and diff lines are an agent's: shown with escape
// sequences and bidi controls replaced, never passed to the terminal
// (black-box N6: colours, reverse video and U+202E reached it).
func TestDiffShowsAnAgentsTextSafely(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	name := "zz\x1b[12;30H\x1b[7mSPOOFED\x1b[0m\u202eexe.md"
	lines := renderPatch(st, DiffFile{Path: name, Change: "added",
		Patch: "--- /dev/null\n+++ b/" + name + "\n@@ -0,0 +1 @@\n+hello\x1b]0;pwned\x07 \x1b[31mred\u202e\tend\n"})
	all := strings.Join(lines, "\n")
	for _, bad := range []string{"\x1b[12;30H", "\x1b[7mSPOOFED", "\x1b]0;pwned", "\x1b[31mred", "\u202e", "\x07"} {
		require.NotContains(t, all, bad)
	}
	require.Contains(t, all, "SPOOFED")
	require.Contains(t, kit.ShownLine(name), "\ufffd[12;30H")
	require.Equal(t, "a       b", kit.ShownLine("a\tb"), "tabs still expand")
}

// A diff that cannot be read says so in the view, not "No changes"
// (black-box: a FIFO as .git/HEAD showed an empty diff).
func TestDiffThatFailsSaysSo(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	d := &diffView{m: stylesHost{st: &st}, ws: WorkspaceInfo{ID: "w1", Tag: "w1"}, w: 80, h: 12, loading: true}
	d.Update(diffLoadedMsg{wsID: "w1", err: errors.New("open git repository of w1: repository does not exist")})
	v := d.View()
	require.Contains(t, v, "The diff could not be read")
	require.Contains(t, v, "repository does not exist")
	require.NotContains(t, v, "No changes")
}

// stylesHost is the part of kit.Host the diff view's View uses.
type stylesHost struct {
	kit.Host
	st *kit.Styles
}

func (h stylesHost) Styles() *kit.Styles { return h.st }
