package tui

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAgents adds AgentCore to fakeSessions and records every call.
type fakeAgents struct {
	*fakeSessions
	amu       sync.Mutex
	diff      WorkspaceDiff
	commits   int
	discarded [][]string
	sent      []sentText
	acks      []string
	watching  map[string]bool
}

type sentText struct {
	id, text string
	enter    bool
}

func (f *fakeAgents) AgentStates(ws string) []AgentSessionState { return nil }

func (f *fakeAgents) WorkspaceDiff(ws string) (WorkspaceDiff, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	return f.diff, nil
}

func (f *fakeAgents) CommitWorkspace(ws, msg string) (string, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.commits++
	f.diff = WorkspaceDiff{Base: "feedface00"}
	return "feedface00", nil
}

func (f *fakeAgents) DiscardWorkspace(ws string, paths []string) ([]string, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.discarded = append(f.discarded, paths)
	var kept []DiffFile
	for _, fl := range f.diff.Files {
		drop := len(paths) == 0
		for _, p := range paths {
			drop = drop || p == fl.Path
		}
		if !drop {
			kept = append(kept, fl)
		}
	}
	f.diff.Files = kept
	return paths, nil
}

func (f *fakeAgents) SendText(id, text string, enter bool) error {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.sent = append(f.sent, sentText{id, text, enter})
	return nil
}

func (f *fakeAgents) WatchSession(id string, on bool) {
	f.amu.Lock()
	defer f.amu.Unlock()
	if f.watching == nil {
		f.watching = map[string]bool{}
	}
	f.watching[id] = on
}

func (f *fakeAgents) AcknowledgeSession(id string) {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.acks = append(f.acks, id)
}

func newAgentHarness(t *testing.T, w, h int) (*harness, *fakeAgents) {
	f := &fakeAgents{fakeSessions: newFakeSessions()}
	f.diff = WorkspaceDiff{Base: "0123456789abcdef", Files: []DiffFile{
		{Path: "main.go", Change: "modified", Additions: 1, Deletions: 1,
			Patch: "--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,3 @@\n package main\n-func old() {}\n+func main() { println(\"hi\") }\n"},
		{Path: "notes.md", Change: "added", Additions: 1, Patch: "--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# findings\n"},
		{Path: "chart.png", Change: "added", Binary: true},
	}}
	hs := newHarnessOver(t, f, f.fakeCore, w, h)
	hs.run(hs.m.workspaces.load())
	hs.m.setFocus(focusWorkspaces)
	return hs, f
}

// setAgent gives the nth session of ws1 an agent state.
func (f *fakeAgents) setAgent(n int, state, glyph string) {
	f.smu.Lock()
	defer f.smu.Unlock()
	s := f.sess["ws1"][n]
	s.AgentState, s.Glyph = state, glyph
}

func TestAgentGlyphsBadgeAndStatusBar(t *testing.T) {
	h, f := newAgentHarness(t, 120, 30)
	h.key("s", "ctrl+q")
	h.key("c", "ctrl+q")
	f.setAgent(0, "needs-you", "!")
	f.setAgent(1, "working", "◐")
	h.run(h.m.workspaces.load())
	s := h.screen()
	assert.Contains(t, s, "! sh1   needs-you")
	assert.Contains(t, s, "◐ sh1   working")
	assert.Contains(t, s, "research-aapl        chat        ! sh1 needs-you", "the workspace row lists glyph + name + state")
	assert.Contains(t, s, "4 Workspaces !1", "the tab badge shows the most pressing state by shape")
	assert.Contains(t, s, "Agents ! 1 needs you", "the status bar counts sessions that need a person")

	f.setAgent(0, "done", "✓")
	f.setAgent(1, "errored", "✗")
	h.run(h.m.workspaces.load())
	s = h.screen()
	assert.Contains(t, s, "4 Workspaces ✗1", "errored outranks done")
	assert.Contains(t, s, "✗ 1 errored · ✓ 1 done")

	f.setAgent(0, "idle", "○")
	f.setAgent(1, "working", "◐")
	h.run(h.m.workspaces.load())
	assert.NotContains(t, h.screen(), "Agents ", "nothing to report: no status segment")
	assert.NotContains(t, h.screen(), "Workspaces ◐")
}

func TestGoldenAgentStates(t *testing.T) {
	h, f := newAgentHarness(t, 100, 30)
	h.key("s", "ctrl+q")
	h.key("c", "ctrl+q")
	h.key("x", "ctrl+q")
	f.setAgent(0, "needs-you", "!")
	f.setAgent(1, "working", "◐")
	f.setAgent(2, "done", "✓")
	h.now = t0.Add(3 * time.Minute)
	h.run(h.m.workspaces.load())
	golden.RequireEqual(t, []byte(h.screen()))
}

func TestDiffViewCommitAndDiscard(t *testing.T) {
	h, f := newAgentHarness(t, 100, 30)
	h.typeText("d")
	require.NotNil(t, h.m.workspaces.diff)
	s := h.screen()
	assert.Contains(t, s, "Diff · research-aapl · since 01234567 · 3 file(s) +2 −1")
	assert.Contains(t, s, "M  main.go")
	assert.Contains(t, s, "A  notes.md")
	assert.Contains(t, s, "binary")
	assert.Contains(t, s, "+func main() { println(\"hi\") }")
	assert.Contains(t, s, "−func old() {}")
	assert.True(t, strings.Contains(h.m.render(), "\x1b[38;2;"), "code is syntax highlighted")
	assert.Contains(t, s, "c commit", "footer shows the diff keys")

	// Discard one file: asks first, then restores only that file.
	h.typeText("j")
	assert.Contains(t, h.screen(), "+# findings")
	h.typeText("x")
	require.NotNil(t, h.m.dialog)
	assert.Contains(t, h.screen(), "Discard the changes to notes.md?")
	assert.Empty(t, f.discarded, "nothing discarded before the confirm")
	h.confirm()
	assert.Equal(t, [][]string{{"notes.md"}}, f.discarded)
	assert.Contains(t, h.toast(), "discarded notes.md")
	assert.NotContains(t, h.screen(), "A  notes.md")

	// Cancel a commit, then commit.
	h.typeText("c")
	assert.Contains(t, h.screen(), "Commit 2 changed file(s) in research-aapl?")
	h.now = h.now.Add(time.Second)
	h.key("esc")
	assert.Zero(t, f.commits)
	h.typeText("c")
	h.confirm()
	assert.Equal(t, 1, f.commits)
	assert.Contains(t, h.screen(), "No changes since the sessions started")

	h.key("esc")
	assert.Nil(t, h.m.workspaces.diff)
	assert.Equal(t, wsList, h.m.workspaces.mode)
}

func TestGoldenDiffView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newAgentHarness(t, size[0], size[1])
			h.typeText("d")
			golden.RequireEqual(t, []byte(h.screen()))
		})
	}
}

func TestSendLineTypesIntoASession(t *testing.T) {
	h, f := newAgentHarness(t, 100, 30)
	h.typeText("i")
	assert.Contains(t, h.toast(), "no running session")
	assert.Nil(t, h.m.workspaces.send)

	h.key("s", "ctrl+q")
	h.run(h.m.workspaces.load())
	h.typeText("i")
	require.NotNil(t, h.m.workspaces.send)
	assert.True(t, h.m.workspaces.Capturing(), "typed keys go to the line, not the pane")
	assert.Contains(t, h.screen(), "sh1 ›")
	h.typeText("review the diff")
	h.key("enter")
	assert.Equal(t, []sentText{{"ws1-shell", "review the diff", true}}, f.sent)
	assert.Contains(t, h.toast(), "sent to sh1")
	assert.Nil(t, h.m.workspaces.send)

	h.typeText("i")
	h.typeText("draft only")
	h.key("ctrl+s")
	assert.Equal(t, sentText{"ws1-shell", "draft only", false}, f.sent[1])
	assert.Contains(t, h.toast(), "not submitted")

	h.typeText("i")
	h.typeText("never")
	h.key("esc")
	assert.Len(t, f.sent, 2, "esc sends nothing")
	assert.Nil(t, h.m.workspaces.send)
}

func TestAttachAcknowledgesTheSession(t *testing.T) {
	h, f := newAgentHarness(t, 100, 30)
	h.key("s", "ctrl+q")
	h.run(h.m.workspaces.load())
	f.amu.Lock()
	f.acks = nil
	f.amu.Unlock()
	h.key("down", "enter")
	require.True(t, h.m.workspaces.attached())
	f.amu.Lock()
	assert.Equal(t, []string{"ws1-shell"}, f.acks)
	assert.True(t, f.watching["ws1-shell"], "attached: no alerts about it")
	f.amu.Unlock()
	h.key("ctrl+q")
	f.amu.Lock()
	defer f.amu.Unlock()
	assert.False(t, f.watching["ws1-shell"], "detached: alerts again")
}

func TestPaletteOpensTheDiff(t *testing.T) {
	h, _ := newAgentHarness(t, 100, 30)
	var diff *Action
	for _, a := range h.m.workspaces.Actions() {
		if a.ID == "workspaces.diff" {
			diff = &a
		}
	}
	require.NotNil(t, diff)
	h.run(diff.Run())
	require.NotNil(t, h.m.workspaces.diff)
	assert.Contains(t, h.screen(), "Diff · research-aapl")
}
