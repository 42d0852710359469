package workspaces_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/kit"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAgents adds AgentCore to fakeSessions and records every call.
type fakeAgents struct {
	*fakeSessions
	amu       sync.Mutex
	diff      workspaces.WorkspaceDiff
	commits   int
	discarded [][]string
	sent      []sentText
	sendErr   error // SendText's answer
	acks      []string
	watching  map[string]bool
}

type sentText struct {
	id, text string
	enter    bool
}

func (f *fakeAgents) AgentStates(ws string) []workspaces.AgentSessionState { return nil }

func (f *fakeAgents) WorkspaceDiff(ws string) (workspaces.WorkspaceDiff, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	return f.diff, nil
}

func (f *fakeAgents) CommitWorkspace(ws, msg string) (string, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.commits++
	f.diff = workspaces.WorkspaceDiff{Base: "feedface00"}
	return "feedface00", nil
}

func (f *fakeAgents) DiscardWorkspace(ws string, paths []string) ([]string, error) {
	f.amu.Lock()
	defer f.amu.Unlock()
	f.discarded = append(f.discarded, paths)
	var kept []workspaces.DiffFile
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
	return f.sendErr
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

func newAgentHarness(t *testing.T, w, h int) (*tuitest.Harness, *fakeAgents) {
	f := &fakeAgents{fakeSessions: newFakeSessions()}
	f.diff = workspaces.WorkspaceDiff{Base: "0123456789abcdef", Files: []workspaces.DiffFile{
		{Path: "main.go", Change: "modified", Additions: 1, Deletions: 1,
			Patch: "--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,3 @@\n package main\n-func old() {}\n+func main() { println(\"hi\") }\n"},
		{Path: "notes.md", Change: "added", Additions: 1, Patch: "--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+# findings\n"},
		{Path: "chart.png", Change: "added", Binary: true},
	}}
	hs := tuitest.NewHarnessOver(t, f, f.FakeCore, w, h)
	hs.Run(hs.M.Workspaces.Load())
	hs.M.SetFocus(tui.FocusWorkspaces)
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
	t.Parallel()
	h, f := newAgentHarness(t, 120, 30)
	h.Key("s", "ctrl+q")
	h.Key("c", "ctrl+q")
	f.setAgent(0, "needs-you", "!")
	f.setAgent(1, "working", "◐")
	h.Run(h.M.Workspaces.Load())
	s := h.Screen()
	assert.Contains(t, s, "! sh1   needs-you")
	assert.Contains(t, s, "◐ c1    working")
	assert.Contains(t, s, "research-aapl        chat        ! sh1 needs-you", "the workspace row lists glyph + name + state")
	assert.Contains(t, s, "4 Workspaces !1", "the tab badge shows the most pressing state by shape")
	assert.Contains(t, s, "Agents ! 1 needs you", "the status bar counts sessions that need a person")

	f.setAgent(0, "done", "✓")
	f.setAgent(1, "errored", "✗")
	h.Run(h.M.Workspaces.Load())
	s = h.Screen()
	assert.Contains(t, s, "4 Workspaces ✗1", "errored outranks done")
	assert.Contains(t, s, "✗ 1 errored · ✓ 1 done")

	f.setAgent(0, "idle", "○")
	f.setAgent(1, "working", "◐")
	h.Run(h.M.Workspaces.Load())
	assert.NotContains(t, h.Screen(), "Agents ", "nothing to report: no status segment")
	assert.NotContains(t, h.Screen(), "Workspaces ◐")
}

func TestGoldenAgentStates(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	h.Key("s", "ctrl+q")
	h.Key("c", "ctrl+q")
	h.Key("x", "ctrl+q")
	f.setAgent(0, "needs-you", "!")
	f.setAgent(1, "working", "◐")
	f.setAgent(2, "done", "✓")
	h.Now = tuitest.T0.Add(3 * time.Minute)
	h.Run(h.M.Workspaces.Load())
	golden.RequireEqual(t, []byte(h.Screen()))
}

func TestDiffViewCommitAndDiscard(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	h.TypeText("d")
	require.NotNil(t, h.M.Workspaces.Diff)
	s := h.Screen()
	assert.Contains(t, s, "Diff · research-aapl · since 01234567 · 3 file(s) +2 −1")
	assert.Contains(t, s, "M  main.go")
	assert.Contains(t, s, "A  notes.md")
	assert.Contains(t, s, "binary")
	assert.Contains(t, s, "+func main() { println(\"hi\") }")
	assert.Contains(t, s, "−func old() {}")
	assert.True(t, strings.Contains(h.M.Render(), "\x1b[38;2;"), "code is syntax highlighted")
	assert.Contains(t, s, "c commit", "footer shows the diff keys")

	// Discard one file: asks first, then restores only that file.
	h.TypeText("j")
	assert.Contains(t, h.Screen(), "+# findings")
	// An agent changes a file listed above it: a refresh keeps notes.md.
	f.amu.Lock()
	f.diff.Files = append([]workspaces.DiffFile{{Path: "a.go", Change: "modified", Additions: 1, Deletions: 1, Patch: "@@ -1 +1 @@\n-a\n+b\n"}}, f.diff.Files...)
	f.amu.Unlock()
	h.TypeText("r")
	assert.Contains(t, h.Screen(), "M  a.go")
	assert.Contains(t, h.Screen(), "+# findings", "the refresh keeps the selected file")
	f.amu.Lock()
	f.diff.Files = f.diff.Files[1:]
	f.amu.Unlock()
	h.TypeText("r")
	h.TypeText("x")
	require.NotNil(t, h.M.Dialog)
	assert.Contains(t, h.Screen(), "Discard the changes to notes.md?")
	assert.Empty(t, f.discarded, "nothing discarded before the confirm")
	h.Confirm()
	assert.Equal(t, [][]string{{"notes.md"}}, f.discarded)
	assert.Contains(t, h.Toast(), "discarded notes.md")
	assert.NotContains(t, h.Screen(), "A  notes.md")

	// Cancel a commit, then commit.
	h.TypeText("c")
	assert.Contains(t, h.Screen(), "Commit 2 changed file(s) in research-aapl?")
	h.Now = h.Now.Add(time.Second)
	h.Key("esc")
	assert.Zero(t, f.commits)
	h.TypeText("c")
	h.Confirm()
	assert.Equal(t, 1, f.commits)
	assert.Contains(t, h.Screen(), "No changes since the sessions started")

	h.Key("esc")
	assert.Nil(t, h.M.Workspaces.Diff)
	assert.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)
}

func TestDiffViewExpandsTabs(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	f.amu.Lock()
	f.diff.Files = []workspaces.DiffFile{{Path: "t.txt", Change: "added", Additions: 2,
		Patch: "--- /dev/null\n+++ b/t.txt\n@@ -0,0 +1,2 @@\n+héllo 日本\tTab 🚀\n+\tx\ty\n"}}
	f.amu.Unlock()
	h.TypeText("d")
	s := h.Screen()
	assert.Contains(t, s, "│ +héllo 日本      Tab 🚀   ", "the tab reaches the next stop (column 16)")
	assert.Contains(t, s, "│ +        x       y   ", "leading tabs indent by 8")
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "│") {
			assert.Equal(t, 100, ansi.StringWidth(l), "rows keep the frame's width: %q", l)
			assert.True(t, strings.HasSuffix(l, " │"), "the frame's right edge stays in place: %q", l)
		}
	}
}

func TestGoldenDiffView(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newAgentHarness(t, size[0], size[1])
			h.TypeText("d")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}

func TestSendLineTypesIntoASession(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	h.TypeText("i")
	assert.Contains(t, h.Toast(), "no running session")
	assert.Nil(t, h.M.Workspaces.Send)

	h.Key("s", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.TypeText("i")
	require.NotNil(t, h.M.Workspaces.Send)
	assert.True(t, h.M.Workspaces.Capturing(), "typed keys go to the line, not the pane")
	assert.Contains(t, h.Screen(), "sh1 ›")
	h.TypeText("review the diff")
	h.Key("enter")
	assert.Equal(t, []sentText{{"ws1-shell", "review the diff", true}}, f.sent)
	assert.Contains(t, h.Toast(), "sent to sh1")
	assert.Nil(t, h.M.Workspaces.Send)

	h.TypeText("i")
	h.TypeText("draft only")
	h.Key("ctrl+s")
	assert.Equal(t, sentText{"ws1-shell", "draft only", false}, f.sent[1])
	assert.Contains(t, h.Toast(), "not submitted")

	h.TypeText("i")
	h.TypeText("never")
	h.Key("esc")
	assert.Len(t, f.sent, 2, "esc sends nothing")
	assert.Nil(t, h.M.Workspaces.Send)
}

// TestKeysPressedWhileASendIsInFlightAreKept: the send line's Enter
// returns before the send has finished (SendText waits between the text
// and its Enter, and its result is a message like any other); keys pressed
// in between act once it finished, in order, instead of being typed into
// the closing line. A d right after the Enter (tui/live's flow test, and a
// quick person) opened no diff.
func TestKeysPressedWhileASendIsInFlightAreKept(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	h.Key("s", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.TypeText("i")
	h.TypeText("echo hi > out.txt")
	// Enter; the send it starts is run only later, by the test.
	_, send := h.M.Update(tuitest.KeyMsg("enter"))
	require.NotNil(t, send)
	h.Key("enter") // the same submit pressed twice
	h.TypeText("d")
	assert.Nil(t, h.M.Workspaces.Diff, "nothing acts before the send finished")
	require.NotNil(t, h.M.Workspaces.Send)
	h.Run(send)
	assert.Equal(t, []sentText{{"ws1-shell", "echo hi > out.txt", true}}, f.sent, "sent once")
	assert.Nil(t, h.M.Workspaces.Send)
	require.NotNil(t, h.M.Workspaces.Diff, "the d pressed during the send opened the diff")
	assert.Contains(t, h.Screen(), "A  notes.md")
	h.Key("esc")

	// The next prompt typed during a send goes out after it.
	h.TypeText("i")
	h.TypeText("first")
	_, send = h.M.Update(tuitest.KeyMsg("enter"))
	h.TypeText("isecond")
	h.Key("enter")
	assert.Len(t, f.sent, 1)
	h.Run(send)
	assert.Equal(t, []sentText{{"ws1-shell", "first", true}, {"ws1-shell", "second", true}}, f.sent[1:])
	assert.Nil(t, h.M.Workspaces.Send)
	assert.Contains(t, h.Toast(), "sent to sh1")

	// A failed send leaves its line open, and what was typed meanwhile
	// goes to it.
	f.amu.Lock()
	f.sendErr = errors.New("session sh1 is exited")
	f.amu.Unlock()
	h.TypeText("i")
	h.TypeText("third")
	_, send = h.M.Update(tuitest.KeyMsg("enter"))
	h.TypeText(" again")
	h.Run(send)
	assert.Contains(t, h.Toast(), "session sh1 is exited")
	require.NotNil(t, h.M.Workspaces.Send)
	assert.Contains(t, h.Screen(), "sh1 › third again")
}

func TestAttachAcknowledgesTheSession(t *testing.T) {
	t.Parallel()
	h, f := newAgentHarness(t, 100, 30)
	h.Key("s", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	f.amu.Lock()
	f.acks = nil
	f.amu.Unlock()
	h.Key("down", "enter")
	require.True(t, h.M.Workspaces.Attached())
	f.amu.Lock()
	assert.Equal(t, []string{"ws1-shell"}, f.acks)
	assert.True(t, f.watching["ws1-shell"], "attached: no alerts about it")
	f.amu.Unlock()
	h.Key("ctrl+q")
	f.amu.Lock()
	defer f.amu.Unlock()
	assert.False(t, f.watching["ws1-shell"], "detached: alerts again")
}

func TestPaletteOpensTheDiff(t *testing.T) {
	t.Parallel()
	h, _ := newAgentHarness(t, 100, 30)
	var diff *kit.Action
	for _, a := range h.M.Workspaces.Actions() {
		if a.ID == "workspaces.diff" {
			diff = &a
		}
	}
	require.NotNil(t, diff)
	h.Run(diff.Run())
	require.NotNil(t, h.M.Workspaces.Diff)
	assert.Contains(t, h.Screen(), "Diff · research-aapl")
}
