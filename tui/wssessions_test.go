package tui

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// fakeSessions adds SessionCore to fakeCore, recording every call.
type fakeSessions struct {
	*fakeCore
	smu      sync.Mutex
	sess     map[string][]*SessionInfo
	archived map[string]bool
	started  [][2]int
	stopped  []string
	restarts []string
	removed  map[string]bool // id → removeDir
}

// richTerm is a fakeTerm with scrollback and mouse reporting.
type richTerm struct {
	*fakeTerm
	sb    []string
	mouse bool
	mice  []tea.MouseMsg
}

func (t *richTerm) Scrollback() []string     { return t.sb }
func (t *richTerm) MouseReporting() bool     { return t.mouse }
func (t *richTerm) SendMouse(m tea.MouseMsg) { t.mice = append(t.mice, m) }

func newFakeSessions() *fakeSessions {
	return &fakeSessions{fakeCore: newFakeCore(), sess: map[string][]*SessionInfo{}, archived: map[string]bool{}, removed: map[string]bool{}}
}

func (f *fakeSessions) StartSessionSize(ws, agent string, cols, rows int) (Terminal, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	ft := &fakeTerm{id: ws + "-" + agent, changed: make(chan struct{}, 1), screen: "$ ", cols: cols, rows: rows}
	t := &richTerm{fakeTerm: ft, sb: []string{"old line 1", "the needle is here", "old line 3"}}
	f.started = append(f.started, [2]int{cols, rows})
	f.sess[ws] = append(f.sess[ws], &SessionInfo{ID: ft.id, Name: "sh1", Agent: agent, State: "running", Created: t0, Term: t})
	f.fakeCore.mu.Lock()
	f.terms[ws] = append(f.terms[ws], t)
	f.fakeCore.mu.Unlock()
	return t, nil
}

func (f *fakeSessions) WorkspaceDetail(ws string) WorkspaceDetail {
	f.smu.Lock()
	defer f.smu.Unlock()
	d := WorkspaceDetail{Archived: f.archived[ws]}
	for _, s := range f.sess[ws] {
		d.Sessions = append(d.Sessions, *s)
	}
	return d
}

func (f *fakeSessions) find(id string) *SessionInfo {
	for _, ss := range f.sess {
		for _, s := range ss {
			if s.ID == id {
				return s
			}
		}
	}
	return nil
}

func (f *fakeSessions) StopSession(id string) error {
	f.smu.Lock()
	defer f.smu.Unlock()
	s := f.find(id)
	if s == nil {
		return errors.New("no such session")
	}
	s.State = "stopped"
	f.stopped = append(f.stopped, id)
	return nil
}

func (f *fakeSessions) RestartSession(id string) (Terminal, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	s := f.find(id)
	if s == nil {
		return nil, errors.New("no such session")
	}
	s.State = "running"
	f.restarts = append(f.restarts, id)
	return s.Term, nil
}

func (f *fakeSessions) RemoveWorkspace(id string, removeDir bool) error {
	f.smu.Lock()
	f.removed[id] = removeDir
	f.smu.Unlock()
	f.fakeCore.mu.Lock()
	defer f.fakeCore.mu.Unlock()
	f.workspace = slices.DeleteFunc(f.workspace, func(w WorkspaceInfo) bool { return w.ID == id })
	return nil
}

func (f *fakeSessions) ArchiveWorkspace(id string, archived bool) error {
	f.smu.Lock()
	defer f.smu.Unlock()
	f.archived[id] = archived
	return nil
}

func newSessionHarness(t *testing.T, w, h int) (*harness, *fakeSessions) {
	f := newFakeSessions()
	hs := newHarnessOver(t, f, f.fakeCore, w, h)
	hs.run(hs.m.workspaces.load())
	hs.m.setFocus(focusWorkspaces)
	return hs, f
}

func TestSessionStartsAtThePaneSize(t *testing.T) {
	h, f := newSessionHarness(t, 120, 40)
	h.key("s")
	w, ht := h.m.bodySize()
	require.Equal(t, [][2]int{{w, ht - 1}}, f.started, "pty sized to the pane's inner area (body minus the title line) before the child starts")
	require.True(t, h.m.workspaces.attached())
}

func TestKillRestartFromTheList(t *testing.T) {
	h, f := newSessionHarness(t, 100, 30)
	h.key("s", "ctrl+q")
	h.run(h.m.workspaces.load())
	require.Contains(t, h.screen(), "sh1   running")
	h.key("down")
	require.Equal(t, 0, h.m.workspaces.ssel)
	h.typeText("K")
	require.NotNil(t, h.m.dialog, "kill asks first")
	require.Empty(t, f.stopped, "nothing killed before the confirm")
	h.confirm()
	require.Equal(t, []string{"ws1-shell"}, f.stopped)
	require.Contains(t, h.screen(), "sh1   stopped")
	// enter on a stopped session explains instead of attaching.
	h.key("enter")
	require.False(t, h.m.workspaces.attached())
	require.Contains(t, h.toast(), "R restarts")
	h.typeText("R") // not running: no confirm needed
	require.Equal(t, []string{"ws1-shell"}, f.restarts)
	require.Contains(t, h.screen(), "sh1   running")
}

func TestDeleteKeepsTheDirectoryUnlessAsked(t *testing.T) {
	h, f := newSessionHarness(t, 100, 30)
	h.typeText("D")
	require.Contains(t, h.screen(), "The directory is kept")
	h.confirm()
	require.Equal(t, map[string]bool{"ws1": false}, f.removed)
	require.Contains(t, h.screen(), "No workspaces yet")

	h2, f2 := newSessionHarness(t, 100, 30)
	h2.send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt})
	require.Contains(t, h2.screen(), "DELETED")
	h2.key("esc")
	require.Empty(t, f2.removed, "cancel deletes nothing")
	h2.send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt})
	h2.confirm()
	require.Equal(t, map[string]bool{"ws1": true}, f2.removed)
}

func TestArchiveToggles(t *testing.T) {
	h, f := newSessionHarness(t, 100, 30)
	h.typeText("A")
	h.confirm()
	require.True(t, f.archived["ws1"])
	require.Contains(t, h.screen(), "archived")
	h.typeText("A") // unarchive needs no confirm
	require.False(t, f.archived["ws1"])
}

func TestPreviewShowsTheSelectedSession(t *testing.T) {
	h, _ := newSessionHarness(t, 160, 45)
	h.key("s")
	h.typeText("echo preview-me")
	h.key("enter", "ctrl+q")
	h.run(h.m.workspaces.load())
	s := h.screen()
	require.Contains(t, s, "preview · sh1")
	require.Contains(t, s, "preview-me")
}

func TestScrollbackViewerSearchSelectCopy(t *testing.T) {
	h, _ := newSessionHarness(t, 100, 30)
	h.key("s", "ctrl+q")
	h.run(h.m.workspaces.load())
	h.key("down")
	h.typeText("v")
	require.Equal(t, wsScroll, h.m.workspaces.mode)
	require.Contains(t, h.screen(), "Scrollback · sh1")
	require.Contains(t, h.screen(), "old line 1")
	h.typeText("/needle")
	h.key("enter")
	v := h.m.workspaces.scroll
	require.Equal(t, "the needle is here", v.lines[v.cur])
	h.typeText("V")
	h.key("up")
	require.Equal(t, []string{"old line 1", "the needle is here"}, v.selection())
	h.typeText("y")
	require.Contains(t, h.toast(), "copied 2 line(s)")
	h.key("esc")
	require.Equal(t, wsList, h.m.workspaces.mode)
}

func TestMouseGoesToTheChildOnlyWhenItAsked(t *testing.T) {
	h, f := newSessionHarness(t, 100, 30)
	h.key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	// No mouse reporting: the wheel opens the scrollback instead.
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelUp, X: 5, Y: 10})
	require.Equal(t, wsScroll, h.m.workspaces.mode)
	require.Empty(t, term.mice)
	h.key("esc")
	require.True(t, h.m.workspaces.attached(), "esc returns to the attached terminal")
	term.mouse = true
	// A click on screen cell (x, y) is terminal cell (x-frameLeft, y-frameTop-1):
	// the frame, then the pane's title line.
	h.send(tea.MouseClickMsg{Button: tea.MouseLeft, X: 7, Y: 12})
	h.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 7, Y: 12})
	require.Len(t, term.mice, 2)
	for _, m := range term.mice {
		require.Equal(t, [2]int{7 - frameLeft, 12 - frameTop - 1}, [2]int{m.Mouse().X, m.Mouse().Y})
	}
}

func TestGoldenSessionList(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {160, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newSessionHarness(t, size[0], size[1])
			h.key("s")
			h.typeText("echo golden")
			h.key("enter", "ctrl+q")
			h.now = t0.Add(5 * time.Minute)
			h.run(h.m.workspaces.load())
			h.key("down")
			golden.RequireEqual(t, []byte(h.screen()))
		})
	}
}
