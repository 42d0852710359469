package tui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

func TestWorkspaceAttachForwardsKeysIncludingEsc(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+4")
	require.Equal(t, focusWorkspaces, h.m.focus)
	h.key("s")
	require.True(t, h.m.workspaces.attached())
	term := h.f.terms["ws1"][0].(*fakeTerm)
	require.Equal(t, 96, term.cols, "resized to the inside of the frame")
	h.typeText("echo hi")
	h.key("enter", "esc", "tab", "?")
	require.Equal(t, focusWorkspaces, h.m.focus, "tab went to the terminal, not the UI")
	require.Nil(t, h.m.help)
	require.Contains(t, term.keys, "esc")
	require.Contains(t, term.keys, "tab")
	require.Contains(t, h.screen(), "$ echo hi")
	require.Contains(t, h.screen(), "● input")
	h.key("ctrl+q")
	require.False(t, h.m.workspaces.attached())
	require.NotContains(t, term.keys, "ctrl+q", "detach is not forwarded")
	h.key("enter")
	require.True(t, h.m.workspaces.attached(), "enter re-attaches to the running session")
}

func TestCreateWorkspace(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.m.setFocus(focusWorkspaces)
	h.key("n")
	h.typeText("btc-notes")
	h.key("tab", "enter")
	require.Len(t, h.f.workspace, 2)
	require.Equal(t, "shell-only", h.f.workspace[1].Template)
	require.Equal(t, wsList, h.m.workspaces.mode)
}

// rawSeq stands in for an input sequence the key decoder did not
// understand (ultraviolet's UnknownEvent is a Stringer like this).
type rawSeq string

func (r rawSeq) String() string { return string(r) }

func TestTerminalNudgesRedrawAndResizeFollowsLayout(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+4", "s")
	require.True(t, h.m.workspaces.attached())
	term := h.f.terms["ws1"][0].(*fakeTerm)
	require.Equal(t, [2]int{96, 24}, [2]int{term.cols, term.rows}, "inside the frame, minus the title line")

	// Output arrives: the core nudges Changed; the armed watch delivers one
	// coalesced message and re-arms.
	require.True(t, h.m.workspaces.waiting)
	term.mu.Lock()
	term.screen = "$ echo hi\nhi\n$ "
	// The harness dropped the attach's watch Cmd still blocked on the old
	// channel; a fresh channel makes this test's watch the only reader.
	term.changed = make(chan struct{}, 1)
	term.changed <- struct{}{}
	term.mu.Unlock()
	msg := waitMsg(t, h.m.workspaces, term)
	require.Equal(t, termChangedMsg{id: term.id, gen: h.m.workspaces.termGen}, msg)
	h.send(msg)
	require.Contains(t, h.screen(), "│ hi   ")

	// A stale nudge (an older attachment) does not re-arm.
	h.m.workspaces.waiting = false
	h.send(termChangedMsg{id: term.id, gen: h.m.workspaces.termGen - 1})
	require.False(t, h.m.workspaces.waiting)

	h.send(tea.WindowSizeMsg{Width: 160, Height: 45})
	term.mu.Lock()
	defer term.mu.Unlock()
	require.Equal(t, [2]int{156, 39}, [2]int{term.cols, term.rows})
}

// waitMsg runs a fresh watch Cmd for term and returns its message.
func waitMsg(t *testing.T, p *workspacesPane, term *fakeTerm) tea.Msg {
	t.Helper()
	p.waiting = false
	cmd := p.watch()
	require.NotNil(t, cmd)
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case m := <-done:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("watch never fired")
		return nil
	}
}

func TestDetachAcceptsDecodedAndRawForms(t *testing.T) {
	for name, msg := range map[string]tea.Msg{
		"decoded":        tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl},
		"caps lock on":   tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl | tea.ModCapsLock},
		"raw C0":         rawSeq("\x11"),
		"kitty CSI u":    rawSeq("\x1b[113;5u"),
		"modifyOtherKey": rawSeq("\x1b[27;5;113~"),
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 100, 30)
			h.key("alt+4", "s")
			require.True(t, h.m.workspaces.attached())
			h.send(msg)
			require.False(t, h.m.workspaces.attached())
		})
	}
}

func TestWorkspaceFilesAndGitViews(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+4", "f")
	s := h.screen()
	require.Contains(t, s, "docs/")
	require.Contains(t, s, "CLAUDE.md")
	h.key("esc", "l")
	require.Contains(t, h.screen(), "branch master · clean")
	h.key("esc")
	require.Equal(t, wsList, h.m.workspaces.mode)
}
