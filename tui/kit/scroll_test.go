package kit_test

import (
	"fmt"
	"testing"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

func TestWindowMarksHiddenLinesAndRevealsOneAStep(t *testing.T) {
	t.Parallel()
	st := kit.NewStyles(true)
	var lines []string
	for i := range 10 {
		lines = append(lines, fmt.Sprint("line ", i))
	}
	show := func(top int) []string {
		out := kit.Window(st, lines, top, 4)
		for i := range out {
			out[i] = ansi.Strip(out[i])
		}
		return out
	}
	require.Equal(t, []string{"line 0", "line 1", "line 2", "↓ 7 more"}, show(0))
	require.Equal(t, []string{"↑ 2 more", "line 2", "line 3", "↓ 6 more"}, show(1), "one step reveals line 3")
	require.Equal(t, []string{"↑ 7 more", "line 7", "line 8", "line 9"}, show(kit.MaxTop(10, 4)), "the end shows the last line")
	require.Equal(t, show(6), show(99), "top is clamped")
	require.Equal(t, []string{"a", "b", "", ""}, kit.Window(st, []string{"a", "b"}, 5, 4), "what fits is shown whole")
	require.Equal(t, []string{"line 3", "line 4"}, kit.Window(st, lines, 3, 2), "no room for markers")

	require.Equal(t, 0, kit.ScrollBy(0, -1, 10, 4))
	require.Equal(t, 6, kit.ScrollBy(5, 20, 10, 4))
	require.Equal(t, 0, kit.ScrollBy(0, 3, 3, 4), "nothing to scroll")
}
