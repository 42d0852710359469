package chat_test

import (
	"testing"

	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

func TestChatShowsToolImagesAsOpenablePlaceholders(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Histories["tui/default"] = []chat.ChatMessage{
		{Role: chat.RoleUser, Text: "chart AAPL"},
		{Role: chat.RoleAssistant, Text: "Here is the chart."},
		{Role: chat.RoleImage, Text: "/data/media/0a1b2c3d4e5f6071.png"},
	}
	h.Run(h.M.Chat.Load())
	s := h.Screen()
	require.Contains(t, s, "🖼 Image 0a1b2c3d4e5f6071.png")
	require.Contains(t, s, "/data/media/0a1b2c3d4e5f6071.png")
	require.Contains(t, h.M.Render(), "\x1b]8;;file:///data/media/0a1b2c3d4e5f6071.png", "an OSC 8 link opens the file")
}

func TestChatShowsAnImageWhileTheTurnStreams(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Script = []chat.ChatEvent{
		{Kind: chat.ChatToolUse, Tool: "chart", ToolID: "1", Input: `{}`},
		{Kind: chat.ChatToolResult, Tool: "chart", ToolID: "1", Output: "[Image saved to disk — use Read tool to view the file: media/ab.png]"},
		{Kind: chat.ChatImage, Text: "/data/media/ab.png"},
		{Kind: chat.ChatDelta, Text: "Here it is."},
		{Kind: chat.ChatDone},
	}
	h.TypeText("chart AAPL")
	h.Key("enter")
	s := h.Screen()
	require.Contains(t, s, "🖼 Image ab.png")
	require.Contains(t, s, "Here it is.")
}
