package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

func TestChatNewlineKeysAndMultiLineSend(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.typeText("line one")
	h.send(tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	h.typeText("line two")
	h.send(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
	h.typeText("line three")
	require.Equal(t, "line one\nline two\nline three", h.m.chat.input.Value())
	require.Equal(t, 3, h.m.chat.input.Height(), "the input grows with its lines")
	h.f.script = []ChatEvent{{Kind: ChatDone, Text: "ok"}}
	h.key("enter")
	require.Equal(t, []string{"tui/default: line one\nline two\nline three"}, h.f.sent)
	require.Equal(t, 1, h.m.chat.input.Height(), "and shrinks after sending")
	s := h.screen()
	require.Contains(t, s, "│ line one ")
	require.Contains(t, s, "│ line two ")
	require.Contains(t, s, "│ line three ")
}

func TestChatPasteKeepsNewlinesAndAttachesLargePastes(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.send(tea.PasteMsg{Content: "a\r\nb\nc"})
	require.Equal(t, "a\nb\nc", h.m.chat.input.Value())
	h.send(ctrl('u'))
	h.send(ctrl('u'))
	h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.send(ctrl('u'))
	h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.send(ctrl('u'))
	require.Empty(t, h.m.chat.input.Value())

	big := strings.TrimSuffix(strings.Repeat("row of a table\n", 40), "\n")
	h.send(tea.PasteMsg{Content: big})
	require.Empty(t, h.m.chat.input.Value(), "a large paste is not typed")
	require.Contains(t, h.screen(), "paste 1 · 40 lines")
	h.typeText("summarise this")
	h.f.script = []ChatEvent{{Kind: ChatDone, Text: "ok"}}
	h.key("enter")
	require.Equal(t, []string{"tui/default: summarise this\n\n" + big}, h.f.sent, "sent in full")
	s := h.screen()
	require.Contains(t, s, "▤ +39 lines (ctrl+o expands)", "shown collapsed in the transcript")
	require.NotContains(t, s, "paste 1 ·", "the attachment went with the message")

	// Backspace on an empty input drops an attachment.
	h.send(tea.PasteMsg{Content: big})
	require.Len(t, h.m.chat.pasted, 1)
	h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	require.Empty(t, h.m.chat.pasted)
}

func TestChatHistoryOnlyFromTheFirstLine(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.script = []ChatEvent{{Kind: ChatDone, Text: "ok"}}
	h.typeText("earlier question")
	h.key("enter")
	h.typeText("first")
	h.send(ctrl('j'))
	h.typeText("second")
	h.key("up")
	require.Equal(t, "first\nsecond", h.m.chat.input.Value(), "↑ on the second line moves the cursor")
	require.Equal(t, 0, h.m.chat.input.Line())
	h.key("up")
	require.Equal(t, "earlier question", h.m.chat.input.Value(), "↑ on the first line recalls history")
	h.key("down")
	require.Empty(t, h.m.chat.input.Value())
}

func TestChatExternalEditorRoundTrip(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf 'edited\\nin editor\\n' >> \"$1\"\n"), 0o755))
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)

	h := newHarness(t, 100, 30)
	h.typeText("draft ")
	_, cmd := h.m.Update(ctrl('e'))
	require.NotNil(t, cmd)
	ready, ok := cmd().(editorReadyMsg)
	require.True(t, ok, "the draft is written to a temp file in a Cmd")
	b, err := os.ReadFile(ready.path)
	require.NoError(t, err)
	require.Equal(t, "draft ", string(b))

	ec := editorCommand(ready.path)
	require.Equal(t, []string{script, ready.path}, ec.Args, "$EDITOR gets the file")
	require.NoError(t, ec.Run())
	h.send(editorFinished(ready.path, nil))
	require.Equal(t, "draft edited\nin editor", h.m.chat.input.Value())
	_, err = os.Stat(ready.path)
	require.True(t, os.IsNotExist(err), "the temp file is removed")
}

func TestChatCompactionSummaryIsCollapsedAndExpandable(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.history["tui/default"] = []ChatMessage{
		{Role: RoleCompaction, Text: "**Earlier**: you bought 10 AAPL and asked about MSFT."},
		{Role: RoleUser, Text: "and now?"},
	}
	h.run(h.m.chat.load())
	s := h.screen()
	require.Contains(t, s, "— conversation compacted —")
	require.Contains(t, s, "Summary: **Earlier**: you bought 10 AAPL", "one collapsed line above the new messages")
	require.Contains(t, s, "ctrl+r shows the summary")
	h.send(ctrl('r'))
	s = h.screen()
	require.Contains(t, s, "Earlier: you bought 10 AAPL", "expanded as markdown")
	require.NotContains(t, s, "**Earlier**")
	require.Contains(t, s, "ctrl+r hides the summary")
}

func TestChatCompactShowsProgressAndReloads(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.typeText("/compact")
	_, cmd := h.m.Update(keyMsg("enter"))
	require.Contains(t, h.screen(), "compacting tui/default…", "one progress line while it runs")
	h.f.history["tui/default"] = []ChatMessage{{Role: RoleCompaction, Text: "short summary"}}
	h.run(cmd)
	require.Equal(t, []string{"tui/default"}, h.f.compacted)
	s := h.screen()
	require.NotContains(t, s, "compacting tui/default…")
	require.Contains(t, s, "Summary: short summary", "the summary shows right after /compact")
}

func TestChatStopAndNotesUseFriendlyText(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.f.script = []ChatEvent{{Kind: ChatDelta, Text: "Let me"}, {Kind: ChatError, Text: "stopped: context canceled"}}
	h.typeText("hi")
	h.key("enter")
	s := h.screen()
	require.Contains(t, s, "Reply stopped.")
	require.NotContains(t, s, "context canceled")
	require.NotContains(t, s, "✗")
	h.typeText("/help")
	h.key("enter")
	s = h.screen()
	require.Contains(t, s, "Commands: /compact")
	require.NotContains(t, s, "⚠", "plain help is not a warning")
}
