package tui

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

var _ = flag.Bool // golden registers -update

// harness drives the model synchronously: commands run with a short
// deadline (ticks and spinners that sleep are dropped) and their messages
// are fed back into Update.
type harness struct {
	t   *testing.T
	m   *Model
	f   *fakeCore
	now time.Time
}

func newHarness(t *testing.T, w, h int) *harness {
	return newHarnessCore(t, w, h, func(f *fakeCore) Core { return f })
}

// newHarnessCore runs the model over wrap(fake), for optional interfaces.
func newHarnessCore(t *testing.T, w, h int, wrap func(*fakeCore) Core) *harness {
	f := newFakeCore()
	hs := newHarnessOver(t, wrap(f), f, w, h)
	hs.run(hs.m.loadAll())
	return hs
}

// newHarnessOver builds the model over core (a fake embedding f) at w×h
// with the harness's clock and f's event channel; the caller runs the
// loads its test needs.
func newHarnessOver(t *testing.T, core Core, f *fakeCore, w, h int) *harness {
	dark := true
	hs := &harness{t: t, f: f, now: t0}
	m := New(core, Options{Version: "test", Dark: &dark, Now: func() time.Time { return hs.now }})
	hs.m = m
	t.Cleanup(m.Close) // ends watch/bridge Cmds the harness left blocked
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	m.events = f.events
	return hs
}

// toast is the text of the newest live toast.
func (h *harness) toast() string {
	t, _ := h.m.toasts.current()
	return t.text
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	h.runDepth(cmd, 0)
}

func (h *harness) runDepth(cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 50 {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(100 * time.Millisecond):
		return // a tick or a blocking wait: not part of this step
	}
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.runDepth(c, depth+1)
		}
	case tickMsg, chatSpinMsg:
	default:
		_, next := h.m.Update(msg)
		h.runDepth(next, depth+1)
	}
}

func (h *harness) key(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdn":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "ctrl+q":
		return tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "alt+3":
		return tea.KeyPressMsg{Code: '3', Mod: tea.ModAlt}
	case "alt+4":
		return tea.KeyPressMsg{Code: '4', Mod: tea.ModAlt}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func (h *harness) screen() string { return ansi.Strip(h.m.render()) }

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

func TestChatStreamsAReplyWithToolCalls(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.script = []ChatEvent{
		{Kind: ChatDelta, Text: "Staging "},
		{Kind: ChatDelta, Text: "the order."},
		{Kind: ChatToolUse, Tool: "placeOrder", ToolID: "1", Input: `{"aliceId":"sim-paper|AAPL","totalQuantity":"10"}`},
		{Kind: ChatToolResult, Tool: "placeOrder", ToolID: "1", Output: `{"staged":true}`},
		{Kind: ChatDone, Text: "Staging the order."},
	}
	h.typeText("buy 10 AAPL")
	h.key("enter")
	require.Equal(t, []string{"tui/default: buy 10 AAPL"}, h.f.sent)
	s := h.screen()
	require.Contains(t, s, "buy 10 AAPL")
	require.Contains(t, s, "Staging the order.")
	require.Contains(t, s, "⚙ placeOrder")
	require.Contains(t, s, "✓")
	require.False(t, h.m.chat.busy)
	require.NotContains(t, s, `"staged":true`, "tool output collapsed by default")
	h.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	require.Contains(t, h.screen(), `"staged":true`, "ctrl+o expands tool calls")

	// History recall.
	h.key("up")
	require.Equal(t, "buy 10 AAPL", h.m.chat.input.Value())
}

func TestChatShowsProviderSetupError(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.sendErr = fmt.Errorf("No AI provider is configured yet, so Alice cannot answer.\n\nAdd a profile to /x/ai-provider.json")
	h.typeText("hello")
	h.key("enter")
	s := h.screen()
	require.Contains(t, s, "No AI provider is configured yet")
	require.Contains(t, s, "ai-provider.json")
	require.False(t, h.m.chat.busy)
}

func TestChatSlashCommands(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.typeText("/compact")
	h.key("enter")
	require.Equal(t, []string{"tui/default"}, h.f.compacted)
	h.typeText("/new research")
	h.key("enter")
	require.Equal(t, "tui/research", h.m.chat.session)
	h.typeText("/bogus")
	h.key("enter")
	require.Contains(t, h.toast(), "unknown command")
}

func TestApproveNeedsConfirmAndIgnoresStrayKeys(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3")
	require.Contains(t, h.screen(), "Pending approval")
	h.key("a")
	require.NotNil(t, h.m.dialog)
	// Keys arriving right away (still typing) are ignored, even "y".
	h.now = h.now.Add(100 * time.Millisecond)
	h.key("y")
	require.NotNil(t, h.m.dialog)
	require.Empty(t, h.f.approved)
	h.now = h.now.Add(300 * time.Millisecond)
	h.key("y") // still within 500 ms of the last key
	require.Empty(t, h.f.approved)
	h.now = h.now.Add(600 * time.Millisecond)
	h.key("y")
	require.Nil(t, h.m.dialog)
	require.Equal(t, []string{"sim-paper"}, h.f.approved)
	require.Contains(t, h.screen(), "pushed 4d46698f")
}

func TestRejectCanBeCancelled(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.key("alt+3", "x")
	h.now = h.now.Add(time.Second)
	h.key("n")
	require.Nil(t, h.m.dialog)
	require.Empty(t, h.f.rejected)
	h.key("x")
	h.now = h.now.Add(time.Second)
	h.key("y")
	require.Equal(t, []string{"sim-paper"}, h.f.rejected)
}

func TestInboxOpenDeleteAndJump(t *testing.T) {
	h := newHarness(t, 100, 30)
	require.Equal(t, 2, h.m.inbox.unread())
	require.Contains(t, h.screen(), "Inbox (2)")
	h.key("tab")
	require.Equal(t, 1, h.m.inbox.unread(), "the selected entry is read once shown")
	h.key("enter")
	s := h.screen()
	require.Contains(t, s, "Revenue up 8%.")
	require.Contains(t, s, "File not found at this path.")
	h.key("esc", "d")
	h.now = h.now.Add(time.Second)
	h.key("y")
	require.Equal(t, []string{"e2"}, h.f.deleted)
	h.key("w")
	require.Equal(t, focusWorkspaces, h.m.focus)
	require.Equal(t, "ws1", h.m.workspaces.list[h.m.workspaces.sel].ID)
}

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

func TestEmptyChatExplainsMissingProvider(t *testing.T) {
	h := newHarness(t, 100, 30)
	require.Contains(t, h.screen(), "No messages yet")
	h.m.status.Provider = "not configured"
	s := h.screen()
	require.Contains(t, s, "No AI provider is configured yet.")
	require.Contains(t, s, "Settings → AI provider")
	require.Contains(t, s, "config file path")
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "Ask Alice…") || strings.Contains(line, "ctrl+p commands") {
			continue // the input placeholder and the footer
		}
		require.NotContains(t, line, "…", "the guidance wraps instead of being cut")
	}
}
