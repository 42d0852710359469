package inbox

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core"

	"github.com/stretchr/testify/require"
)

func TestInboxPushThroughWorkspaceToolCenter(t *testing.T) {
	s := newStore(t)
	wtc := core.NewWorkspaceToolCenter(nil)
	wtc.Register(PushToolFactory(s))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.md"), []byte("# hi"), 0o600))
	tools := wtc.ToolsFor(core.WorkspaceIdentity{ID: "ws-1", Label: "research", Dir: dir})
	require.Len(t, tools, 1)
	tool := tools[0]
	require.Equal(t, PushToolName, tool.Name)

	res, err := tool.Invoke(context.Background(), json.RawMessage(`{"docs":[{"path":"report.md"},{"path":"later.md"}],"comments":"look"}`))
	require.NoError(t, err)
	pr := res.(PushResult)
	require.True(t, pr.OK)
	require.Len(t, pr.Warnings, 1)
	require.Contains(t, pr.Warnings[0], "later.md")

	e, err := s.Get(pr.EntryID)
	require.NoError(t, err)
	require.Equal(t, "ws-1", e.WorkspaceID, "identity comes from the endpoint")
	require.Equal(t, "research", e.WorkspaceLabel)
	require.Equal(t, pr.TS, e.TS)

	for _, bad := range []string{`{"workspaceId":"other","comments":"x"}`, `{}`, `{"docs":[{"path":"../x"}]}`, `{"comments":5}`} {
		_, err := tool.Invoke(context.Background(), json.RawMessage(bad))
		require.Error(t, err, bad)
	}
	disabled := core.NewWorkspaceToolCenter(func() []string { return []string{PushToolName} })
	disabled.Register(PushToolFactory(s))
	require.Empty(t, disabled.ToolsFor(core.WorkspaceIdentity{ID: "ws-1"}))
}

type fakeDocs map[string]error

func (f fakeDocs) ReadDoc(ws, p string) ([]byte, error) {
	if err, ok := f[p]; ok {
		return nil, err
	}
	if ws == "gone" {
		return nil, ErrWorkspaceGone
	}
	if strings.HasSuffix(p, ".md") {
		return []byte("# Title\n\nSome **bold** text."), nil
	}
	return []byte("plain <text>"), nil
}

func TestRenderDocsTombstones(t *testing.T) {
	r := fakeDocs{"missing.md": fs.ErrNotExist, "big.md": &DocTooLargeError{Size: 3 << 20}, "weird.md": ErrDocPath}
	e := Entry{WorkspaceID: "w", Docs: []Doc{{"a.md"}, {"b.txt"}, {"missing.md"}, {"big.md"}, {"../../etc/passwd"}, {"weird.md"}}}
	docs := RenderDocs(e, r, 60)
	require.Len(t, docs, 6)
	require.Empty(t, docs[0].Tombstone)
	require.Contains(t, docs[0].Body, "Title")
	require.NotContains(t, docs[0].Body, "# Title", "markdown is rendered, not shown raw")
	require.Equal(t, "plain <text>", docs[1].Body)
	require.Equal(t, TombstoneNotFound, docs[2].Tombstone)
	require.Contains(t, docs[3].Tombstone, "File too large to render in inbox (3072 KB)")
	require.Equal(t, TombstoneInvalid, docs[4].Tombstone)
	require.Equal(t, TombstoneInvalid, docs[5].Tombstone)

	gone := RenderDocs(Entry{WorkspaceID: "gone", Docs: []Doc{{"a.md"}}}, r, 60)
	require.Equal(t, TombstoneWorkspace, gone[0].Tombstone)
}
