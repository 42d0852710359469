package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func clockStore(t *testing.T) (*Store, func(d time.Duration)) {
	t.Helper()
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	return s, func(d time.Duration) { now = now.Add(d) }
}

func TestSummaryTitleCountPreviewAndActivity(t *testing.T) {
	t.Parallel()
	s, tick := clockStore(t)
	long := strings.Repeat("word ", 40)
	_, err := s.Append("tui/ideas", NewText("user", "\n  What moves AAPL today?\nsecond line", "human"))
	require.NoError(t, err)
	tick(time.Minute)
	_, err = s.Append("tui/ideas",
		NewBlocks("assistant", []Block{{Type: "tool_use", ID: "t1", Name: "getQuote", Input: json.RawMessage(`{}`)}}, "openai"),
		NewBlocks("user", []Block{{Type: "tool_result", ToolUseID: "t1", Content: "190"}}, "openai"),
		NewText("assistant", long, "openai"))
	require.NoError(t, err)

	sum, err := s.Summary("tui/ideas")
	require.NoError(t, err)
	require.Equal(t, "What moves AAPL today?", sum.Title, "first line of the first message")
	require.False(t, sum.TitleSet)
	require.Equal(t, 2, sum.Messages, "tool calls and results are not messages")
	require.Equal(t, "assistant", sum.PreviewRole)
	require.Equal(t, PreviewMax, len([]rune(sum.Preview)))
	require.True(t, strings.HasSuffix(sum.Preview, "…"), "a cut preview ends with an ellipsis")
	require.Equal(t, time.Date(2026, 3, 1, 9, 1, 0, 0, time.UTC), sum.LastActivity)

	// Incremental: a later append is folded in; a hand title wins, and ""
	// goes back to the automatic one.
	tick(time.Hour)
	_, err = s.Append("tui/ideas", NewText("user", "and MSFT?", "human"))
	require.NoError(t, err)
	require.NoError(t, s.SetTitle("tui/ideas", "  Morning\nprep "))
	sum, err = s.Summary("tui/ideas")
	require.NoError(t, err)
	require.Equal(t, "Morning", sum.Title)
	require.True(t, sum.TitleSet)
	require.Equal(t, 3, sum.Messages)
	require.Equal(t, "and MSFT?", sum.Preview)

	// The meta line never joins the chain or the conversation.
	out, err := s.Append("tui/ideas", NewText("assistant", "MSFT is flat.", "openai"))
	require.NoError(t, err)
	all, err := s.Read("tui/ideas")
	require.NoError(t, err)
	var prevUser string
	for _, e := range all {
		if e.Message.Content.Text == "and MSFT?" {
			prevUser = e.UUID
		}
	}
	require.Equal(t, prevUser, *out[0].ParentUUID)
	active, err := s.ReadActive("tui/ideas")
	require.NoError(t, err)
	for _, e := range active {
		require.NotEqual(t, "meta", e.Type)
	}

	require.NoError(t, s.SetTitle("tui/ideas", ""))
	sum, err = s.Summary("tui/ideas")
	require.NoError(t, err)
	require.Equal(t, "What moves AAPL today?", sum.Title)
	require.False(t, sum.TitleSet)

	// A fresh store (a restart) reads the same summary from disk.
	s2, err := NewStore(s.Dir())
	require.NoError(t, err)
	again, err := s2.Summary("tui/ideas")
	require.NoError(t, err)
	require.Equal(t, sum, again)
}

func TestSummaryIgnoresCompactionAndReadsRewrittenFiles(t *testing.T) {
	t.Parallel()
	s, _ := clockStore(t)
	_, err := s.Append("tui/x", NewText("user", "first", "human"), NewText("assistant", "reply", "openai"))
	require.NoError(t, err)
	boundary := Entry{Type: "system", Subtype: "compact_boundary", Message: Message{Role: "system", Content: Content{Text: "Conversation compacted"}}, Provider: "compaction"}
	summary := Entry{Type: "user", Message: Message{Role: "user", Content: Content{Text: "This session is being continued…"}}, Provider: "compaction", IsCompactSummary: true}
	_, err = s.Append("tui/x", boundary, summary)
	require.NoError(t, err)
	sum, err := s.Summary("tui/x")
	require.NoError(t, err)
	require.Equal(t, 2, sum.Messages)
	require.Equal(t, "reply", sum.Preview)

	// A file replaced by a shorter one is read again from the start.
	p, err := s.Path("tui/x")
	require.NoError(t, err)
	line, _ := json.Marshal(NewText("user", "new start", "human"))
	require.NoError(t, os.WriteFile(p, append(line, '\n'), 0o600))
	sum, err = s.Summary("tui/x")
	require.NoError(t, err)
	require.Equal(t, "new start", sum.Title)
	require.Equal(t, 1, sum.Messages)

	// A torn last line is not counted until it is complete.
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"type":"assistant","message":{"role":"assistant","content":"half`)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	sum, err = s.Summary("tui/x")
	require.NoError(t, err)
	require.Equal(t, 1, sum.Messages)
}

func TestSummariesSearchAndOrder(t *testing.T) {
	t.Parallel()
	s, tick := clockStore(t)
	add := func(id string, texts ...string) {
		for i, tx := range texts {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			_, err := s.Append(id, NewText(role, tx, "x"))
			require.NoError(t, err)
		}
		tick(time.Minute)
	}
	add("tui/default", "hello", "hi there")
	add("telegram/42", "hi", "staged: buy NVDA", "ok")
	add("tui/research", "Find <earnings> dates\nplease", "Here are the \"dates\" for next week and much more text about them", "thanks")
	require.NoError(t, s.SetTitle("tui/default", "Daily"))

	all, err := s.Summaries("", "")
	require.NoError(t, err)
	ids := []string{}
	for _, x := range all {
		ids = append(ids, x.ID)
	}
	require.Equal(t, []string{"tui/default", "tui/research", "telegram/42"}, ids, "most recently active first (the title is activity too)")

	tuiOnly, err := s.Summaries("tui/", "")
	require.NoError(t, err)
	require.Len(t, tuiOnly, 2)

	for _, tc := range []struct {
		q, want, match string
	}{
		{"daily", "tui/default", ""},                // hand title
		{"TELEGRAM", "telegram/42", ""},             // id
		{"nvda", "telegram/42", "staged: buy NVDA"}, // message text
		{"<earnings>", "tui/research", ""},          // title; JSON-escaped characters
		{`"dates"`, "tui/research", "Here are"},     // quotes are escaped on disk
	} {
		got, err := s.Summaries("", tc.q)
		require.NoError(t, err, tc.q)
		require.Len(t, got, 1, tc.q)
		require.Equal(t, tc.want, got[0].ID, tc.q)
		require.Contains(t, got[0].Match, tc.match, tc.q)
	}
	none, err := s.Summaries("", "no such words")
	require.NoError(t, err)
	require.Empty(t, none)
}

func TestDeleteSession(t *testing.T) {
	t.Parallel()
	s, _ := clockStore(t)
	_, err := s.Append("tui/old", NewText("user", "x", "h"))
	require.NoError(t, err)
	p, _ := s.Path("tui/old")
	require.NoError(t, os.WriteFile(p+".torn", []byte("frag\n"), 0o600))
	_, err = s.Summary("tui/old")
	require.NoError(t, err)

	require.NoError(t, s.Delete("tui/old"))
	require.NoFileExists(t, p)
	require.NoFileExists(t, p+".torn")
	_, err = s.Summary("tui/old")
	require.ErrorIs(t, err, ErrNoSession)
	require.ErrorIs(t, s.Delete("tui/old"), ErrNoSession)
	require.ErrorIs(t, s.Delete("../../etc/passwd"), ErrBadID)

	// The session can start again after deletion.
	_, err = s.Append("tui/old", NewText("user", "again", "h"))
	require.NoError(t, err)
	sum, err := s.Summary("tui/old")
	require.NoError(t, err)
	require.Equal(t, 1, sum.Messages)
	require.Equal(t, "again", sum.Title)
	require.FileExists(t, filepath.Join(s.Dir(), "tui", "old.jsonl"))
}
