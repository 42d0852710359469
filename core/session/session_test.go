package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestValidateIDRefusesEscapes(t *testing.T) {
	for _, ok := range []string{"tui/default", "telegram/123", "mcp-ask__daily-review", "heartbeat", "cron/default"} {
		require.NoError(t, ValidateID(ok), ok)
	}
	for _, bad := range []string{"", "../x", "a/../../b", "/etc/passwd", "a\\b", "a//b", "a/./b", "a\x00b", "a\nb", strings.Repeat("x", 201)} {
		require.ErrorIs(t, ValidateID(bad), ErrBadID, "%q", bad)
	}
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	_, err = s.Append("../../escape", NewText("user", "x", "human"))
	require.ErrorIs(t, err, ErrBadID)
}

func TestAppendChainsParentsAndReadsBack(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	out, err := s.Append("tui/default", NewText("user", "hi", "human"), NewBlocks("assistant", []Block{{Type: "text", Text: "hello"}, {Type: "tool_use", ID: "t1", Name: "getQuote", Input: json.RawMessage(`{"aliceId":"a|AAPL"}`)}}, "openai"))
	require.NoError(t, err)
	require.Nil(t, out[0].ParentUUID)
	require.Equal(t, out[0].UUID, *out[1].ParentUUID)
	_, err = s.Append("tui/default", NewBlocks("user", []Block{{Type: "tool_result", ToolUseID: "t1", Content: "190"}}, "openai"))
	require.NoError(t, err)
	all, err := s.Read("tui/default")
	require.NoError(t, err)
	require.Len(t, all, 3)
	require.Equal(t, out[1].UUID, *all[2].ParentUUID, "chain continues across appends")
	require.Equal(t, "hi", all[0].Message.Content.Text)
	items := ToChatItems(all)
	require.Len(t, items, 3)
	require.Equal(t, "tool", items[2].Kind)
	require.Equal(t, "190", items[2].Output, "tool result paired with its call")
	p, _ := s.Path("tui/default")
	raw, _ := os.ReadFile(p)
	require.Contains(t, string(raw), `"content":"hi"`, "plain content stays a JSON string")
	require.Contains(t, string(raw), `"parentUuid":null`)
}

func TestReferenceFormatLoads(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	ref := `{"type":"user","message":{"role":"user","content":"What's BTC doing?"},"uuid":"u1","parentUuid":null,"sessionId":"web/default","timestamp":"2026-05-30T10:00:00.000Z","provider":"human","cwd":"/app"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"mcp__open-alice__getQuote","input":{"aliceId":"x|BTC"}}]},"uuid":"u2","parentUuid":"u1","sessionId":"web/default","timestamp":"2026-05-30T10:00:01.000Z","provider":"agent-sdk","cwd":"/app"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"{\"last\":\"65000\"}"}]},"uuid":"u3","parentUuid":"u2","sessionId":"web/default","timestamp":"2026-05-30T10:00:02.000Z","provider":"agent-sdk","cwd":"/app"}
{"type":"system","subtype":"compact_boundary","message":{"role":"system","content":"Conversation compacted"},"compactMetadata":{"trigger":"auto","preTokens":170000},"uuid":"u4","parentUuid":"u3","sessionId":"web/default","timestamp":"2026-05-30T11:00:00.000Z","provider":"compaction","cwd":"/app"}
{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation. The summary below covers the earlier portion of the conversation.\n\nBTC was at 65000."},"isCompactSummary":true,"uuid":"u5","parentUuid":"u4","sessionId":"web/default","timestamp":"2026-05-30T11:00:00.000Z","provider":"compaction","cwd":"/app"}
{"type":"assistant","message":{"role":"assistant","content":"Noted."},"uuid":"u6","parentUuid":"u5","sessionId":"web/default","timestamp":"2026-05-30T11:00:01.000Z","provider":"agent-sdk","cwd":"/app"}
{"type":"meta","message":{"role":"system","content":"x"},"uuid":"u7","parentUuid":"u6","sessionId":"web/default","timestamp":"2026-05-30T11:00:02.000Z"}
`
	p, _ := s.Path("web/default")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
	require.NoError(t, os.WriteFile(p, []byte(ref), 0o600))
	all, err := s.Read("web/default")
	require.NoError(t, err)
	require.Len(t, all, 7)
	active := Active(all)
	require.Len(t, active, 3, "boundary, summary and the reply after it; meta dropped")
	require.Equal(t, "compact_boundary", active[0].Subtype)
	require.True(t, active[1].IsCompactSummary)
	items := ToChatItems(all[:3])
	require.Equal(t, "getQuote", items[1].Tool, "mcp__server__ prefix stripped")
	hist := ToTextHistory(all[:3], true)
	require.Contains(t, hist[1].Text, `[Tool: mcp__open-alice__getQuote {"aliceId":"x|BTC"}]`)
}

func TestTornTailIsSkippedAndHealed(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	_, err = s.Append("a", NewText("user", "one", "human"))
	require.NoError(t, err)
	p, _ := s.Path("a")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o600)
	_, _ = f.WriteString(`{"type":"assistant","message":{"role":"assis`)
	f.Close()
	all, err := s.Read("a")
	require.NoError(t, err)
	require.Len(t, all, 1)
	_, err = s.Append("a", NewText("user", "two", "human"))
	require.NoError(t, err)
	all, err = s.Read("a")
	require.NoError(t, err)
	require.Len(t, all, 2, "the new line starts on a fresh line")
	require.Equal(t, "two", all[1].Message.Content.Text)
}

func TestConcurrentWritersKeepWholeLines(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				_, err := s.Append("c", NewText("user", strings.Repeat("x", 300), "human"))
				require.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	all, err := s.Read("c")
	require.NoError(t, err)
	require.Len(t, all, 200)
	parents := map[string]bool{}
	for _, e := range all[1:] {
		require.NotNil(t, e.ParentUUID)
		require.False(t, parents[*e.ParentUUID], "a linear chain: no two entries share a parent")
		parents[*e.ParentUUID] = true
	}
}

func TestListAndEstimate(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	_, _ = s.Append("tui/default", NewText("user", strings.Repeat("a", 35), "human"))
	_, _ = s.Append("mcp-ask__x", NewText("user", "b", "human"))
	l, err := s.List()
	require.NoError(t, err)
	require.Len(t, l, 2)
	ids := []string{l[0].ID, l[1].ID}
	require.ElementsMatch(t, []string{"tui/default", "mcp-ask__x"}, ids)
	all, _ := s.Read("tui/default")
	require.Equal(t, 10, EstimateTokens(all))
	_, err = s.Read("nope")
	require.NoError(t, err)
	require.False(t, errors.Is(err, ErrBadID))
}

func TestParentChainSurvivesLongLinesAndLocksAreReleased(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	huge := strings.Repeat("h", 300*1024) // longer than the tail window
	first, err := s.Append("big", NewText("user", "start", "human"), NewText("assistant", huge, "openai"))
	require.NoError(t, err)
	next, err := s.Append("big", NewText("user", "after", "human"))
	require.NoError(t, err)
	require.Equal(t, first[1].UUID, *next[0].ParentUUID, "the last uuid is found behind a line longer than the window")
	s.mu.Lock()
	require.Empty(t, s.locks, "unused session locks are dropped")
	s.mu.Unlock()
}

func TestChatItemsAndTextHistoryShapes(t *testing.T) {
	entries := []Entry{
		NewText("user", "hi", "human"),
		NewBlocks("assistant", []Block{{Type: "text", Text: "checking"}, {Type: "tool_use", ID: "a", Name: "mcp__alice__getQuote", Input: json.RawMessage(`{"aliceId":"x"}`)}}, "claude-cli"),
		NewBlocks("user", []Block{{Type: "tool_result", ToolUseID: "a", Content: strings.Repeat("9", 300), IsError: true}}, "claude-cli"),
		NewBlocks("assistant", []Block{{Type: "text", Text: "done"}, {Type: "image", URL: "/m/x.png"}}, "claude-cli"),
	}
	items := ToChatItems(entries)
	require.Len(t, items, 5)
	require.Equal(t, ChatItem{Kind: "image", Text: "/m/x.png", Timestamp: items[4].Timestamp, UUID: items[4].UUID}, items[4], "images are chat items (UIs show a placeholder)")
	require.Equal(t, "getQuote", items[2].Tool)
	require.True(t, items[2].IsError)
	require.Len(t, items[2].Output, 300)
	hist := ToTextHistory(entries, true)
	require.Len(t, hist, 4)
	require.Equal(t, "checking\n[Tool: mcp__alice__getQuote {\"aliceId\":\"x\"}]", hist[1].Text)
	require.Equal(t, "[Result: "+strings.Repeat("9", 200)+"…]", hist[2].Text, "results are cut to 200 characters")
	require.Equal(t, "done\n[Image]", hist[3].Text)
	require.Len(t, ToTextHistory(entries, false), 3, "without tools the result-only entry disappears")
}

func TestLockContextGivesUpWhenCancelled(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	unlock := s.Lock("a")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := s.LockContext(ctx, "a")
		errc <- err
	}()
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	other, err := s.LockContext(context.Background(), "b")
	require.NoError(t, err, "other sessions are independent")
	other()
	unlock()
	again, err := s.LockContext(context.Background(), "a")
	require.NoError(t, err)
	again()
	s.mu.Lock()
	require.Empty(t, s.locks)
	s.mu.Unlock()
}

func TestTornTailIsGoneAfterRestart(t *testing.T) {
	dir := t.TempDir()
	s, err := NewStore(dir)
	require.NoError(t, err)
	_, err = s.Append("tui/default", NewText("user", "one", "human"))
	require.NoError(t, err)
	p, _ := s.Path("tui/default")
	clean, _ := os.ReadFile(p)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o600)
	_, _ = f.WriteString(`{"type":"assistant","message":{"role":"assis`)
	f.Close()

	s2, err := NewStore(dir) // a restart
	require.NoError(t, err)
	after, _ := os.ReadFile(p)
	require.Equal(t, string(clean), string(after), "the fragment is cut from the file")
	torn, err := os.ReadFile(p + ".torn")
	require.NoError(t, err)
	require.Equal(t, `{"type":"assistant","message":{"role":"assis`+"\n", string(torn))
	require.Contains(t, s2.Healed(), "tui/default")
	l, err := s2.List()
	require.NoError(t, err)
	require.Len(t, l, 1, "the .torn side file is not a session")
}

func TestIDsNeedALetterOrDigit(t *testing.T) {
	for _, bad := range []string{".", " ", "-", "a/ ", "_/x", "  "} {
		require.ErrorIs(t, ValidateID(bad), ErrBadID, "%q", bad)
	}
	for _, ok := range []string{"a", "1", " a", "x/-y", "résumé"} {
		require.NoError(t, ValidateID(ok), "%q", ok)
	}
}

func TestReadsCreateNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := NewStore(dir)
	require.NoError(t, err)
	_, err = s.ReadActive("a/b/c")
	require.NoError(t, err)
	_, _, err = s.TextTail("x/y", 5, 0, true)
	require.NoError(t, err)
	entries, _ := os.ReadDir(dir)
	require.Empty(t, entries)
}

func TestActiveWindowAndTextTail(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		_, err = s.Append("w", NewText("user", fmt.Sprintf("old %d", i), "human"))
		require.NoError(t, err)
	}
	b := NewText("system", "Conversation compacted", "compaction")
	b.Subtype = "compact_boundary"
	_, err = s.Append("w", b, NewText("user", "summary", "compaction"), Entry{Type: "meta", Message: Message{Role: "system", Content: Content{Text: "m"}}})
	require.NoError(t, err)
	for i := 0; i < 6; i++ {
		_, err = s.Append("w", NewText("assistant", fmt.Sprintf("new %d", i), "openai"))
		require.NoError(t, err)
	}
	all, _ := s.Read("w")
	active, err := s.ReadActive("w")
	require.NoError(t, err)
	require.Equal(t, Active(all), active, "backward read equals the whole-file definition")
	require.Len(t, active, 8)

	cases := []struct {
		limit, offset int
		want          []string
		more          bool
	}{
		{2, 0, []string{"new 4", "new 5"}, true},
		{3, 2, []string{"new 1", "new 2", "new 3"}, true},
		{10, 0, []string{"summary", "new 0", "new 1", "new 2", "new 3", "new 4", "new 5"}, false},
		{7, 0, []string{"summary", "new 0", "new 1", "new 2", "new 3", "new 4", "new 5"}, false},
		{5, 20, nil, false},
	}
	for _, c := range cases {
		msgs, more, err := s.TextTail("w", c.limit, c.offset, true)
		require.NoError(t, err)
		var got []string
		for _, m := range msgs {
			got = append(got, m.Text)
		}
		require.Equal(t, c.want, got, "limit %d offset %d", c.limit, c.offset)
		require.Equal(t, c.more, more, "limit %d offset %d", c.limit, c.offset)
	}
}

func TestListPaging(t *testing.T) {
	s, err := NewStore(t.TempDir())
	require.NoError(t, err)
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 7; i++ {
		id := fmt.Sprintf("s%d", i)
		_, err := s.Append(id, NewText("user", "x", "human"))
		require.NoError(t, err)
		p, _ := s.Path(id)
		ts := base.Add(time.Duration(i/2) * time.Minute) // pairs share a time: ties go by id
		require.NoError(t, os.Chtimes(p, ts, ts))
	}
	var got []string
	cursor := ""
	pages := 0
	for {
		page, err := s.ListPage(ListOptions{Limit: 3, Cursor: cursor})
		require.NoError(t, err)
		pages++
		for _, in := range page.Sessions {
			got = append(got, in.ID)
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	require.Equal(t, 3, pages)
	require.Equal(t, []string{"s6", "s4", "s5", "s2", "s3", "s0", "s1"}, got)
	_, err = s.ListPage(ListOptions{Cursor: "garbage"})
	require.ErrorIs(t, err, ErrBadCursor)
	pre, err := s.ListPage(ListOptions{Prefix: "s6"})
	require.NoError(t, err)
	require.Len(t, pre.Sessions, 1)
}
