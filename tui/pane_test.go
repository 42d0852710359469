package tui

import (
	"errors"
	"fmt"
	"image/color"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// rawSeq stands in for an input sequence the key decoder did not
// understand (ultraviolet's UnknownEvent is a Stringer like this).
type rawSeq string

func (r rawSeq) String() string { return string(r) }

func TestEveryBindingHasHelpText(t *testing.T) {
	km := reflect.ValueOf(DefaultKeyMap())
	for i := 0; i < km.NumField(); i++ {
		group := km.Field(i)
		for j := 0; j < group.NumField(); j++ {
			b := group.Field(j).Interface().(key.Binding)
			name := km.Type().Field(i).Name + "." + group.Type().Field(j).Name
			require.NotEmpty(t, b.Keys(), name)
			require.NotEmpty(t, b.Help().Key, name)
			require.NotEmpty(t, b.Help().Desc, name)
		}
	}
}

func TestHelpOverlayShowsFocusedPaneKeys(t *testing.T) {
	h := newHarness(t, 100, 40)
	for f := focusChat; int(f) < len(h.m.tabs); f++ {
		h.m.setFocus(f)
		h.key("f1")
		require.NotNil(t, h.m.help)
		s := h.screen()
		for _, b := range h.m.tabs[f].p.ShortHelp()[:3] {
			require.Contains(t, s, b.Help().Desc, "pane %s", h.m.tabs[f].name)
		}
		require.Contains(t, s, "next pane")
		h.key("esc")
		require.Nil(t, h.m.help)
	}
}

func TestStatusBarShowsListenersProviderAndErrors(t *testing.T) {
	h := newHarness(t, 140, 30)
	s := h.screen()
	require.Contains(t, s, "MCP http://127.0.0.1:3001/mcp")
	require.Contains(t, s, "Ask http://127.0.0.1:3003/mcp")
	require.Contains(t, s, "AI mock (openai m)")
	h.send(errMsg{fmt.Errorf("broker offline\nsecond line")})
	s = h.screen()
	require.Contains(t, s, "✗ broker offline")
	require.NotContains(t, s, "second line", "only the first line fits the bar")
}

func TestCoreEventsReloadPanesThroughTheBridge(t *testing.T) {
	h := newHarness(t, 160, 30)
	h.f.mu.Lock()
	h.f.inbox = append([]InboxEntry{{ID: "e3", Workspace: "btc", Comments: "new push", Time: t0.Add(2 * time.Hour)}}, h.f.inbox...)
	h.f.mu.Unlock()
	// One event through the real bridge Cmd (its re-armed successor is
	// left waiting, as in the program).
	h.f.events <- InboxChangedEvent{}
	h.run(h.m.waitEvent())
	require.Len(t, h.m.inbox.entries, 3)
	require.Contains(t, h.screen(), "Inbox (3)")

	h.send(coreEventMsg{TradingChangedEvent{ApprovalRequested: true}})
	require.Contains(t, h.screen(), "waiting for your approval")

	h.send(coreEventMsg{NotificationEvent{Text: "AAPL hit 200", Source: "cron"}})
	require.Contains(t, h.screen(), "AAPL hit 200")
}

func TestChatOtherChannelSessionsAreReadOnly(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("ctrl+s")
	require.True(t, h.m.chat.picking)
	require.Contains(t, h.screen(), "telegram/1")
	h.key("down", "down", "enter")
	require.Equal(t, "telegram/1", h.m.chat.session)
	require.Contains(t, h.screen(), "read-only")
	h.typeText("hello")
	h.key("enter")
	require.Empty(t, h.f.sent)
	require.Contains(t, h.toast(), "read-only")
	require.Equal(t, "hello", h.m.chat.input.Value(), "a refused message stays in the input")
	h.send(ctrl('u'))
	require.Empty(t, h.m.chat.input.Value(), "ctrl+u clears to the line start")
	h.typeText("/new scratch")
	h.key("enter")
	require.Equal(t, "tui/scratch", h.m.chat.session)
	h.typeText("hi")
	h.key("enter")
	require.Equal(t, []string{"tui/scratch: hi"}, h.f.sent)
}

func TestChatPairsParallelToolResultsByID(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.f.script = []ChatEvent{
		{Kind: ChatToolUse, Tool: "getQuote", ToolID: "a", Input: `{"symbol":"AAPL"}`},
		{Kind: ChatToolUse, Tool: "getQuote", ToolID: "b", Input: `{"symbol":"MSFT"}`},
		{Kind: ChatToolResult, Tool: "getQuote", ToolID: "a", Output: "AAPL 190"},
		{Kind: ChatToolResult, Tool: "getQuote", ToolID: "b", Output: "no such symbol", IsError: true},
		{Kind: ChatDone, Text: "Done."},
	}
	h.typeText("quotes")
	h.key("enter")
	var tools []ChatMessage
	for _, m := range h.m.chat.msgs {
		if m.Role == RoleTool {
			tools = append(tools, m)
		}
	}
	require.Len(t, tools, 2)
	require.Equal(t, "AAPL 190", tools[0].Output)
	require.False(t, tools[0].IsError)
	require.Equal(t, "no such symbol", tools[1].Output)
	require.True(t, tools[1].IsError)
	s := h.screen()
	require.Contains(t, s, "✓")
	require.Contains(t, s, "✗")
}

func TestChatSpinnerWhileWorkingAndEscStops(t *testing.T) {
	h := newHarness(t, 100, 30)
	block := make(chan ChatEvent)
	cancelled := false
	h.m.chat.busy, h.m.chat.cancel = true, func() { cancelled = true }
	h.send(chatStreamMsg{ch: block})
	require.Contains(t, h.screen(), "Alice is working")
	h.key("esc")
	require.True(t, cancelled, "esc cancels the turn's context")
	require.Contains(t, h.toast(), "stopping")
	close(block)
	h.send(chatEventMsg{ok: false})
	require.False(t, h.m.chat.busy)
	require.NotContains(t, h.screen(), "Alice is working")
}

func TestChatScrollsAndRendersOnlyVisibleMessages(t *testing.T) {
	h := newHarness(t, 100, 30)
	for i := 0; i < 500; i++ {
		h.m.chat.msgs = append(h.m.chat.msgs, ChatMessage{Role: RoleUser, Text: fmt.Sprintf("msg-%03d", i)})
	}
	h.m.chat.replaced()
	s := h.screen()
	require.Contains(t, s, "msg-499")
	require.NotContains(t, s, "msg-400")
	require.Less(t, h.m.chat.view.rendered, 30, "only visible messages are rendered")
	h.key("pgup")
	require.NotContains(t, h.screen(), "msg-499")
	require.Contains(t, h.screen(), "of 500 · ctrl+end newest", "the header says where you are")
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, Y: 5})
	h.key("pgdn", "pgdn")
	require.Contains(t, h.screen(), "msg-499")
	require.True(t, h.m.chat.view.follow, "back at the bottom the view follows new messages")

	// The top costs the same: only the first messages are rendered.
	h.m.chat.invalidate()
	h.send(tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl})
	s = h.screen()
	require.Contains(t, s, "msg-000")
	require.NotContains(t, s, "msg-499")
	require.Less(t, h.m.chat.view.rendered, 30)
	h.send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	require.Contains(t, h.screen(), "msg-499")
}

func TestInboxMouseSelects(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("tab")
	require.Equal(t, 0, h.m.inbox.sel)
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, Y: 4})
	require.Equal(t, 1, h.m.inbox.sel)
	require.Equal(t, 0, h.m.inbox.unread())
	// Screen row 3 is the pane's first list row (tabs, frame top, header).
	h.send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 3, X: 10})
	require.Equal(t, 0, h.m.inbox.sel)
	// Clicking a tab title focuses that pane.
	h.send(tea.MouseClickMsg{Button: tea.MouseLeft, Y: 0, X: 2})
	require.Equal(t, focusChat, h.m.focus)
}

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

func TestConfirmGraceHoldsWhileKeysKeepArriving(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3", "a")
	// A held key repeating every 100 ms for 3 s never gets through.
	for i := 0; i < 30; i++ {
		h.now = h.now.Add(100 * time.Millisecond)
		h.key("y")
	}
	require.NotNil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
	require.Contains(t, h.screen(), "waiting for input to settle")
	h.now = h.now.Add(graceQuiet)
	require.Contains(t, h.screen(), "y confirm")
	h.key("esc")
	require.Nil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
}

func TestGoldenOverlays(t *testing.T) {
	t.Run("help_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.m.setFocus(focusPortfolio)
		h.key("?")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("palette_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.send(tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl})
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("messages_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24)
		h.send(flashMsg("session compacted"))
		h.now = h.now.Add(time.Minute)
		h.send(errMsg{errors.New("broker offline: dial tcp 10.0.0.5:7497: connect: connection refused")})
		h.send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("quit_80x24", func(t *testing.T) {
		h := newHarness(t, 80, 24)
		h.key("ctrl+c")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("approve_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.key("alt+3", "a")
		h.now = h.now.Add(time.Second)
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("attached_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.key("alt+4", "s")
		h.typeText("echo hi")
		golden.RequireEqual(t, []byte(h.screen()))
	})
	t.Run("light_chat_100x30", func(t *testing.T) {
		h := newHarness(t, 100, 30)
		h.send(tea.BackgroundColorMsg{Color: color.White})
		require.False(t, h.m.st.Dark)
		h.f.history["tui/default"] = []ChatMessage{{Role: RoleAssistant, Text: "# Title\n\n- one\n- two"}}
		h.run(h.m.chat.load())
		golden.RequireEqual(t, []byte(strings.TrimRight(h.screen(), " \n")))
	})
}

func TestInboxDetailFollowsTheFiles(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("tab", "enter")
	require.Contains(t, h.screen(), "Revenue up 8%.")
	h.f.mu.Lock()
	h.f.docBody = "# Report\nRevenue up 9%."
	h.f.mu.Unlock()
	h.f.events <- InboxChangedEvent{}
	h.run(h.m.waitEvent())
	require.Contains(t, h.screen(), "Revenue up 9%.")
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	require.Equal(t, 112, h.f.renderWidth, "re-rendered at the new width (inside the frame)")
}
