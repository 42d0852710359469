package aitools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/session"
)

// BenchmarkReadSession measures readSession (limit 20) on sessions of
// growing length. Reads go backwards from the end of the file, so the
// cost should not grow with the session; bench/storage.sh prints the
// 100k/100 ratio (target ≤ 3).
func BenchmarkReadSession(b *testing.B) {
	for _, lines := range []int{100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			sessions, err := session.NewStore(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			fillSession(b, sessions, "bench/s", lines)
			tc := core.NewToolCenter(nil)
			Register(tc, sessions)
			args := json.RawMessage(`{"sessionId":"bench/s","limit":20}`)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := tc.Call(context.Background(), "readSession", args)
				if err != nil {
					b.Fatal(err)
				}
				if !strings.Contains(core.ResultText(r), fmt.Sprintf("answer %d", lines-1)) {
					b.Fatal("newest message missing")
				}
			}
		})
	}
}

// fillSession writes a realistic conversation: user questions, assistant
// answers with a tool call, tool results (~350 bytes a line).
func fillSession(b *testing.B, s *session.Store, id string, lines int) {
	b.Helper()
	const batch = 1000
	var pending []session.Entry
	for i := 0; i < lines; i++ {
		var e session.Entry
		switch i % 3 {
		case 0:
			e = session.NewText("user", fmt.Sprintf("question %d: how is AAPL doing today?", i), "human")
		case 1:
			e = session.NewBlocks("assistant", []session.Block{{Type: "tool_use", ID: fmt.Sprint("t", i), Name: "getQuote", Input: json.RawMessage(`{"aliceId":"sim-paper|AAPL"}`)}}, "openai")
		default:
			e = session.NewBlocks("user", []session.Block{{Type: "tool_result", ToolUseID: fmt.Sprint("t", i-1), Content: `{"last":"190.12","bid":"190.10","ask":"190.14"}`}}, "openai")
		}
		if i == lines-1 {
			e = session.NewText("assistant", fmt.Sprintf("answer %d", i), "openai")
		}
		pending = append(pending, e)
		if len(pending) == batch || i == lines-1 {
			if _, err := s.Append(id, pending...); err != nil {
				b.Fatal(err)
			}
			pending = pending[:0]
		}
	}
}
