package mcp

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Session-less (2026-07-28) clients are only listed for the MCP page; a
// burst of them under distinct names must not push real sessions out of
// the table (their clients would get 404 and have to re-initialize).
func TestStatelessClientsNeverEvictSessions(t *testing.T) {
	s := newSessions("main", SessionLimits{MaxSessions: 3})
	a := s.create(initInfo{endpoint: "/mcp", name: "claude"})
	b := s.create(initInfo{endpoint: "/mcp", name: "codex"})
	for i := range 10 {
		var p rpcPeek
		p.Method = "tools/list"
		p.Params.Meta.ClientInfo.Name = fmt.Sprintf("bot%d", i)
		s.noteStateless("/mcp", p)
	}
	assert.True(t, s.touch(a, "/mcp", ""), "session a was evicted by session-less clients")
	assert.True(t, s.touch(b, "/mcp", ""), "session b was evicted by session-less clients")
	list := s.list()
	require.LessOrEqual(t, len(list), 3, "the cap still holds")
	stateless := 0
	for _, c := range list {
		if c.SessionID != a && c.SessionID != b {
			stateless++
		}
	}
	assert.Equal(t, 1, stateless, "the newest session-less client is listed in the one free slot")

	// A real session still gets a slot: the oldest session-less entry
	// gives way to it.
	c := s.create(initInfo{endpoint: "/mcp", name: "third"})
	assert.True(t, s.touch(a, "/mcp", "") && s.touch(b, "/mcp", "") && s.touch(c, "/mcp", ""))
}
