package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alice-trading/alice/core/inbox"

	"github.com/charmbracelet/x/ansi"
	"github.com/go-git/go-git/v5"
	"github.com/stretchr/testify/require"
)

func TestCreateChatTemplate(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.Persona = func() string { return "# Persona\nBe Alice." }
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := m.Subscribe(ctx)
	w := createWS(t, m, "research", "chat")
	require.Equal(t, EventWorkspaceCreated, (<-events).Kind)
	require.Equal(t, []Agent{AgentClaude, AgentCodex}, w.Agents)
	require.Equal(t, filepath.Join(m.opts.Root, w.ID), w.Dir)

	claude, err := os.ReadFile(filepath.Join(w.Dir, "CLAUDE.md"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(claude), "# Persona\nBe Alice.\n\n---\n\n"))
	require.Contains(t, string(claude), "inbox_push")
	agents, err := os.ReadFile(filepath.Join(w.Dir, "AGENTS.md"))
	require.NoError(t, err)
	require.Equal(t, claude, agents)

	var mcp struct {
		MCPServers map[string]struct{ Type, URL string } `json:"mcpServers"`
	}
	raw, err := os.ReadFile(filepath.Join(w.Dir, ".mcp.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &mcp))
	require.Equal(t, "http://127.0.0.1:4567/mcp", mcp.MCPServers["alice"].URL)
	require.Equal(t, "http://127.0.0.1:4567/mcp/"+w.ID, mcp.MCPServers["alice-workspace"].URL)
	require.Equal(t, "http", mcp.MCPServers["alice-workspace"].Type)
	settings, err := os.ReadFile(filepath.Join(w.Dir, ".claude", "settings.local.json"))
	require.NoError(t, err)
	require.JSONEq(t, `{"enableAllProjectMcpServers": true}`, string(settings))

	log, err := m.GitLog(w.ID, 10)
	require.NoError(t, err)
	require.Len(t, log, 1)
	require.Equal(t, "chat: research", log[0].Subject)
	require.Equal(t, "alice", log[0].Author)
	require.Len(t, log[0].Hash, 7)

	// Local agent settings are excluded from git, everything else committed.
	repo, err := git.PlainOpen(w.Dir)
	require.NoError(t, err)
	head, err := repo.Head()
	require.NoError(t, err)
	commit, err := repo.CommitObject(head.Hash())
	require.NoError(t, err)
	_, err = commit.File(".mcp.json")
	require.NoError(t, err)
	_, err = commit.File(".claude/settings.local.json")
	require.Error(t, err, "settings.local.json must not be committed")
	exclude, err := os.ReadFile(filepath.Join(w.Dir, ".git", "info", "exclude"))
	require.NoError(t, err)
	require.Contains(t, string(exclude), ".codex/auth.json")

	st, err := m.GitStatus(w.ID)
	require.NoError(t, err)
	require.Equal(t, "master", st.Branch)
	require.True(t, st.Clean, "fresh workspace is clean: %+v", st.Files)
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "notes.md"), []byte("x"), 0o644))
	st, err = m.GitStatus(w.ID)
	require.NoError(t, err)
	require.Equal(t, []FileStatus{{Path: "notes.md", Staging: "?", Worktree: "?"}}, st.Files)
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	createWS(t, m, "taken", "shell-only")
	cases := []struct {
		tag, tmpl string
		agents    []Agent
		err       string
	}{
		{"Bad Tag", "chat", nil, "invalid tag"},
		{"-leading", "chat", nil, "invalid tag"},
		{strings.Repeat("a", 34), "chat", nil, "invalid tag"},
		{"../x", "chat", nil, "invalid tag"},
		{"ok", "nope", nil, "unknown template"},
		{"ok", "../chat", nil, "unknown template"},
		{"ok", "chat", []Agent{"vim"}, "unknown agent"},
		{"taken", "chat", nil, "tag already in use"},
	}
	for _, tc := range cases {
		_, err := m.Create(context.Background(), tc.tag, tc.tmpl, tc.agents)
		require.ErrorContains(t, err, tc.err, tc.tag)
	}
	require.Len(t, m.List(), 1)
	names := []string{}
	for _, tp := range m.Templates() {
		names = append(names, tp.Name)
	}
	require.Equal(t, []string{"chat", "shell-only"}, names)
	readme, err := TemplateReadme("chat")
	require.NoError(t, err)
	require.Contains(t, readme, "Chat workspace")
}

func TestRegistryAndSessionsSurviveRestart(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	m1 := newTestManager(t, root, nil)
	w := createWS(t, m1, "keep", "shell-only")
	s, err := m1.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	_, err = s.Write([]byte("echo remember-$((40+2))\n"))
	require.NoError(t, err)
	waitScreen(t, s, "remember-42")
	pid := s.PID()
	require.NoError(t, m1.Close())
	require.False(t, alive(pid), "Close must not leave the shell running")
	recs := m1.SessionRecords(w.ID)
	require.Len(t, recs, 1)
	require.Equal(t, RecordPaused, recs[0].State)

	m2 := newTestManager(t, root, nil)
	got, ok := m2.Get(w.ID)
	require.True(t, ok)
	require.Equal(t, w.Tag, got.Tag)
	require.Equal(t, w.Dir, got.Dir)
	byTag, ok := m2.Get("keep")
	require.True(t, ok)
	require.Equal(t, w.ID, byTag.ID)
	id, ok := m2.Lookup(w.ID)
	require.True(t, ok)
	require.Equal(t, "keep", id.Label)
	require.Equal(t, w.Dir, id.Dir)
	_, ok = m2.Lookup("keep")
	require.False(t, ok, "the MCP endpoint accepts ids only")

	recs = m2.SessionRecords(w.ID)
	require.Len(t, recs, 1)
	require.NotEmpty(t, recs[0].ScrollbackFile)
	// The paused session's output reads without restarting it.
	saved, ok, err := m2.SavedOutput(recs[0].ID, 80, 24)
	require.NoError(t, err)
	require.True(t, ok, "a paused shell's scrollback was saved")
	require.Contains(t, ansi.Strip(strings.Join(saved, "\n")), "remember-42")
	require.Empty(t, m2.Sessions(w.ID), "reading it started nothing")
	_, _, err = m2.SavedOutput("nope", 80, 24)
	require.ErrorIs(t, err, ErrSessionNotFound)
	s2, err := m2.ResumeSession(recs[0].ID)
	require.NoError(t, err)
	require.Equal(t, "sh1", s2.Name())
	waitState(t, s2, StateRunning)
	require.Contains(t, s2.Screen()+strings.Join(s2.Terminal().Scrollback(), "\n"), "remember-42", "scrollback replayed")
	s3, err := m2.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	require.Equal(t, "sh2", s3.Name())
	require.Len(t, m2.Sessions(w.ID), 2)

	_, _, err = m2.SavedOutput(s3.ID(), 80, 24)
	require.ErrorContains(t, err, "is running: read it live")
	require.NoError(t, m2.RemoveSession(s3.ID()))
	require.Len(t, m2.SessionRecords(w.ID), 1)
	require.ErrorIs(t, m2.RemoveSession(s3.ID()), ErrSessionNotFound)
}

func TestRunningRecordsBecomePausedOnBoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	m1 := newTestManager(t, root, nil)
	w := createWS(t, m1, "boot", "shell-only")
	require.NoError(t, m1.Close())
	require.NoError(t, saveRecords(m1.recordsPath(w.ID), []SessionRecord{{ID: "r1", WsID: w.ID, Agent: AgentShell, Name: "sh1", State: RecordRunning}}))
	m2 := newTestManager(t, root, nil)
	require.Equal(t, RecordPaused, m2.SessionRecords(w.ID)[0].State)
	recs, err := loadRecords(m2.recordsPath(w.ID))
	require.NoError(t, err)
	require.Equal(t, RecordPaused, recs[0].State, "flip is persisted")
}

func TestRemoveWorkspace(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "gone", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	pid := s.PID()
	require.NoError(t, m.Remove(w.ID))
	require.False(t, alive(pid))
	_, err = os.Stat(w.Dir)
	require.True(t, errors.Is(err, fs.ErrNotExist))
	_, ok := m.Lookup(w.ID)
	require.False(t, ok)
	require.ErrorIs(t, m.Remove(w.ID), ErrWorkspaceNotFound)
	// The tag is free again.
	createWS(t, m, "gone", "shell-only")
}

func TestFileViewsAndPathSafety(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "files", "shell-only")
	require.NoError(t, os.MkdirAll(filepath.Join(w.Dir, "reports"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "reports", "btc.md"), []byte("# BTC\n\nUp."), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "big.txt"), make([]byte, MaxReadFile+1), 0o644))
	outside := filepath.Join(t.TempDir(), "secret.txt")
	require.NoError(t, os.WriteFile(outside, []byte("secret"), 0o600))
	require.NoError(t, os.Symlink(outside, filepath.Join(w.Dir, "evil")))
	require.NoError(t, os.Symlink("reports/btc.md", filepath.Join(w.Dir, "inside-link.md")))

	list, err := m.Files(w.ID, "")
	require.NoError(t, err)
	var names []string
	for _, f := range list {
		names = append(names, f.Name)
	}
	require.Equal(t, []string{".claude", "reports"}, names[:2], "directories first, by name")
	require.True(t, list[0].IsDir && list[1].IsDir && !list[2].IsDir)
	require.NotContains(t, names, ".git")
	require.Contains(t, names, ".mcp.json")
	sub, err := m.Files(w.ID, "reports")
	require.NoError(t, err)
	require.Equal(t, []string{"reports/btc.md"}, []string{sub[0].Path})

	b, err := m.ReadFile(w.ID, "reports/btc.md")
	require.NoError(t, err)
	require.Equal(t, "# BTC\n\nUp.", string(b))
	b, err = m.ReadFile(w.ID, "inside-link.md")
	require.NoError(t, err, "symlinks that stay inside are fine")
	require.Contains(t, string(b), "BTC")

	cases := []struct {
		path string
		err  error
	}{
		{"../secret.txt", ErrInvalidPath},
		{"reports/../../x", ErrInvalidPath},
		{"/etc/passwd", ErrInvalidPath},
		{"evil", ErrInvalidPath},
		{".git/config", ErrInvalidPath},
		{"reports", ErrInvalidPath},
		{"missing.md", fs.ErrNotExist},
	}
	for _, tc := range cases {
		_, err := m.ReadFile(w.ID, tc.path)
		require.ErrorIs(t, err, tc.err, tc.path)
	}
	_, err = m.Files(w.ID, "../")
	require.ErrorIs(t, err, ErrInvalidPath)
	_, err = m.ReadFile(w.ID, "big.txt")
	var tl *FileTooLargeError
	require.ErrorAs(t, err, &tl)
	require.EqualValues(t, MaxReadFile+1, tl.Size)
	_, err = m.ReadFile("nope", "x")
	require.ErrorIs(t, err, ErrWorkspaceNotFound)

	// The inbox renders docs live through the manager, with tombstones.
	e := inbox.Entry{WorkspaceID: w.ID, Docs: []inbox.Doc{{Path: "reports/btc.md"}, {Path: "missing.md"}, {Path: "big.txt"}, {Path: "evil"}}}
	docs := inbox.RenderDocs(e, m.DocReader(), 60)
	require.Contains(t, docs[0].Body, "BTC")
	require.Empty(t, docs[0].Tombstone)
	require.Equal(t, inbox.TombstoneNotFound, docs[1].Tombstone)
	require.Contains(t, docs[2].Tombstone, "File too large to render in inbox (1025 KB)")
	require.Equal(t, inbox.TombstoneInvalid, docs[3].Tombstone)
	require.NoError(t, os.WriteFile(filepath.Join(w.Dir, "missing.md"), []byte("now here"), 0o644))
	require.Empty(t, inbox.RenderDocs(e, m.DocReader(), 60)[1].Tombstone, "docs are live pointers")
	require.NoError(t, m.Remove(w.ID))
	require.Equal(t, inbox.TombstoneWorkspace, inbox.RenderDocs(e, m.DocReader(), 60)[0].Tombstone)
}
