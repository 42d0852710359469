package tui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// noopMsg is a message no pane handles: after it, View draws everything.
type noopMsg struct{}

// A key typed into the attached session is not drawn until the session's
// screen changes (its frame is the last one, unchanged); the session's
// change redraws the body and keeps the footer and status bar; any other
// message draws everything again, and the kept parts always equal a fresh
// drawing.
func TestAttachedInputReusesTheLastFrame(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Alt('4')
	h.Key("s")
	require.True(t, h.M.Workspaces.Attached())
	before := h.M.View().Content

	// The key goes to the session, whose (fake) screen shows it at once,
	// but the program has not yet heard of the change.
	h.M.Update(tea.KeyPressMsg{Code: 'Z', Text: "Z"})
	require.Equal(t, before, h.M.View().Content, "input alone draws nothing new")

	// The session's change arrives: its line is drawn.
	h.Run(nil)
	echoed := h.M.View().Content
	require.Contains(t, ansi.Strip(echoed), "$ Z")
	h.Send(noopMsg{})
	require.Equal(t, echoed, h.M.View().Content, "the kept footer and status bar equal fresh ones")

	// Anything else is drawn in full: a toast reaches the status bar.
	h.Send(kit.FlashMsg("a note for the status bar"))
	require.Contains(t, ansi.Strip(h.M.View().Content), "a note for the status bar")
	h.TypeText("Y")
	last := ansi.Strip(h.M.View().Content)
	require.Contains(t, last, "$ ZY")
	require.Contains(t, last, "a note for the status bar")
	require.Equal(t, 30, strings.Count(h.M.View().Content, "\n")+1)
}
