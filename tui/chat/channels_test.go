package chat_test

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
)

// /channel new creates a channel and opens it; /channel <name> switches;
// the header names the channel; rename and archive act on the current one.
func TestChannelCommands(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	require.Contains(t, h.Screen(), "# Alice")
	h.TypeText("/channel new Deep Dive")
	h.Key("enter")
	require.Equal(t, "tui/deep-dive", h.M.Chat.Session)
	require.Contains(t, h.Screen(), "# Deep Dive")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.TypeText("first question")
	h.Key("enter")
	require.Equal(t, []string{"tui/deep-dive: first question"}, h.F.Sent)

	h.TypeText("/channel research")
	h.Key("enter")
	require.Equal(t, "tui/research", h.M.Chat.Session, "a channel is found by label, any case")
	h.TypeText("/channel rename Ideas")
	h.Key("enter")
	require.Contains(t, h.Screen(), "# Ideas")
	h.TypeText("/channel archive")
	h.Key("enter")
	require.Equal(t, "tui/default", h.M.Chat.Session, "archiving leaves for the default channel")
	ch, _ := h.F.Channels()
	require.True(t, ch[1].Archived)
	h.TypeText("/channel nope")
	h.Key("enter")
	require.Contains(t, h.Toast(), `no channel named "nope"`)
	h.TypeText("/channel ideas")
	h.Key("enter")
	require.Equal(t, "tui/research", h.M.Chat.Session, "switching to an archived channel restores it")
	ch, _ = h.F.Channels()
	require.False(t, ch[1].Archived)
}

// ctrl+s: the browser lists sessions with channel, title, count and
// preview; typing filters; enter opens; ctrl+r renames; ctrl+d deletes
// only after y; ctrl+n creates a channel.
func TestSessionBrowser(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 110, 30)
	h.F.Histories["tui/default"] = []chat.ChatMessage{{Role: chat.RoleUser, Text: "morning plan"}, {Role: chat.RoleAssistant, Text: "Here is the plan"}}
	h.F.Histories["tui/research"] = []chat.ChatMessage{{Role: chat.RoleUser, Text: "earnings dates"}}
	h.Key("ctrl+s")
	require.True(t, h.M.Chat.BrowserOpen())
	s := h.Screen()
	for _, want := range []string{"filter › type to search titles, channels and messages", "Sessions", "# Alice", "morning plan", "2 msgs", "Alice: Here is the plan", "# Research", "earnings dates", "1 msg", "telegram/1"} {
		require.Contains(t, s, want)
	}
	h.TypeText("earn")
	s = h.Screen()
	require.Contains(t, s, "earnings dates")
	require.NotContains(t, s, "morning plan", "the filter narrows the list")
	h.Key("enter")
	require.False(t, h.M.Chat.BrowserOpen())
	require.Equal(t, "tui/research", h.M.Chat.Session)

	h.Key("ctrl+s")
	h.Key("ctrl+r")
	require.Contains(t, h.Screen(), "New title")
	h.Send(tuitest.Ctrl('u'))
	h.TypeText("Q3 earnings")
	h.Key("enter")
	require.Equal(t, "Q3 earnings", h.F.Titles["tui/research"], "the selected (current) session is renamed")
	require.Contains(t, h.Screen(), "Q3 earnings")

	// Delete: any key but y keeps it.
	h.Key("down")
	h.Key("ctrl+d")
	require.Contains(t, h.Screen(), "Delete ")
	h.Key("n")
	require.Empty(t, h.F.DeletedSessions)
	h.Key("ctrl+d")
	h.Key("y")
	require.Len(t, h.F.DeletedSessions, 1)

	h.Key("ctrl+n")
	require.Contains(t, h.Screen(), "New channel")
	h.TypeText("Macro")
	h.Key("enter")
	require.False(t, h.M.Chat.BrowserOpen())
	require.Equal(t, "tui/macro", h.M.Chat.Session)
	h.Key("ctrl+s")
	h.Key("esc")
	require.False(t, h.M.Chat.BrowserOpen())
}

// Slash commands complete as you type: the list shows matching commands,
// tab completes, enter on a partial argument-less command runs it, and
// /channel completes channel names.
func TestSlashCompletion(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("/c")
	s := h.Screen()
	require.Contains(t, s, "/channel")
	require.Contains(t, s, "/compact")
	require.Contains(t, s, "/clear")
	require.NotContains(t, s, "/sessions")
	h.TypeText("om")
	h.Key("enter")
	require.Equal(t, []string{"tui/default"}, h.F.Compacted, "enter on /com runs /compact")
	require.Empty(t, h.M.Chat.Input.Value())

	h.TypeText("/ch")
	h.Key("tab")
	require.Equal(t, "/channel ", h.M.Chat.Input.Value())
	h.TypeText("re")
	require.Contains(t, h.Screen(), "/channel rename")
	require.Contains(t, h.Screen(), "/channel Research")
	h.Key("down", "tab")
	require.Equal(t, "/channel Research", h.M.Chat.Input.Value())
	h.Key("enter")
	require.Equal(t, "tui/research", h.M.Chat.Session)

	h.TypeText("/he")
	h.Key("esc")
	require.NotContains(t, h.Screen(), "commands and keys", "esc hides the list")
	h.Send(tuitest.Ctrl('u'))
	h.TypeText("not a command")
	require.NotContains(t, h.Screen(), "/channel [new")
}

// The input grows with soft-wrapped rows, up to a bound, then scrolls.
func TestInputGrowsWithWrappedRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w, n, rows int
	}{
		{80, 164, 3}, // 164 characters at 80 columns: three rows, not the last one
		{120, 300, 3},
		{80, 900, 6}, // bounded (a longer line would be attached as a paste)
	} {
		h := tuitest.NewHarness(t, tc.w, 24)
		text := strings.TrimSpace(strings.Repeat("lorem ipsum dolor sit amet ", tc.n/27+1))[:tc.n]
		h.Send(tea.PasteMsg{Content: text})
		require.Equal(t, tc.rows, h.M.Chat.Input.Height(), "%d chars at %d cols", tc.n, tc.w)
		s := h.Screen()
		require.Contains(t, s, "› lorem ipsum", "the first row is shown")
		if tc.rows < 6 {
			require.Contains(t, s, text[len(text)-12:], "and the last")
		}
	}
}

// ↑ recalls a sent message with its large paste still collapsed.
func TestRecallKeepsPasteCollapsed(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	big := strings.TrimSuffix(strings.Repeat("row\n", 300), "\n")
	h.Send(tea.PasteMsg{Content: big})
	h.TypeText("summarise")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.Key("enter")
	require.Empty(t, h.M.Chat.Pasted)
	h.Key("up")
	require.Equal(t, "summarise", h.M.Chat.Input.Value(), "the typed text comes back…")
	require.Len(t, h.M.Chat.Pasted, 1, "…and the paste comes back attached")
	require.Contains(t, h.Screen(), "paste 1 · 300 lines")
	require.Equal(t, 1, h.M.Chat.Input.Height(), "not expanded into the input")
	h.Key("down")
	require.Empty(t, h.M.Chat.Pasted)
}

// Every slash command the chat runs is listed by /help and completes.
func TestEverySlashCommandIsInHelpAndCompletes(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"/channel", "/new", "/session", "/sessions", "/title", "/compact", "/clear", "/help"} {
		h := tuitest.NewHarness(t, 160, 45)
		h.TypeText(cmd[:len(cmd)-1])
		require.Regexp(t, `(?m)^│ *`+regexp.QuoteMeta(cmd)+`\b`, h.Screen(), "%s completes", cmd)
		h.Send(tuitest.Ctrl('u'))
		h.TypeText("/help")
		h.Key("esc", "enter")
		require.Contains(t, h.Screen(), cmd, "/help lists %s", cmd)
	}
}

// The chat header names the provider the channel's own profile resolves
// to, and picks up a profile set in Settings as soon as the chat is shown
// again.
func TestChannelHeaderShowsItsProvider(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("/channel Research")
	h.Key("enter")
	require.Contains(t, h.Screen(), "# Research · mock (openai m)")
	h.Send(tea.KeyPressMsg{Code: '8', Mod: tea.ModAlt})
	h.F.Mu.Lock()
	h.F.ChannelList[1].Profile, h.F.ChannelList[1].Provider = "other", "other (openai other-model)"
	h.F.Mu.Unlock()
	h.Send(tea.KeyPressMsg{Code: '1', Mod: tea.ModAlt})
	require.Contains(t, h.Screen(), "# Research · other (openai other-model)")
}

// /session opens a session that exists (a bare channel id finds its tui/
// session) and says so when none has that id, instead of opening an
// empty read-only chat named after the typo (found in tmux).
func TestSlashSessionOpensOnlyExistingSessions(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("/session nosuch1")
	h.Key("enter")
	require.Equal(t, "tui/default", h.M.Chat.Session, "the chat stays where it was")
	require.Contains(t, h.Toast(), `no session "nosuch1"`)
	h.TypeText("/session telegram/1")
	h.Key("enter")
	require.Equal(t, "telegram/1", h.M.Chat.Session)
	h.TypeText("/session research")
	h.Key("enter")
	require.Equal(t, "tui/research", h.M.Chat.Session)
}

// The session browser's preview is plain text: a reply's markdown marks
// are not shown raw (it read "Alice: Order staged. **Approve it in …").
func TestSessionBrowserPreviewIsPlainText(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 120, 30)
	h.F.Mu.Lock()
	h.F.Histories["tui/default"] = []chat.ChatMessage{{Role: chat.RoleUser, Text: "buy"},
		{Role: chat.RoleAssistant, Text: "## Done\nOrder staged. **Approve it** in the `Portfolio` pane."}}
	h.F.Mu.Unlock()
	h.Send(tuitest.Ctrl('s'))
	s := h.Screen()
	require.Contains(t, s, "Alice: Done Order staged. Approve it in the Portfolio pane.")
	require.NotContains(t, s, "**")
}
