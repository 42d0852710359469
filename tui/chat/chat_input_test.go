package chat_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/chat"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

func TestChatNewlineKeysAndMultiLineSend(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("line one")
	h.Send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	h.TypeText("line two")
	h.Send(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
	h.TypeText("line three")
	require.Equal(t, "line one\nline two\nline three", h.M.Chat.Input.Value())
	require.Equal(t, 3, h.M.Chat.Input.Height(), "the input grows with its lines")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.Key("enter")
	require.Equal(t, []string{"tui/default: line one\nline two\nline three"}, h.F.Sent)
	require.Equal(t, 1, h.M.Chat.Input.Height(), "and shrinks after sending")
	s := h.Screen()
	require.Contains(t, s, "│ line one ")
	require.Contains(t, s, "│ line two ")
	require.Contains(t, s, "│ line three ")
}

func TestChatPasteKeepsNewlinesAndAttachesLargePastes(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Send(tea.PasteMsg{Content: "a\r\nb\nc"})
	require.Equal(t, "a\nb\nc", h.M.Chat.Input.Value())
	h.Send(tuitest.Ctrl('u'))
	h.Send(tuitest.Ctrl('u'))
	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.Send(tuitest.Ctrl('u'))
	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.Send(tuitest.Ctrl('u'))
	require.Empty(t, h.M.Chat.Input.Value())

	big := strings.TrimSuffix(strings.Repeat("row of a table\n", 40), "\n")
	h.Send(tea.PasteMsg{Content: big})
	require.Empty(t, h.M.Chat.Input.Value(), "a large paste is not typed")
	require.Contains(t, h.Screen(), "paste 1 · 40 lines")
	h.TypeText("summarise this")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.Key("enter")
	require.Equal(t, []string{"tui/default: summarise this\n\n" + big}, h.F.Sent, "sent in full")
	s := h.Screen()
	require.Contains(t, s, "▤ +39 lines (ctrl+o expands)", "shown collapsed in the transcript")
	require.NotContains(t, s, "paste 1 ·", "the attachment went with the message")

	// Backspace on an empty input drops an attachment.
	h.Send(tea.PasteMsg{Content: big})
	require.Len(t, h.M.Chat.Pasted, 1)
	h.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	require.Empty(t, h.M.Chat.Pasted)
}

func TestChatHistoryOnlyFromTheFirstLine(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.TypeText("earlier question")
	h.Key("enter")
	h.TypeText("first")
	h.Send(tuitest.Ctrl('j'))
	h.TypeText("second")
	h.Key("up")
	require.Equal(t, "first\nsecond", h.M.Chat.Input.Value(), "↑ on the second line moves the cursor")
	require.Equal(t, 0, h.M.Chat.Input.Line())
	h.Key("up")
	require.Equal(t, "earlier question", h.M.Chat.Input.Value(), "↑ on the first line recalls history")
	h.Key("down")
	require.Empty(t, h.M.Chat.Input.Value())
}

func TestChatExternalEditorRoundTrip(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf 'edited\\nin editor\\n' >> \"$1\"\n"), 0o755))
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)

	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("draft ")
	_, cmd := h.M.Update(tuitest.Ctrl('e'))
	require.NotNil(t, cmd)
	ready, ok := cmd().(chat.EditorReadyMsg)
	require.True(t, ok, "the draft is written to a temp file in a Cmd")
	b, err := os.ReadFile(ready.Path)
	require.NoError(t, err)
	require.Equal(t, "draft ", string(b))

	ec := chat.EditorCommand(ready.Path)
	require.Equal(t, []string{script, ready.Path}, ec.Args, "$EDITOR gets the file")
	require.NoError(t, ec.Run())
	h.Send(chat.EditorFinished(ready.Path, nil))
	require.Equal(t, "draft edited\nin editor", h.M.Chat.Input.Value())
	_, err = os.Stat(ready.Path)
	require.True(t, os.IsNotExist(err), "the temp file is removed")
}

func TestChatCompactionSummaryIsCollapsedAndExpandable(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Histories["tui/default"] = []chat.ChatMessage{
		{Role: chat.RoleCompaction, Text: "**Earlier**: you bought 10 AAPL and asked about MSFT."},
		{Role: chat.RoleUser, Text: "and now?"},
	}
	h.Run(h.M.Chat.Load())
	s := h.Screen()
	require.Contains(t, s, "— conversation compacted —")
	require.Contains(t, s, "Summary: **Earlier**: you bought 10 AAPL", "one collapsed line above the new messages")
	require.Contains(t, s, "ctrl+r shows the summary")
	h.Send(tuitest.Ctrl('r'))
	s = h.Screen()
	require.Contains(t, s, "Earlier: you bought 10 AAPL", "expanded as markdown")
	require.NotContains(t, s, "**Earlier**")
	require.Contains(t, s, "ctrl+r hides the summary")
}

func TestChatCompactShowsProgressAndReloads(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.TypeText("/compact")
	_, cmd := h.M.Update(tuitest.KeyMsg("enter"))
	require.Contains(t, h.Screen(), "compacting tui/default…", "one progress line while it runs")
	h.F.Histories["tui/default"] = []chat.ChatMessage{{Role: chat.RoleCompaction, Text: "short summary"}}
	h.Run(cmd)
	require.Equal(t, []string{"tui/default"}, h.F.Compacted)
	s := h.Screen()
	require.NotContains(t, s, "compacting tui/default…")
	require.Contains(t, s, "Summary: short summary", "the summary shows right after /compact")
}

func TestChatStopAndNotesUseFriendlyText(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDelta, Text: "Let me"}, {Kind: chat.ChatError, Text: "stopped: context canceled"}}
	h.TypeText("hi")
	h.Key("enter")
	s := h.Screen()
	require.Contains(t, s, "Reply stopped.")
	require.NotContains(t, s, "context canceled")
	require.NotContains(t, s, "✗")
	h.TypeText("/help")
	h.Key("enter")
	s = h.Screen()
	require.Contains(t, s, "  /channel [new <name>")
	require.NotContains(t, s, "⚠", "plain help is not a warning")
}

// A pasted file ends in a newline; its line count does not count the
// empty "line" after it (a 40-line file read "41 lines"), and the hint
// says what backspace removes.
func TestChatPasteCountsTheLinesOfAFile(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	file := strings.Repeat("row of a table\n", 40)
	h.Send(tea.PasteMsg{Content: file})
	s := h.Screen()
	require.Contains(t, s, "paste 1 · 40 lines")
	require.Contains(t, s, "backspace on an empty input removes the last paste")
	h.TypeText("summarise this")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.Key("enter")
	require.Contains(t, h.Screen(), "▤ +39 lines (ctrl+o expands)", "the first three of 42 lines shown, 39 more")
}

// On a short pane the input takes fewer rows and scrolls with the cursor:
// at 40x12 the line being typed after an 8-line paste is on screen (it
// was cut off below the frame), with the lines above it.
func TestChatInputKeepsCursorLineOnShortPane(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 40, 12)
	h.Send(tea.PasteMsg{Content: "p1\np2\np3\np4\np5\np6\np7\np8"})
	h.TypeText("END")
	require.Equal(t, "p1\np2\np3\np4\np5\np6\np7\np8END", h.M.Chat.Input.Value())
	s := h.Screen()
	rows := strings.Split(s, "\n")
	require.Len(t, rows, 12, s)
	require.Contains(t, rows[len(rows)-4], "│   p8END", "the cursor line is the pane's last row\n%s", s)
	require.Contains(t, rows[len(rows)-5], "│   p7", s)
	require.Contains(t, s, "──────", "the separator stays\n%s", s)
	// Moving up scrolls the input back; a newline still goes in beyond
	// the rows shown.
	for range 7 {
		h.Key("up")
	}
	require.Contains(t, h.Screen(), "│ › p1", h.Screen())
	h.Send(tea.KeyPressMsg{Code: tea.KeyEnd})
	h.Send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	require.Equal(t, "p1\n\np2\np3\np4\np5\np6\np7\np8END", h.M.Chat.Input.Value())
}

func TestChatPasteKeepsTabs(t *testing.T) {
	t.Parallel()
	h := tuitest.NewHarness(t, 100, 30)
	h.Send(tea.PasteMsg{Content: "line1\tTAB\there"})
	require.Contains(t, h.Screen(), "line1⇥TAB⇥here", "a tab shows as a mark in the input")
	h.F.Script = []chat.ChatEvent{{Kind: chat.ChatDone, Text: "ok"}}
	h.Key("enter")
	require.Equal(t, []string{"tui/default: line1\tTAB\there"}, h.F.Sent, "sent with its tabs")
	s := h.Screen()
	require.NotContains(t, s, "\t", "the transcript expands tabs")
	require.Contains(t, s, "│ line1   TAB     here ", "to the next tab stops")
	h.Key("up")
	require.Contains(t, h.Screen(), "line1⇥TAB⇥here", "recalled with its tabs")
	h.Key("enter")
	require.Equal(t, "tui/default: line1\tTAB\there", h.F.Sent[len(h.F.Sent)-1])
}
