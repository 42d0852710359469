package workspace

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Shrinking a session's height below its cursor row scrolls the top rows
// away (into the scrollback) as tmux does: the prompt and the last output
// stay on screen and the next command does not overwrite an old line.
func TestResizeShrinkKeepsTheCursorLine(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 24, slog.Default())
	defer term.Close()
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line-%02d\r\n", i)
	}
	b.WriteString("$ ")
	term.Feed([]byte(b.String()))
	_, y, _ := term.Cursor()
	require.Equal(t, 20, y)

	term.Resize(40, 18)
	x, y, _ := term.Cursor()
	require.Equal(t, 17, y, "the cursor is on the last row")
	require.Equal(t, 2, x)
	screen := strings.Split(term.String(), "\n")
	require.Equal(t, "$", strings.TrimSpace(screen[17]), "the prompt stays under the cursor")
	require.Equal(t, "line-20", strings.TrimSpace(screen[16]))
	require.Contains(t, strings.Join(term.Scrollback(), "\n"), "line-03", "rows scrolled away are kept")

	term.Feed([]byte("echo NEXT\r\nNEXT\r\n$ "))
	screen = strings.Split(term.String(), "\n")
	require.Equal(t, "$ echo NEXT", strings.TrimSpace(screen[15]))
	require.Equal(t, "line-20", strings.TrimSpace(screen[14]), "no old line overwritten")
}
