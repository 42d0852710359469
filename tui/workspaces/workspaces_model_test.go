package workspaces_test

import (
	"errors"
	"fmt"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
	"strings"

	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/workspaces"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

func TestWorkspaceAttachForwardsKeysIncludingEsc(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+4")
	require.Equal(t, tui.FocusWorkspaces, h.M.Focus)
	h.Key("s")
	require.True(t, h.M.Workspaces.Attached())
	term := h.F.Terms["ws1"][0].(*tuitest.FakeTerm)
	require.Equal(t, 96, term.Cols, "resized to the inside of the frame")
	h.TypeText("echo hi")
	h.Key("enter", "esc", "tab", "?")
	require.Equal(t, tui.FocusWorkspaces, h.M.Focus, "tab went to the terminal, not the UI")
	require.Nil(t, h.M.Help)
	require.Contains(t, term.Keys, "esc")
	require.Contains(t, term.Keys, "tab")
	require.Contains(t, h.Screen(), "$ echo hi")
	require.Contains(t, h.Screen(), "● input")
	h.Key("ctrl+q")
	require.False(t, h.M.Workspaces.Attached())
	require.NotContains(t, term.Keys, "ctrl+q", "detach is not forwarded")
	h.Key("enter")
	require.True(t, h.M.Workspaces.Attached(), "enter re-attaches to the running session")
}

func TestCreateWorkspace(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.M.SetFocus(tui.FocusWorkspaces)
	h.Key("n")
	h.TypeText("btc-notes")
	h.Key("tab", "enter")
	require.Len(t, h.F.Workspace, 2)
	require.Equal(t, "shell-only", h.F.Workspace[1].Template)
	require.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)

	// A bad tag is shown in the form, under the field, and the form stays.
	h.Key("n")
	h.TypeText("Bad Tag")
	h.Key("enter")
	require.Equal(t, workspaces.WsCreate, h.M.Workspaces.Mode)
	s := h.Screen()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.Contains(l, "tag › Bad Tag") {
			require.Contains(t, lines[i+1], `✗ invalid tag "Bad Tag"`, "the error is next to the field")
		}
	}
	require.Contains(t, s, `✗ invalid tag "Bad Tag"`)
	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	require.NotContains(t, h.Screen(), "✗ invalid tag", "editing the tag clears it")
}

// rawSeq stands in for an input sequence the key decoder did not
// understand (ultraviolet's UnknownEvent is a Stringer like this).
type rawSeq string

func (r rawSeq) String() string { return string(r) }

func TestTerminalNudgesRedrawAndResizeFollowsLayout(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+4", "s")
	require.True(t, h.M.Workspaces.Attached())
	term := h.F.Terms["ws1"][0].(*tuitest.FakeTerm)
	require.Equal(t, [2]int{96, 24}, [2]int{term.Cols, term.Rows}, "inside the frame, minus the title line")

	// Output arrives: the core nudges Changed; the armed watch delivers one
	// coalesced message and re-arms.
	require.True(t, h.M.Workspaces.Waiting)
	term.Mu.Lock()
	term.Screen = "$ echo hi\nhi\n$ "
	// The harness dropped the attach's watch Cmd still blocked on the old
	// channel; a fresh channel (subscribed again) makes this test's watch
	// the only reader.
	term.ChangedCh = make(chan struct{}, 1)
	term.ChangedCh <- struct{}{}
	term.Mu.Unlock()
	h.M.Workspaces.Unsubscribe()
	msg := waitMsg(t, h.M.Workspaces, term)
	require.Equal(t, workspaces.TermChangedMsg{ID: term.TermID, Gen: h.M.Workspaces.TermGen}, msg)
	h.Send(msg)
	require.Contains(t, h.Screen(), "│ hi   ")

	// A stale nudge (an older attachment) does not re-arm.
	h.M.Workspaces.Waiting = false
	h.Send(workspaces.TermChangedMsg{ID: term.TermID, Gen: h.M.Workspaces.TermGen - 1})
	require.False(t, h.M.Workspaces.Waiting)

	h.Send(tea.WindowSizeMsg{Width: 160, Height: 45})
	term.Mu.Lock()
	defer term.Mu.Unlock()
	require.Equal(t, [2]int{156, 39}, [2]int{term.Cols, term.Rows})
}

// waitMsg runs a fresh watch Cmd for term and returns its message.
func waitMsg(t *testing.T, p *workspaces.Pane, term *tuitest.FakeTerm) tea.Msg {
	t.Helper()
	p.Waiting = false
	cmd := p.Watch()
	require.NotNil(t, cmd)
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case m := <-done:
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("watch never fired")
		return nil
	}
}

func TestDetachAcceptsDecodedAndRawForms(t *testing.T) {
	t.Parallel()
	for name, msg := range map[string]tea.Msg{
		"decoded":        tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl},
		"caps lock on":   tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl | tea.ModCapsLock},
		"raw C0":         rawSeq("\x11"),
		"kitty CSI u":    rawSeq("\x1b[113;5u"),
		"modifyOtherKey": rawSeq("\x1b[27;5;113~"),
	} {
		t.Run(name, func(t *testing.T) {
			h := tuitest.NewHarness(t, 100, 30)
			h.Key("alt+4", "s")
			require.True(t, h.M.Workspaces.Attached())
			h.Send(msg)
			require.False(t, h.M.Workspaces.Attached())
		})
	}
}

func TestWorkspaceFilesAndGitViews(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+4", "f")
	s := h.Screen()
	require.Contains(t, s, "docs/")
	require.Contains(t, s, "CLAUDE.md")
	h.Key("esc", "l")
	require.Contains(t, h.Screen(), "branch master · clean")
	h.Key("esc")
	require.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)
}

// A reload that adds a workspace before the selected one (created from
// the CLI or by an agent) or re-sorts the list keeps the cursor on the
// same workspace, so K and D act on what the person chose.
func TestWorkspaceCursorKeepsTheItem(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Mu.Lock()
	h.F.Workspace = []workspaces.WorkspaceInfo{{ID: "wa", Tag: "alpha", Template: "chat"}, {ID: "wb", Tag: "beta", Template: "chat"}}
	h.F.Mu.Unlock()
	h.Run(h.M.Workspaces.Load())
	h.M.Workspaces.SelectID("wb")
	h.F.Mu.Lock()
	h.F.Workspace = []workspaces.WorkspaceInfo{{ID: "wn", Tag: "aaa-new", Template: "chat"}, {ID: "wa", Tag: "alpha", Template: "chat"}, {ID: "wb", Tag: "beta", Template: "chat"}}
	h.F.Mu.Unlock()
	h.Run(h.M.Workspaces.Load())
	require.Equal(t, "wb", h.M.Workspaces.List[h.M.Workspaces.Sel].ID)
	h.F.Mu.Lock()
	h.F.Workspace = []workspaces.WorkspaceInfo{{ID: "wb", Tag: "beta", Template: "chat"}, {ID: "wa", Tag: "alpha", Template: "chat"}}
	h.F.Mu.Unlock()
	h.Run(h.M.Workspaces.Load())
	require.Equal(t, "wb", h.M.Workspaces.List[h.M.Workspaces.Sel].ID, "a re-sort keeps it too")
	h.F.Mu.Lock()
	h.F.Workspace = []workspaces.WorkspaceInfo{{ID: "wa", Tag: "alpha", Template: "chat"}}
	h.F.Mu.Unlock()
	h.Run(h.M.Workspaces.Load())
	require.Equal(t, "wa", h.M.Workspaces.List[h.M.Workspaces.Sel].ID, "a removed one leaves the cursor in range")
}

// The create form shows the whole tag placeholder (not a lone reverse-video
// first letter), and the zoom key says how to come back.
func TestWorkspaceCreatePlaceholderAndZoomHint(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Alt('4')
	h.Key("n")
	require.Contains(t, h.Screen(), "tag › research-aapl")
	h.Key("esc")
	require.Contains(t, h.Screen(), "z full screen (ctrl+q back)")
	require.Contains(t, h.M.KeyMap().Workspaces.Zoom.Help().Desc, "ctrl+q")
}

// While attached, an error can be dismissed without leaving the session:
// the first ctrl+q (which never reaches the child) clears the live error,
// the next detaches; an older, resolved error never comes back.
func TestErrorsAreDismissedWhileAttached(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+4", "s")
	require.True(t, h.M.Workspaces.Attached())
	term := h.F.Terms["ws1"][0].(*tuitest.FakeTerm)
	h.Send(kit.ErrMsg{Err: errors.New("quote feed down")})
	h.Send(kit.ErrMsg{Err: errors.New("broker offline")})
	s := h.Screen()
	require.Contains(t, s, "✗ broker offline")
	require.Contains(t, s, "ctrl+q dismiss", "the hint names the key that works while attached")
	h.Key("ctrl+q")
	require.True(t, h.M.Workspaces.Attached(), "the first ctrl+q only dismisses")
	s = h.Screen()
	require.NotContains(t, s, "broker offline")
	require.NotContains(t, s, "quote feed down", "dismissing never brings back an older error")
	require.NotContains(t, term.Keys, "ctrl+q")
	h.Send(tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl})
	require.Contains(t, term.Keys, "ctrl+x", "ctrl+x still goes to the child while attached")
	h.Send(kit.ErrMsg{Err: errors.New("market closed")})
	h.Send(tea.MouseClickMsg{X: 3, Y: 29, Button: tea.MouseLeft})
	require.NotContains(t, h.Screen(), "market closed", "a click on the status bar dismisses too")
	require.True(t, h.M.Workspaces.Attached())
	h.Key("ctrl+q")
	require.False(t, h.M.Workspaces.Attached(), "with no error ctrl+q detaches")

	// An error from before attaching does not change what ctrl+q does.
	h.Send(kit.ErrMsg{Err: errors.New("older")})
	h.Key("enter")
	require.True(t, h.M.Workspaces.Attached())
	require.Contains(t, h.Screen(), "✗ older")
	h.Key("ctrl+q")
	require.False(t, h.M.Workspaces.Attached())
}

// At 80x24 the header's keys wrap instead of being cut, so the zoom
// key's way back is on screen (it read "z full sc…").
func TestWorkspaceZoomHintAt80(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 80, 24)
	h.Alt('4')
	s := h.Screen()
	require.Contains(t, s, "z full screen (ctrl+q back)")
	require.Contains(t, s, "l git")
	require.NotContains(t, s, "z full sc…")
}

// attachPatched attaches a shell session (a FakeTerm) at 100x30 with a
// patcher that reports each patch on the returned channel.
func attachPatched(t *testing.T) (*tuitest.Harness, *tuitest.FakeTerm, chan struct{}) {
	t.Helper()
	h := tuitest.NewHarness(t, 100, 30)
	patched := make(chan struct{}, 8)
	h.M.SetPatcher(func(draw tea.PatchDraw) bool {
		_, ok := draw(uv.NewRenderBuffer(100, 30))
		patched <- struct{}{}
		return ok
	})
	h.Key("alt+4")
	h.Key("s")
	require.True(t, h.M.Workspaces.Attached())
	return h, h.F.Terms["ws1"][0].(*tuitest.FakeTerm), patched
}

// A patch draws a session's change before the pane hears of it (its
// TermChangedMsg follows). A frame the model draws in between — for a
// toast, a tick, a key — must show the screen as the patch left it, not
// the pane's older copy, or it would undo the patch on screen.
func TestAFrameBetweenAPatchAndItsMessageShowsThePatchedScreen(t *testing.T) {
	t.Parallel()
	h, term, patched := attachPatched(t)
	require.NotContains(t, h.Screen(), "after the patch")
	// Straight to the model (h.Send would first deliver the patch's
	// TermChangedMsg): what the event loop does when another message
	// comes first.
	frame := func(msg tea.Msg) string {
		h.M.Update(msg)
		return h.M.View().Content
	}

	// A change after a quiet spell is patched at once (Watch); one within
	// a frame of the last would wait out the frame and go to the model.
	quiet := func() { time.Sleep(10 * time.Millisecond) }
	term.Mu.Lock()
	term.Screen = "$ after the patch"
	term.Mu.Unlock()
	quiet()
	term.ChangedCh <- struct{}{}
	<-patched
	require.Contains(t, frame(kit.FlashMsg("a toast")), "after the patch", "the toast's frame shows the patched screen")
	h.Send(kit.FlashMsg("the patch's message delivered, the watch armed again"))

	quiet()
	term.ChangedCh <- struct{}{}
	<-patched
	term.Mu.Lock()
	term.Screen = "$ after the patch, typed"
	term.Mu.Unlock()
	// A key passed to the session draws no frame at all: the patched
	// frame stays on screen (the program does not ask for a view), and
	// the next frame drawn reads the screen again.
	h.M.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	require.True(t, h.M.ViewUnchanged(), "a key passed to the session draws no frame")
	require.Contains(t, frame(kit.FlashMsg("another toast")), "typed", "the next frame after a patch reads the screen again")
}

// TestEchoesInARowArePatchedWithoutTheModel: after a patched echo the
// watch goes on patching the session's next changes itself while keys are
// typed; the model is not asked to draw the screen after each echo (its
// frame would write nothing, and drawing it took the CPU the terminal
// needs to show the echo). It catches up once the session is quiet.
func TestEchoesInARowArePatchedWithoutTheModel(t *testing.T) {
	t.Parallel()
	h, term, patched := attachPatched(t)
	waitPatch := func(what string) {
		t.Helper()
		select {
		case <-patched:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not patched", what)
		}
	}

	require.Contains(t, ansi.Strip(h.M.View().Content), "sh1") // the program's frame
	time.Sleep(10 * time.Millisecond)                          // a quiet spell
	term.ChangedCh <- struct{}{}
	waitPatch("the first echo")
	for i := range 3 {
		// Straight to the model: nothing here delivers the watch's
		// message, so only the watch itself can patch the next echo.
		h.M.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		require.True(t, h.M.ViewUnchanged(), "a key passed to the session draws no frame")
		term.ChangedCh <- struct{}{}
		waitPatch(fmt.Sprintf("echo %d after a key", i+2))
	}
	// Quiet again: the watch's message brings the model up to date and
	// arms the next watch, which patches the next echo as before.
	time.Sleep(100 * time.Millisecond)
	term.Mu.Lock()
	term.Screen = "$ xxx caught up"
	term.Mu.Unlock()
	h.Send(kit.FlashMsg("deliver what the watch sent"))
	require.Contains(t, h.Screen(), "caught up")
	time.Sleep(10 * time.Millisecond)
	term.ChangedCh <- struct{}{}
	waitPatch("an echo after the catch-up")
}
