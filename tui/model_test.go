package tui

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

var _ = flag.Bool // golden registers -update

func TestFocusSwitching(t *testing.T) {
	h := newHarness(t, 100, 30)
	require.Equal(t, focusChat, h.m.focus)
	h.key("tab")
	require.Equal(t, focusInbox, h.m.focus)
	h.key("shift+tab", "shift+tab")
	require.Equal(t, focus(len(h.m.tabs)-1), h.m.focus, "shift+tab wraps to the last pane")
	h.key("alt+3")
	require.Equal(t, focusPortfolio, h.m.focus)
	h.key("?")
	require.NotNil(t, h.m.help)
	require.Contains(t, h.screen(), "approve push", "help lists the focused pane's keys")
	h.key("x")
	require.NotNil(t, h.m.help, "typing filters the help")
	require.Empty(t, h.f.rejected, "keys typed into help do not act")
	h.key("esc")
	require.Nil(t, h.m.help)
}

func TestGoldenViews(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {220, 60}} {
		h0 := newHarness(t, 80, 24)
		for _, f := range []focus{focusChat, focusInbox, focusPortfolio, focusWorkspaces} {
			name := fmt.Sprintf("%s_%dx%d", strings.ToLower(h0.m.tabs[f].name), size[0], size[1])
			t.Run(name, func(t *testing.T) {
				h := newHarness(t, size[0], size[1])
				h.f.history["tui/default"] = []ChatMessage{
					{Role: RoleUser, Text: "What's my portfolio?"},
					{Role: RoleTool, Tool: "getPortfolio", Input: `{"source":"sim-paper"}`, Output: `[]`},
					{Role: RoleAssistant, Text: "You hold **5 MSFT** worth 2102.50."},
				}
				h.run(h.m.chat.load())
				h.m.setFocus(f)
				golden.RequireEqual(t, []byte(h.screen()))
			})
		}
	}
}
