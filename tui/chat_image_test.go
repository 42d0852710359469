package tui

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChatShowsToolImagesAsOpenablePlaceholders(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.history["tui/default"] = []ChatMessage{
		{Role: RoleUser, Text: "chart AAPL"},
		{Role: RoleAssistant, Text: "Here is the chart."},
		{Role: RoleImage, Text: "/data/media/0a1b2c3d4e5f6071.png"},
	}
	h.run(h.m.chat.load())
	s := h.screen()
	require.Contains(t, s, "🖼 Image 0a1b2c3d4e5f6071.png")
	require.Contains(t, s, "/data/media/0a1b2c3d4e5f6071.png")
	require.Contains(t, h.m.render(), "\x1b]8;;file:///data/media/0a1b2c3d4e5f6071.png", "an OSC 8 link opens the file")
}

func TestChatShowsAnImageWhileTheTurnStreams(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.script = []ChatEvent{
		{Kind: ChatToolUse, Tool: "chart", ToolID: "1", Input: `{}`},
		{Kind: ChatToolResult, Tool: "chart", ToolID: "1", Output: "[Image saved to disk — use Read tool to view the file: media/ab.png]"},
		{Kind: ChatImage, Text: "/data/media/ab.png"},
		{Kind: ChatDelta, Text: "Here it is."},
		{Kind: ChatDone},
	}
	h.typeText("chart AAPL")
	h.key("enter")
	s := h.screen()
	require.Contains(t, s, "🖼 Image ab.png")
	require.Contains(t, s, "Here it is.")
}
