package chat_test

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// A reply looks the same while it streams as once it is done: the
// paragraph still arriving is indented and wrapped like the rendered
// ones (markdown lists included), so nothing jumps when the reply ends.
func TestStreamedReplyMatchesTheFinalRendering(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"A single paragraph that is long enough to wrap over more than one row of the transcript at this width, with words.",
		"First paragraph.\n\nSecond paragraph, also long enough to wrap over more than one row of the transcript at this width.",
		"The plan:\n\n- buy 10 AAPL at the open\n- sell half if it gains 5%",
		"Line one of a paragraph\nwith a soft break inside it.",
	} {
		h := tuitest.NewHarness(t, 80, 30)
		h.M.Chat.Msgs = []chat.ChatMessage{{Role: chat.RoleUser, Text: "plan?"}, {Role: chat.RoleAssistant, Text: text}}
		h.M.Chat.Partial = 1
		h.M.Chat.Replaced()
		streaming := transcript(h.Screen())
		h.M.Chat.Partial = -1
		h.M.Chat.Replaced()
		final := transcript(h.Screen())
		require.Equal(t, final, streaming, "%q", text)
	}
}

// transcript is the screen between the frame top and the input rule.
func transcript(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	for _, l := range lines[2:] {
		if strings.Contains(l, "────") {
			break
		}
		out = append(out, strings.TrimRight(l, " │"))
	}
	return strings.Join(out, "\n")
}
