package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A number literal the server cannot represent (too long, or beyond
// float64) is answered as a short tool error naming the argument, never as
// a protocol error echoing the literal; every tool error is clipped.
func TestOversizedNumbersAreShortToolErrors(t *testing.T) {
	t.Parallel()
	f := newMainFixture(t, Listen{MaxRequestBytes: 8 << 20})
	c := connect(t, f.srv.URL(), nil)
	// 300,000 digits behave like 3,000,000 (the check is on length) and
	// keep the test fast under -race
	huge := "1" + strings.Repeat("0", 300_000-1)
	tiny := "0." + strings.Repeat("0", 300_000) + "1"
	tests := []struct {
		name, tool, arg, literal, want string
	}{
		{"300,000 digits", "echo", "message", huge, `"message": a number of 300000 characters is too long`},
		{"300,000 digits that underflow", "add", "a", tiny, `"a": a number of 300003 characters is too long`},
		{"beyond float64", "add", "a", "1e400", `"a": 1e400 is out of range`},
		{"negative beyond float64", "add", "a", "-1e400", `"a": -1e400 is out of range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := mcpgo.CallToolRequest{}
			req.Params.Name = tt.tool
			req.Params.Arguments = map[string]any{tt.arg: json.RawMessage(tt.literal), "b": 1}
			res, err := c.CallTool(context.Background(), req)
			require.NoError(t, err, "a tool error, not a protocol error")
			require.True(t, res.IsError)
			text := resultText(res)
			assert.Contains(t, text, tt.want)
			assert.Contains(t, text, "send decimal values as strings")
			assert.Less(t, len(text), 400, "the literal is not echoed")
		})
	}
	// the session still works, and ordinary numbers are untouched
	res := callTool(t, c, "add", map[string]any{"a": json.RawMessage("1e300"), "b": 2})
	assert.False(t, res.IsError, resultText(res))
	res = callTool(t, c, "add", map[string]any{"a": 1.5, "b": 2})
	assert.Equal(t, "3.5", resultText(res))
	// a long literal inside a string is just text
	res = callTool(t, c, "echo", map[string]any{"message": huge})
	assert.False(t, res.IsError)
}

func TestLongToolErrorsAreClipped(t *testing.T) {
	t.Parallel()
	tc := core.NewToolCenter(nil)
	tc.Register(core.Tool{Name: "loud", Description: "fails loudly", InputSchema: core.Schema(`{"type":"object","properties":{"s":{"type":"string"}}}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var a struct {
				S string `json:"s"`
			}
			_ = core.DecodeArgs(args, &a)
			return nil, errors.New("symbol " + a.S + " is unknown")
		}})
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1", MaxRequestBytes: 8 << 20}, Tools: tc, Logger: quietLogger()})
	startServer(t, srv)
	c := connect(t, srv.URL(), nil)
	res := callTool(t, c, "loud", map[string]any{"s": strings.Repeat("x", 100_000)})
	require.True(t, res.IsError)
	text := resultText(res)
	assert.Less(t, len(text), 2*core.MaxErrorChars)
	assert.True(t, strings.HasPrefix(text, "Error: symbol xxx"), text[:40])
	assert.Contains(t, text, "characters clipped")
}

func TestBadNumber(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("9", 65)
	tests := []struct {
		body, key string
		bad       bool
	}{
		{`{"a":1,"b":-2.5e10,"c":[1,2,3]}`, "", false},
		{`{"a":"` + long + `"}`, "", false},               // inside a string: text
		{`{"a":"say \"` + long + `\"","b":1}`, "", false}, // escaped quotes stay in the string
		{`{"x":{"qty":` + long + `}}`, "qty", true},
		{`{"p":[1,` + long + `]}`, "p", true},
		{`{"q":1e309}`, "q", true},
		{`{"q":1e-400}`, "", false}, // underflows to 0: float64 holds it
		{`[` + long + `]`, "", true},
	}
	for _, tt := range tests {
		key, _, bad := badNumber([]byte(tt.body))
		assert.Equal(t, tt.bad, bad, tt.body)
		assert.Equal(t, tt.key, key, tt.body)
	}
}

// A large tools/call whose string argument exceeds its schema's maxLength
// is refused after one pass over the body (before mcp-go parses it
// several times), as a tool error naming the argument.
func TestOverlongArgumentsOfLargeCalls(t *testing.T) {
	t.Parallel()
	tc := core.NewToolCenter(nil)
	tc.Register(core.Tool{Name: "qty", Description: "takes a decimal",
		InputSchema: core.Schema(`{"type":"object","properties":{"q":{"type":"string","maxLength":32},"note":{"type":"string"}}}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var a struct {
				Q    string `json:"q"`
				Note string `json:"note"`
			}
			if err := core.DecodeArgs(args, &a); err != nil {
				return nil, err
			}
			return map[string]int{"q": len([]rune(a.Q)), "note": len(a.Note)}, nil
		}})
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1", MaxRequestBytes: 8 << 20}, Tools: tc, Logger: quietLogger()})
	startServer(t, srv)
	c := connect(t, srv.URL(), nil)
	pad := strings.Repeat("x", largeBody)
	tests := []struct {
		name    string
		q, note string
		want    string
	}{
		{"300,000 digits", strings.Repeat("9", 300_000), "", `Error: invalid arguments: "q": a value of 300000 characters is too long (at most 32)`},
		{"33 two-byte characters in a large body", strings.Repeat("é", 33), pad, `"q": a value of 33 characters is too long (at most 32)`},
		{"32 two-byte characters pass", strings.Repeat("é", 32), pad, `{"note":65536,"q":32}`},
		{"a long argument without maxLength passes", "1", pad, `{"note":65536,"q":1}`},
		{"a small body is left to the handler", strings.Repeat("9", 40), "", `{"note":0,"q":40}`},
	}
	for _, tt := range tests {
		res := callTool(t, c, "qty", map[string]any{"q": tt.q, "note": tt.note})
		assert.Contains(t, resultText(res), tt.want, tt.name)
		assert.Equal(t, strings.HasPrefix(resultText(res), "Error:"), res.IsError, tt.name)
	}
}
