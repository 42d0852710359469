package tui_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

var _ = flag.Bool // golden registers -update

func TestFocusSwitching(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	require.Equal(t, tui.FocusChat, h.M.Focus)
	h.Key("tab")
	require.Equal(t, tui.FocusInbox, h.M.Focus)
	h.Key("shift+tab", "shift+tab")
	require.Equal(t, tui.Focus(len(h.M.Tabs)-1), h.M.Focus, "shift+tab wraps to the last pane")
	h.Key("alt+3")
	require.Equal(t, tui.FocusPortfolio, h.M.Focus)
	h.Key("?")
	require.NotNil(t, h.M.Help)
	require.Contains(t, h.Screen(), "approve push", "help lists the focused pane's keys")
	h.Key("x")
	require.NotNil(t, h.M.Help, "typing filters the help")
	require.Empty(t, h.F.Rejected, "keys typed into help do not act")
	h.Key("esc")
	require.Nil(t, h.M.Help)
}

func TestGoldenViews(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {220, 60}} {
		h0 := tuitest.NewHarness(t, 80, 24)
		for _, f := range []tui.Focus{tui.FocusChat, tui.FocusInbox, tui.FocusPortfolio, tui.FocusWorkspaces} {
			name := fmt.Sprintf("%s_%dx%d", strings.ToLower(h0.M.Tabs[f].Name), size[0], size[1])
			t.Run(name, func(t *testing.T) {
				h := tuitest.NewHarness(t, size[0], size[1])
				h.F.Histories["tui/default"] = []chat.ChatMessage{
					{Role: chat.RoleUser, Text: "What's my portfolio?"},
					{Role: chat.RoleTool, Tool: "getPortfolio", Input: `{"source":"sim-paper"}`, Output: `[]`},
					{Role: chat.RoleAssistant, Text: "You hold **5 MSFT** worth 2102.50."},
				}
				h.Run(h.M.Chat.Load())
				h.M.SetFocus(f)
				golden.RequireEqual(t, []byte(h.Screen()))
			})
		}
	}
}
