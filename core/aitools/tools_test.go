package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/session"
)

func TestCalculate(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"1 + 2 * 3", "7", ""},
		{"(1 + 2) * 3", "9", ""},
		{"0.1 + 0.2", "0.3", ""},
		{"-5 + 2", "-3", ""},
		{"10 / 4", "2.5", ""},
		{"2 * (3 + (4 - 1)) / 3", "4", ""},
		{"1 / 0", "", "division by zero"},
		{"2 ^ 3", "", "position 3"},
		{"(1 + 2", "", "missing ')'"},
		{"", "", "empty"},
		{"abc", "", "only numbers"},
		{"1..2", "", "bad number"},
		// Bounds: any MCP client calls this (a 3.8 MB product of
		// 100-digit factors took 15-27 s of CPU per call).
		{strings.Repeat("1+", 2048) + "1", "", "at most 4096"},
		{strings.Repeat("9", 101), "", "more than 100 digits"},
		{strings.Repeat("9", 100), strings.Repeat("9", 100), ""},
		{strings.Repeat("9", 60) + "*" + strings.Repeat("9", 60), "", "more than 100 digits"},
		{strings.Repeat("9", 40) + "*" + strings.Repeat("9", 40), "", ""},
		{"99999999999999999999*99999999999999999999*99999999999999999999*99999999999999999999*99999999999999999999*99", "", "more than 100 digits"},
		{"1000000.25 * 1234.5678 / 3", "411522702.88065", ""},
	}
	for _, tc := range cases {
		v, err := Calculate(tc.in)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		if tc.want != "" {
			require.Equal(t, tc.want, v.String(), tc.in)
		}
	}
}

func TestToolsThroughToolCenter(t *testing.T) {
	sessions, err := session.NewStore(t.TempDir())
	require.NoError(t, err)
	_, err = sessions.Append("tui/default", session.NewText("user", "hello", "human"), session.NewText("assistant", "hi there", "openai"))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	Register(tc, sessions)
	ctx := context.Background()
	call := func(name, args string) (string, error) {
		r, err := tc.Call(ctx, name, json.RawMessage(args))
		return core.ResultText(r), err
	}
	out, err := call("calculate", `{"expression":"10 / 3"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"result":"3.3333"}`, out)
	out, err = call("readSession", `{"sessionId":"tui/default","limit":1}`)
	require.NoError(t, err)
	require.Contains(t, out, `"hasMore":true`)
	require.Contains(t, out, "hi there")
	require.NotContains(t, out, `"hello"`)
	_, err = call("readSession", `{"sessionId":"../../etc/passwd"}`)
	require.ErrorContains(t, err, "invalid session id")
	out, err = call("listSessions", `{}`)
	require.NoError(t, err)
	require.Contains(t, out, "tui/default")
	_, err = call("listSessions", `{"limit":0}`)
	require.ErrorContains(t, err, "limit")
	_, err = call("listSessions", `{"cursor":"nope"}`)
	require.ErrorContains(t, err, "cursor")
	out, err = call("notify_user", `{"text":"BTC broke 70k","urgency":"important"}`)
	require.NoError(t, err)
	require.JSONEq(t, `{"acknowledged":true,"text":"BTC broke 70k","urgency":"important"}`, out)
	_, err = call("notify_user", `{"text":"   "}`)
	require.Error(t, err)
	_, err = call("notify_user", `{"text":"x","urgency":"urgent"}`)
	require.Error(t, err)
}

func TestReadSessionPaging(t *testing.T) {
	sessions, err := session.NewStore(t.TempDir())
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		_, err = sessions.Append("s", session.NewText("user", fmt.Sprintf("q%d", i), "human"))
		require.NoError(t, err)
	}
	_, err = sessions.Append("s",
		session.NewBlocks("assistant", []session.Block{{Type: "tool_use", ID: "t", Name: "calculate", Input: json.RawMessage(`{"expression":"1+1"}`)}}, "openai"),
		session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: "t", Content: `{"result":"2"}`}}, "openai"))
	require.NoError(t, err)
	tc := core.NewToolCenter(nil)
	Register(tc, sessions)
	read := func(args string) (out struct {
		HasMore  bool `json:"hasMore"`
		Messages []struct {
			Role, Text string
		} `json:"messages"`
	}) {
		r, err := tc.Call(context.Background(), "readSession", json.RawMessage(args))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(core.ResultText(r)), &out))
		return out
	}
	all := read(`{"sessionId":"s"}`)
	require.Len(t, all.Messages, 7)
	require.False(t, all.HasMore)
	require.Contains(t, all.Messages[6].Text, `[Result: {"result":"2"}]`)
	noTools := read(`{"sessionId":"s","includeToolCalls":false}`)
	require.Len(t, noTools.Messages, 5, "tool-only messages disappear")
	page := read(`{"sessionId":"s","includeToolCalls":false,"limit":2,"offset":1}`)
	require.Len(t, page.Messages, 2)
	require.True(t, page.HasMore)
	require.Equal(t, []string{"q2", "q3"}, []string{page.Messages[0].Text, page.Messages[1].Text}, "offset counts back from the end")
	beyond := read(`{"sessionId":"s","offset":50}`)
	require.Empty(t, beyond.Messages)
	_, err = tc.Call(context.Background(), "readSession", json.RawMessage(`{"sessionId":"s","limit":0}`))
	require.Error(t, err)
	_, err = tc.Call(context.Background(), "readSession", json.RawMessage(`{"sessionId":"s","bogus":1}`))
	require.Error(t, err, "unknown keys are refused")
}

func TestListSessionsPages(t *testing.T) {
	sessions, err := session.NewStore(t.TempDir())
	require.NoError(t, err)
	for i := 0; i < 5; i++ {
		_, err = sessions.Append(fmt.Sprintf("tui/s%d", i), session.NewText("user", "x", "human"))
		require.NoError(t, err)
	}
	tc := core.NewToolCenter(nil)
	Register(tc, sessions)
	seen := map[string]bool{}
	args := `{"limit":2}`
	for pages := 1; ; pages++ {
		r, err := tc.Call(context.Background(), "listSessions", json.RawMessage(args))
		require.NoError(t, err)
		var page session.ListPage
		require.NoError(t, json.Unmarshal([]byte(core.ResultText(r)), &page))
		require.LessOrEqual(t, len(page.Sessions), 2)
		for _, s := range page.Sessions {
			require.False(t, seen[s.ID], "listed twice: %s", s.ID)
			seen[s.ID] = true
		}
		if page.NextCursor == "" {
			require.Equal(t, 3, pages)
			break
		}
		args = fmt.Sprintf(`{"limit":2,"cursor":%q}`, page.NextCursor)
	}
	require.Len(t, seen, 5)
}

func TestCalculateRoundsToFourPlaces(t *testing.T) {
	tc := core.NewToolCenter(nil)
	sessions, _ := session.NewStore(t.TempDir())
	Register(tc, sessions)
	for expr, want := range map[string]string{"2 / 3": "0.6667", "1 / 8": "0.125", "100000000000000000000 * 3": "300000000000000000000", "-(2 - 5) * 1.5": "4.5"} {
		r, err := tc.Call(context.Background(), "calculate", json.RawMessage(`{"expression":"`+expr+`"}`))
		require.NoError(t, err, expr)
		require.JSONEq(t, `{"result":"`+want+`"}`, core.ResultText(r), expr)
	}
}
