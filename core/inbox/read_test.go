package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/alice-trading/alice/core"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInboxReadSeesOnlyItsWorkspaceNewestFirst(t *testing.T) {
	s := newStore(t)
	wtc := core.NewWorkspaceToolCenter(nil)
	wtc.Register(PushToolFactory(s), ReadToolFactory(s))
	tools := func(id string) map[string]core.Tool {
		out := map[string]core.Tool{}
		for _, tl := range wtc.ToolsFor(core.WorkspaceIdentity{ID: id, Label: id}) {
			out[tl.Name] = tl
		}
		return out
	}
	a, b := tools("ws-a"), tools("ws-b")
	ctx := context.Background()
	for i := range 5 {
		_, err := a[PushToolName].Invoke(ctx, json.RawMessage(fmt.Sprintf(`{"comments":"a%d","docs":[{"path":"r%d.md"}]}`, i, i)))
		require.NoError(t, err)
		_, err = b[PushToolName].Invoke(ctx, json.RawMessage(fmt.Sprintf(`{"comments":"b%d"}`, i)))
		require.NoError(t, err)
	}
	res, err := a[ReadToolName].Invoke(ctx, json.RawMessage(`{"limit":3}`))
	require.NoError(t, err)
	page := res.(ReadResult)
	require.Len(t, page.Entries, 3)
	assert.Equal(t, []string{"a4", "a3", "a2"}, readComments(page))
	assert.Equal(t, []Doc{{Path: "r4.md"}}, page.Entries[0].Docs)
	assert.True(t, page.HasMore)
	require.NotEmpty(t, page.Next)

	res, err = a[ReadToolName].Invoke(ctx, json.RawMessage(`{"limit":3,"before":"`+page.Next+`"}`))
	require.NoError(t, err)
	page2 := res.(ReadResult)
	assert.Equal(t, []string{"a1", "a0"}, readComments(page2))
	assert.False(t, page2.HasMore)
	assert.Empty(t, page2.Next)

	// Another workspace's cursor is not accepted.
	res, err = b[ReadToolName].Invoke(ctx, json.RawMessage(`{}`))
	require.NoError(t, err)
	bEntry := res.(ReadResult).Entries[0].ID
	_, err = a[ReadToolName].Invoke(ctx, json.RawMessage(`{"before":"`+bEntry+`"}`))
	assert.ErrorContains(t, err, "not an entry of this workspace")

	for _, bad := range []string{`{"limit":0}`, `{"limit":101}`, `{"limit":"x"}`, `{"workspaceId":"ws-b"}`, `{"before":"nope"}`} {
		_, err := a[ReadToolName].Invoke(ctx, json.RawMessage(bad))
		assert.Error(t, err, bad)
	}
	_, err = ReadToolFactory(s).Build(core.WorkspaceIdentity{}).Invoke(ctx, nil)
	assert.ErrorContains(t, err, "/mcp/{wsId}")
}

func readComments(r ReadResult) []string {
	var out []string
	for _, e := range r.Entries {
		out = append(out, e.Comments)
	}
	return out
}
