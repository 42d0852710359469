package portfolio_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// paneRows are the screen rows inside the frame.
func paneRows(screen string) []string {
	rows := strings.Split(screen, "\n")
	return rows[2 : len(rows)-3] // tab bar, top border; bottom border, footer, status bar
}

// At sizes where the Portfolio is taller than the pane, the end of it (the
// trading log) is reached with the scroll keys; the rows hidden are
// marked, the account tabs stay on top, and approving still works.
func TestPortfolioScrollsAtSmallSizes(t *testing.T) {
	t.Parallel()
	const last = "MSFT BUY 5 @400" // the trading log's last line, the bottom of the pane
	for _, size := range [][2]int{{80, 24}, {60, 16}, {40, 12}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			h := tuitest.NewHarness(t, size[0], size[1])
			h.Key("alt+3")
			s := h.Screen()
			require.NotContains(t, s, last, s)
			require.Contains(t, s, "↓ ", "hidden rows are marked\n%s", s)
			if size[0] >= 60 {
				require.Contains(t, h.Screen(), "↓/j scroll down", "the footer offers scrolling")
			}

			h.Key("G")
			s = h.Screen()
			require.Contains(t, s, last, "end shows the bottom\n%s", s)
			require.Contains(t, s, "↑ ", s)
			require.NotContains(t, s, "↓ ", s)
			require.Contains(t, paneRows(s)[0], "sim-paper", "the account tabs stay")
			h.Key("j")
			require.Equal(t, s, h.Screen(), "scrolling stops at the end")

			h.Key("g")
			top := h.Screen()
			require.Contains(t, top, "Pending approval", top)
			require.NotContains(t, top, "↑ ", top)
			h.Key("k")
			require.Equal(t, top, h.Screen(), "and at the top")

			// line by line down to the end: each step shows something new
			prev := top
			for i := 0; !strings.Contains(prev, last); i++ {
				require.Less(t, i, 60, "the end is reached")
				h.Key("down")
				require.NotEqual(t, prev, h.Screen())
				prev = h.Screen()
			}
			h.Key("home", "pgdown")
			require.NotEqual(t, top, h.Screen(), "a page down moves")
			h.Key("pgup")
			require.Equal(t, top, h.Screen(), "a page up comes back")
			h.Key("end")
			require.Contains(t, h.Screen(), last)

			// the approval keys still act, scrolled or not
			h.Key("a")
			require.NotNil(t, h.M.Dialog)
			h.Now = h.Now.Add(time.Second)
			h.Key("y")
			require.Equal(t, []string{"sim-paper"}, h.F.Approved)
		})
	}
}

// The mouse wheel scrolls too.
func TestPortfolioScrollsWithTheWheel(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 40, 12)
	h.Key("alt+3")
	top := h.Screen()
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 5, Y: 5})
	require.NotEqual(t, top, h.Screen())
	require.Contains(t, h.Screen(), "↑ ", h.Screen())
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp, X: 5, Y: 5})
	require.Equal(t, top, h.Screen())
}

// Switching account or view starts at the top.
func TestPortfolioScrollResetsOnAccountSwitch(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarnessCore(t, 40, 12, func(f *tuitest.FakeCore) tui.Core {
		f.AccountIDs = []string{"sim-paper", "sim2"}
		return f
	})
	h.Key("alt+3", "G")
	require.NotContains(t, h.Screen(), "Net liq")
	h.Key("]")
	require.Contains(t, h.Screen(), "Net liq", "another account starts at its top")
}

// The help lists every scroll key with its text.
func TestPortfolioScrollKeysInHelp(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+3", "?")
	h.TypeText("portfolio")
	help := strings.Join(h.M.Help.Lines(), "\n")
	for _, want := range []string{"scroll up", "scroll down", "page up", "page down", "home/g", "end/G"} {
		require.Contains(t, help, want)
	}
}

// At 40x12 the bottom of the Portfolio, scrolled to, with the summary's
// figures wrapped rather than cut.
func TestGoldenPortfolioScrolled(t *testing.T) {
	t.Parallel()
	for _, keys := range [][]string{{}, {"G"}} {
		t.Run(fmt.Sprintf("40x12_%d", len(keys)), func(t *testing.T) {
			h := tuitest.NewHarness(t, 40, 12)
			h.Key("alt+3")
			h.Key(keys...)
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}
