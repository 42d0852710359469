package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/alice-trading/alice/core"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type logEntry struct {
	Hash  string          `json:"hash"`
	Ops   []string        `json:"ops"`
	Price decimal.Decimal `json:"price"`
	At    time.Time       `json:"at"`
	Skip  []int           `json:"-"`
	Opt   []int           `json:"opt,omitempty"`
	Raw   []byte          `json:"raw"`
	inner []int
}

type logResult struct {
	Commits []logEntry     `json:"commits"`
	Ptr     *logEntry      `json:"ptr"`
	Extra   map[string]any `json:"extra"`
	Arr     [1][]int       `json:"arr"`
	Nilmap  map[string]int `json:"nilmap"`
}

func TestEmptyLists(t *testing.T) {
	var nilList []logEntry
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	orig := logResult{
		Commits: []logEntry{{Hash: "a", Price: decimal.RequireFromString("1.50"), At: at}},
		Ptr:     &logEntry{Hash: "p"},
		Extra:   map[string]any{"names": []string(nil), "n": 1},
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"nil", nil, `null`},
		{"nil slice", nilList, `[]`},
		{"empty slice", []int{}, `[]`},
		{"map with nil list", map[string]any{"commits": nilList}, `{"commits":[]}`},
		{"untouched scalars", 42, `42`},
		{"string", "hi", `"hi"`},
		{"nested struct", orig, `{"commits":[{"hash":"a","ops":[],"price":"1.5","at":"2026-01-02T03:04:05Z","raw":null}],` +
			`"ptr":{"hash":"p","ops":[],"price":"0","at":"0001-01-01T00:00:00Z","raw":null},"extra":{"n":1,"names":[]},"arr":[[]],"nilmap":null}`},
		{"pointer", &logResult{}, `{"commits":[],"ptr":null,"extra":null,"arr":[[]],"nilmap":null}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(emptyLists(tc.in))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(b))
		})
	}
	// The caller's value is not modified.
	assert.Nil(t, orig.Commits[0].Ops)
	assert.Nil(t, orig.Ptr.Ops)
	assert.Nil(t, orig.Extra["names"])
}

func TestEmptyListsSurvivesCycles(t *testing.T) {
	type node struct {
		Next *node `json:"-"`
		L    []int `json:"l"`
		Self any   `json:"self,omitempty"`
	}
	n := &node{}
	n.Next = n
	out := emptyLists(n)
	b, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"l":[]}`, string(b))
}

func TestToolResultListsAreNeverNullOverMCP(t *testing.T) {
	tc := core.NewToolCenter(func() []string { return nil })
	tc.Register(core.Tool{
		Name: "emptyLog", Group: "test", Description: "An empty log.",
		InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			var commits []logEntry
			return commits, nil
		},
	})
	srv := NewMain(MainOptions{Listen: Listen{Host: "127.0.0.1"}, Tools: tc, Logger: quietLogger()})
	startServer(t, srv)
	c := connect(t, srv.URL(), nil)
	res := callTool(t, c, "emptyLog", map[string]any{})
	assert.False(t, res.IsError)
	assert.Equal(t, "[]", resultText(res))
}
