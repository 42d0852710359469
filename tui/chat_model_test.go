package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

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
