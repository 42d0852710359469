package chat_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

func TestChatStreamsAReplyWithToolCalls(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Script = []chat.ChatEvent{
		{Kind: chat.ChatDelta, Text: "Staging "},
		{Kind: chat.ChatDelta, Text: "the order."},
		{Kind: chat.ChatToolUse, Tool: "placeOrder", ToolID: "1", Input: `{"aliceId":"sim-paper|AAPL","totalQuantity":"10"}`},
		{Kind: chat.ChatToolResult, Tool: "placeOrder", ToolID: "1", Output: `{"staged":true}`},
		{Kind: chat.ChatDone, Text: "Staging the order."},
	}
	h.TypeText("buy 10 AAPL")
	h.Key("enter")
	require.Equal(t, []string{"tui/default: buy 10 AAPL"}, h.F.Sent)
	s := h.Screen()
	require.Contains(t, s, "buy 10 AAPL")
	require.Contains(t, s, "Staging the order.")
	require.Contains(t, s, "⚙ placeOrder")
	require.Contains(t, s, "✓")
	require.False(t, h.M.Chat.Busy)
	require.NotContains(t, s, `"staged":true`, "tool output collapsed by default")
	h.Send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	require.Contains(t, h.Screen(), `"staged":true`, "ctrl+o expands tool calls")

	// History recall.
	h.Key("up")
	require.Equal(t, "buy 10 AAPL", h.M.Chat.Input.Value())
}

func TestChatShowsProviderSetupError(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.SendErr = fmt.Errorf("No AI provider is configured yet, so Alice cannot answer.\n\nAdd a profile to /x/ai-provider.json")
	h.TypeText("hello")
	h.Key("enter")
	s := h.Screen()
	require.Contains(t, s, "No AI provider is configured yet")
	require.Contains(t, s, "ai-provider.json")
	require.False(t, h.M.Chat.Busy)
}

func TestChatSlashCommands(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("/compact")
	h.Key("enter")
	require.Equal(t, []string{"tui/default"}, h.F.Compacted)
	h.TypeText("/new research")
	h.Key("enter")
	require.Equal(t, "tui/research", h.M.Chat.Session)
	h.TypeText("/bogus")
	h.Key("enter")
	require.Contains(t, h.Toast(), "unknown command")
}

func TestEmptyChatExplainsMissingProvider(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	require.Contains(t, h.Screen(), "No messages yet")
	h.M.Status.Provider = "not configured"
	s := h.Screen()
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
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("ctrl+s")
	require.True(t, h.M.Chat.BrowserOpen())
	require.Contains(t, h.Screen(), "telegram/1")
	h.Key("down", "down", "enter")
	require.Equal(t, "telegram/1", h.M.Chat.Session)
	require.Contains(t, h.Screen(), "read-only")
	h.TypeText("hello")
	h.Key("enter")
	require.Empty(t, h.F.Sent)
	require.Contains(t, h.Toast(), "read-only")
	require.Equal(t, "hello", h.M.Chat.Input.Value(), "a refused message stays in the input")
	h.Send(tuitest.Ctrl('u'))
	require.Empty(t, h.M.Chat.Input.Value(), "ctrl+u clears to the line start")
	h.TypeText("/new scratch")
	h.Key("enter")
	require.Equal(t, "tui/scratch", h.M.Chat.Session)
	h.TypeText("hi")
	h.Key("enter")
	require.Equal(t, []string{"tui/scratch: hi"}, h.F.Sent)
}

func TestChatPairsParallelToolResultsByID(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	h.F.Script = []chat.ChatEvent{
		{Kind: chat.ChatToolUse, Tool: "getQuote", ToolID: "a", Input: `{"symbol":"AAPL"}`},
		{Kind: chat.ChatToolUse, Tool: "getQuote", ToolID: "b", Input: `{"symbol":"MSFT"}`},
		{Kind: chat.ChatToolResult, Tool: "getQuote", ToolID: "a", Output: "AAPL 190"},
		{Kind: chat.ChatToolResult, Tool: "getQuote", ToolID: "b", Output: "no such symbol", IsError: true},
		{Kind: chat.ChatDone, Text: "Done."},
	}
	h.TypeText("quotes")
	h.Key("enter")
	var tools []chat.ChatMessage
	for _, m := range h.M.Chat.Msgs {
		if m.Role == chat.RoleTool {
			tools = append(tools, m)
		}
	}
	require.Len(t, tools, 2)
	require.Equal(t, "AAPL 190", tools[0].Output)
	require.False(t, tools[0].IsError)
	require.Equal(t, "no such symbol", tools[1].Output)
	require.True(t, tools[1].IsError)
	s := h.Screen()
	require.Contains(t, s, "✓")
	require.Contains(t, s, "✗")
}

func TestChatSpinnerWhileWorkingAndEscStops(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	block := make(chan chat.ChatEvent)
	cancelled := false
	h.M.Chat.Busy, h.M.Chat.Cancel = true, func() { cancelled = true }
	h.Send(chat.ChatStreamMsg{Ch: block})
	require.Contains(t, h.Screen(), "Alice is working")
	h.Key("esc")
	require.True(t, cancelled, "esc cancels the turn's context")
	require.Contains(t, h.Toast(), "stopping")
	close(block)
	h.Send(chat.ChatEventMsg{Ok: false})
	require.False(t, h.M.Chat.Busy)
	require.NotContains(t, h.Screen(), "Alice is working")
}

func TestChatScrollsAndRendersOnlyVisibleMessages(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	for i := 0; i < 500; i++ {
		h.M.Chat.Msgs = append(h.M.Chat.Msgs, chat.ChatMessage{Role: chat.RoleUser, Text: fmt.Sprintf("msg-%03d", i)})
	}
	h.M.Chat.Replaced()
	s := h.Screen()
	require.Contains(t, s, "msg-499")
	require.NotContains(t, s, "msg-400")
	require.Less(t, h.M.Chat.Transcript.Rendered, 30, "only visible messages are rendered")
	h.Key("pgup")
	require.NotContains(t, h.Screen(), "msg-499")
	require.Contains(t, h.Screen(), "of 500 · ctrl+end newest", "the header says where you are")
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, Y: 5})
	h.Key("pgdn", "pgdn")
	require.Contains(t, h.Screen(), "msg-499")
	require.True(t, h.M.Chat.Transcript.Follow, "back at the bottom the view follows new messages")

	// The top costs the same: only the first messages are rendered.
	h.M.Chat.Invalidate()
	h.Send(tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl})
	s = h.Screen()
	require.Contains(t, s, "msg-000")
	require.NotContains(t, s, "msg-499")
	require.Less(t, h.M.Chat.Transcript.Rendered, 30)
	h.Send(tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl})
	require.Contains(t, h.Screen(), "msg-499")
}
