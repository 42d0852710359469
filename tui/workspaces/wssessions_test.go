package workspaces_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/alice-trading/alice/tui/workspaces"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// fakeSessions adds SessionCore to fakeCore, recording every call.
type fakeSessions struct {
	*tuitest.FakeCore
	smu      sync.Mutex
	sess     map[string][]*workspaces.SessionInfo
	archived map[string]bool
	started  [][2]int
	stopped  []string
	restarts []string
	removed  map[string]bool     // id → removeDir
	saved    map[string][]string // paused session id → its saved output
}

// richTerm is a fakeTerm with scrollback and mouse reporting.
type richTerm struct {
	*tuitest.FakeTerm
	sb    []string
	wrap  []bool // Wrapped: the scrollback lines, then the screen rows
	mouse bool
	mice  []tea.MouseMsg
	cur   *[2]int // the cursor (nil: the fake's)
}

func (t *richTerm) Frame() workspaces.TermFrame {
	f := t.FakeTerm.Frame()
	if t.cur != nil {
		f.X, f.Y = t.cur[0], t.cur[1]
	}
	return f
}

func (t *richTerm) Scrollback() []string     { return t.sb }
func (t *richTerm) Wrapped() []bool          { return t.wrap }
func (t *richTerm) MouseReporting() bool     { return t.mouse }
func (t *richTerm) SendMouse(m tea.MouseMsg) { t.mice = append(t.mice, m) }

func newFakeSessions() *fakeSessions {
	return &fakeSessions{FakeCore: tuitest.NewFakeCore(), sess: map[string][]*workspaces.SessionInfo{}, archived: map[string]bool{}, removed: map[string]bool{}}
}

func (f *fakeSessions) StartSessionSize(ws, agent string, cols, rows int) (workspaces.Terminal, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	name := map[string]string{"claude": "c1", "codex": "x1"}[agent]
	if name == "" {
		name = "sh1"
	}
	ft := &tuitest.FakeTerm{TermID: ws + "-" + agent, TermName: name, ChangedCh: make(chan struct{}, 1), Screen: "$ ", Cols: cols, Rows: rows}
	// The first scrollback line wrapped onto the second; the screen is
	// one row ("$ ").
	t := &richTerm{FakeTerm: ft, sb: []string{"old line 1 ", "the needle is here", "old line 3"}, wrap: []bool{true, false, false, false}}
	f.started = append(f.started, [2]int{cols, rows})
	f.sess[ws] = append(f.sess[ws], &workspaces.SessionInfo{ID: ft.TermID, Name: name, Agent: agent, State: "running", Created: tuitest.T0, Term: t})
	f.FakeCore.Mu.Lock()
	f.Terms[ws] = append(f.Terms[ws], t)
	f.FakeCore.Mu.Unlock()
	return t, nil
}

func (f *fakeSessions) WorkspaceDetail(ws string) workspaces.WorkspaceDetail {
	f.smu.Lock()
	defer f.smu.Unlock()
	d := workspaces.WorkspaceDetail{Archived: f.archived[ws]}
	for _, s := range f.sess[ws] {
		d.Sessions = append(d.Sessions, *s)
	}
	return d
}

func (f *fakeSessions) find(id string) *workspaces.SessionInfo {
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

func (f *fakeSessions) RestartSession(id string) (workspaces.Terminal, error) {
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

func (f *fakeSessions) SavedOutput(id string, cols, rows int) ([]string, bool, error) {
	f.smu.Lock()
	defer f.smu.Unlock()
	lines, ok := f.saved[id]
	return lines, ok, nil
}

func (f *fakeSessions) RemoveWorkspace(id string, removeDir bool) error {
	f.smu.Lock()
	f.removed[id] = removeDir
	f.smu.Unlock()
	f.FakeCore.Mu.Lock()
	defer f.FakeCore.Mu.Unlock()
	f.Workspace = slices.DeleteFunc(f.Workspace, func(w workspaces.WorkspaceInfo) bool { return w.ID == id })
	return nil
}

func (f *fakeSessions) ArchiveWorkspace(id string, archived bool) error {
	f.smu.Lock()
	defer f.smu.Unlock()
	f.archived[id] = archived
	return nil
}

// shellSelected is a 100x30 session harness with a shell started, left
// and selected in the session list.
func shellSelected(t *testing.T) *tuitest.Harness {
	t.Helper()
	h, _ := newSessionHarness(t, 100, 30)
	h.Key("s", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.Key("down")
	return h
}

func newSessionHarness(t *testing.T, w, h int) (*tuitest.Harness, *fakeSessions) {
	f := newFakeSessions()
	hs := tuitest.NewHarnessOver(t, f, f.FakeCore, w, h)
	hs.Run(hs.M.Workspaces.Load())
	hs.M.SetFocus(tui.FocusWorkspaces)
	return hs, f
}

func TestSessionStartsAtThePaneSize(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 120, 40)
	h.Key("s")
	w, ht := h.M.BodySize()
	require.Equal(t, [][2]int{{w, ht - 1}}, f.started, "pty sized to the pane's inner area (body minus the title line) before the child starts")
	require.True(t, h.M.Workspaces.Attached())
}

func TestKillRestartFromTheList(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	require.Contains(t, h.Screen(), "sh1   running")
	h.Key("down")
	require.Equal(t, 0, h.M.Workspaces.Ssel)
	h.TypeText("K")
	require.NotNil(t, h.M.Dialog, "kill asks first")
	require.Empty(t, f.stopped, "nothing killed before the confirm")
	h.Confirm()
	require.Equal(t, []string{"ws1-shell"}, f.stopped)
	require.Contains(t, h.Screen(), "sh1   stopped")
	// enter on a stopped session explains instead of attaching.
	h.Key("enter")
	require.False(t, h.M.Workspaces.Attached())
	require.Contains(t, h.Toast(), "R restarts")
	h.TypeText("R") // not running: no confirm needed
	require.Equal(t, []string{"ws1-shell"}, f.restarts)
	require.Contains(t, h.Screen(), "sh1   running")
}

func TestDeleteKeepsTheDirectoryUnlessAsked(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.TypeText("D")
	require.Contains(t, h.Screen(), "The directory is kept")
	h.Confirm()
	require.Equal(t, map[string]bool{"ws1": false}, f.removed)
	require.Contains(t, h.Screen(), "No workspaces yet")

	h2, f2 := newSessionHarness(t, 100, 30)
	h2.Send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt})
	require.Contains(t, h2.Screen(), "DELETED")
	h2.Key("esc")
	require.Empty(t, f2.removed, "cancel deletes nothing")
	h2.Send(tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt})
	h2.Confirm()
	require.Equal(t, map[string]bool{"ws1": true}, f2.removed)
}

func TestArchiveToggles(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.TypeText("A")
	h.Confirm()
	require.True(t, f.archived["ws1"])
	require.Contains(t, h.Screen(), "archived")
	h.TypeText("A") // unarchive needs no confirm
	require.False(t, f.archived["ws1"])
}

func TestPreviewShowsTheSelectedSession(t *testing.T) {
	t.Parallel()
	h, _ := newSessionHarness(t, 160, 45)
	h.Key("s")
	h.TypeText("echo preview-me")
	h.Key("enter", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	s := h.Screen()
	require.Contains(t, s, "preview · sh1")
	require.Contains(t, s, "preview-me")

	// A line wider than the preview is cut with an ellipsis.
	h.Key("s")
	h.TypeText("echo " + strings.Repeat("wide ", 60) + "END")
	h.Key("enter", "ctrl+q")
	h.Run(h.M.Workspaces.Load())
	s = h.Screen()
	require.NotContains(t, s, "END")
	require.Regexp(t, `wide wide[^│]*…`, s)
}

func TestScrollbackViewerSearchSelectCopy(t *testing.T) {
	t.Parallel()
	h := shellSelected(t)
	h.TypeText("v")
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	require.Contains(t, h.Screen(), "Scrollback · sh1")
	require.Contains(t, h.Screen(), "old line 1")
	h.TypeText("/needle")
	h.Key("enter")
	v := h.M.Workspaces.Scroll
	require.Equal(t, "the needle is here", v.Lines[v.Cur])
	// A failed search is a passing note, not a red error that stays.
	h.TypeText("/haystack")
	h.Key("enter")
	require.Contains(t, h.Toast(), `no match for "haystack" in the scrollback`)
	require.False(t, h.M.Toasts.HasError())
	h.TypeText("/needle")
	h.Key("enter")
	h.TypeText("V")
	h.Key("up")
	require.Equal(t, []string{"old line 1", "the needle is here"}, v.Selection())
	// A copy joins the rows the session wrapped, its blank at the margin
	// kept, as tmux's copy mode does.
	require.Equal(t, "old line 1 the needle is here", v.SelectionText())
	h.TypeText("y")
	require.Contains(t, h.Toast(), "copied 2 line(s)")
	h.Key("esc")
	require.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)
}

func TestMouseGoesToTheChildOnlyWhenItAsked(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	// No mouse reporting: the wheel opens the scrollback instead.
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp, X: 5, Y: 10})
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	require.Empty(t, term.mice)
	h.Key("esc")
	require.True(t, h.M.Workspaces.Attached(), "esc returns to the attached terminal")
	term.mouse = true
	// A click on screen cell (x, y) is terminal cell (x-frameLeft, y-frameTop-1):
	// the frame, then the pane's title line.
	h.Send(tea.MouseClickMsg{Button: tea.MouseLeft, X: 7, Y: 12})
	h.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 7, Y: 12})
	require.Len(t, term.mice, 2)
	for _, m := range term.mice {
		require.Equal(t, [2]int{7 - tui.FrameLeft, 12 - tui.FrameTop - 1}, [2]int{m.Mouse().X, m.Mouse().Y})
	}
}

func TestGoldenSessionList(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{100, 30}, {160, 45}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := newSessionHarness(t, size[0], size[1])
			h.Key("s")
			h.TypeText("echo golden")
			h.Key("enter", "ctrl+q")
			h.Now = tuitest.T0.Add(5 * time.Minute)
			h.Run(h.M.Workspaces.Load())
			h.Key("down")
			golden.RequireEqual(t, []byte(h.Screen()))
		})
	}
}

// The scrollback keeps colours: the viewer shows them, while search and
// copy work on the text.
func TestScrollbackViewerShowsColours(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	term.sb = []string{"plain before", "\x1b[31mred alert\x1b[m and \x1b[1;44m bar \x1b[m", "plain after"}
	h.Key("ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.Key("down")
	h.TypeText("v")
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	require.Contains(t, h.M.Render(), "\x1b[31mred alert", "the colour reaches the screen")
	require.Contains(t, h.M.Render(), "\x1b[1;44m bar ")
	h.TypeText("/alert and")
	h.Key("enter")
	v := h.M.Workspaces.Scroll
	require.Equal(t, "red alert and  bar", v.Lines[v.Cur], "search sees the text")
	h.TypeText("y")
	require.Contains(t, h.Toast(), "copied 1 line(s)")
}

// A client smaller than the session (another, larger client sized it)
// shows the part of the screen that holds the cursor, as tmux does, and
// puts the cursor where that part shows it.
func TestSmallerClientFollowsTheCursor(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	rows := make([]string, 60)
	for i := range rows {
		rows[i] = fmt.Sprintf("row-%02d %s|end-%02d", i, strings.Repeat(".", 150), i)
	}
	term.Mu.Lock()
	term.Screen = strings.Join(rows, "\n") // a 170x60 session
	term.Mu.Unlock()
	term.cur = &[2]int{3, 10}
	h.Send(workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen})
	require.Contains(t, h.Screen(), "row-00", "the cursor is in the first rows: the top shows")
	_, y, ok := h.M.Workspaces.Cursor()
	require.True(t, ok)
	require.Equal(t, 11, y, "title line + row 10")

	term.cur = &[2]int{3, 55} // the shell prompt at the bottom of the larger screen
	h.Send(workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen})
	s := h.Screen()
	require.Contains(t, s, "row-55", "the cursor's row is shown")
	require.NotContains(t, s, "row-00")
	x, y, _ := h.M.Workspaces.Cursor()
	lines := strings.Split(h.M.Workspaces.View(), "\n")
	require.Less(t, y, len(lines))
	require.Contains(t, ansi.Strip(lines[y]), "row-55", "the cursor sits on its row")
	require.Equal(t, 3, x)

	term.cur = &[2]int{160, 55} // far right (the d of end-55): the window pans
	h.Send(workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen})
	x, y, _ = h.M.Workspaces.Cursor()
	lines = strings.Split(h.M.Workspaces.View(), "\n")
	require.Contains(t, ansi.Strip(lines[y]), "|end", "the right end of the cursor's row is shown")
	require.Less(t, x, 100)
	require.Equal(t, "d", string([]rune(ansi.Strip(lines[y]))[x]), "the cursor is on column 160 (the d of end-55)")
}

// Scrollback lines padded to a wider session's width are not marked as
// cut: only text that goes past the pane ends in "…" (every line of a
// shell's scrollback ended in "…" at 80 columns).
func TestScrollbackMarksOnlyCutText(t *testing.T) {
	t.Parallel()
	s := scrollbackScreen(t, func(int) []string {
		return []string{"# echo Hello World" + strings.Repeat(" ", 100), "\x1b[32mHello World\x1b[m" + strings.Repeat(" ", 100) + "\x1b[m",
			strings.Repeat("long ", 30)}
	})
	require.Regexp(t, `# echo Hello World +│`, s, "a padded line is not cut")
	require.Regexp(t, `│ Hello World +│`, s)
	require.Regexp(t, `long …\s*│`, s, "a line longer than the pane is")
}

// A scrollback row as wide as the pane shows whole, as in tmux's copy mode
// (the viewer kept two columns for a cursor mark and cut the row to
// "…"), on the cursor's line too.
func TestScrollbackShowsFullWidthRows(t *testing.T) {
	t.Parallel()
	var w int
	s := scrollbackScreen(t, func(cols int) []string {
		w = cols // the session has the pane's inner width
		return []string{strings.Repeat("a", w-1) + "A", strings.Repeat("b", w-1) + "B"}
	})
	require.Contains(t, s, strings.Repeat("a", w-1)+"A", "the row is whole")
	require.Contains(t, s, strings.Repeat("b", w-1)+"B", "the cursor's row is whole")
}

// scrollbackScreen starts a shell at 80x24 whose scrollback is sb(the
// session's columns), leaves it, opens its scrollback viewer and returns
// the screen.
func scrollbackScreen(t *testing.T, sb func(cols int) []string) string {
	t.Helper()
	h, f := newSessionHarness(t, 80, 24)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	term.sb = sb(term.Cols)
	h.Key("ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.Key("down")
	h.TypeText("v")
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	return h.Screen()
}

// A paste goes into the scrollback's search line while it is open.
func TestScrollbackSearchTakesAPaste(t *testing.T) {
	t.Parallel()
	h := shellSelected(t)
	h.TypeText("v/")
	h.Send(tea.PasteMsg{Content: "needle\n"})
	h.Key("enter")
	v := h.M.Workspaces.Scroll
	require.Equal(t, "the needle is here", v.Lines[v.Cur])
}

// After a restart a paused session has no terminal; v opens what it
// printed before alice stopped, read-only, without restarting it, and
// says so plainly when nothing was saved (an agent session).
func TestScrollbackOfAPausedSessionReadsItsSavedOutput(t *testing.T) {
	t.Parallel()
	f := newFakeSessions()
	f.sess["ws1"] = []*workspaces.SessionInfo{
		{ID: "r1", Name: "sh1", Agent: "shell", State: "paused", Created: tuitest.T0},
		{ID: "r2", Name: "claude1", Agent: "claude", State: "paused", Created: tuitest.T0},
	}
	f.saved = map[string][]string{"r1": {"$ echo remember-42", "remember-42", "$ "}}
	h := tuitest.NewHarnessOver(t, f, f.FakeCore, 100, 30)
	h.Run(h.M.Workspaces.Load())
	h.M.SetFocus(tui.FocusWorkspaces)
	h.Key("down")
	h.TypeText("v")
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	scr := h.Screen()
	require.Contains(t, scr, "sh1 · paused, saved output (read-only; R restarts it)")
	require.Contains(t, scr, "remember-42")
	require.Empty(t, f.restarts, "reading it restarted nothing")
	h.Key("esc")
	require.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)
	h.Key("down")
	h.TypeText("v")
	require.Equal(t, workspaces.WsList, h.M.Workspaces.Mode)
	require.Contains(t, h.Toast(), "session claude1 is paused and none of its output was saved")
	require.Empty(t, f.restarts)
}

// Detaching selects the session just left, so enter re-attaches it as the
// flash promises: a claude session started while a shell was selected
// used to leave the shell selected, and enter attached the shell.
func TestDetachSelectsTheSessionLeft(t *testing.T) {
	t.Parallel()
	h := shellSelected(t)
	require.Equal(t, 0, h.M.Workspaces.Ssel, "sh1 selected")
	h.Key("c") // starts c1 and attaches it
	require.True(t, h.M.Workspaces.Attached())
	require.Contains(t, h.Screen(), "c1 · running")
	h.Key("ctrl+q")
	require.Equal(t, 1, h.M.Workspaces.Ssel, "the session left (c1) is selected")
	h.Run(h.M.Workspaces.Load())
	require.Equal(t, 1, h.M.Workspaces.Ssel, "and stays selected when the list reloads")
	h.Key("enter")
	require.True(t, h.M.Workspaces.Attached())
	require.Contains(t, h.Screen(), "c1 · running", "enter re-attaches the session left, not the one selected before")
}

// n repeats the search in its direction (towards older lines, as / found
// the nearest match above the newest line) and N goes back, as tmux's
// search-again does: n used to turn downwards and wrap to the oldest
// match, skipping every match in between.
func TestScrollbackSearchAgainKeepsItsDirection(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	term.sb = []string{"hit 1", "miss", "hit 2", "miss", "hit 3", "miss", "hit 4", "miss"}
	term.wrap = nil
	h.Key("ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.Key("down")
	h.TypeText("v/hit")
	h.Key("enter")
	v := h.M.Workspaces.Scroll
	require.Equal(t, "hit 4", v.Lines[v.Cur], "/ finds the newest match above")
	var seen []string
	for range 3 {
		h.TypeText("n")
		seen = append(seen, v.Lines[v.Cur])
	}
	require.Equal(t, []string{"hit 3", "hit 2", "hit 1"}, seen, "n goes on towards older lines")
	h.TypeText("N")
	require.Equal(t, "hit 2", v.Lines[v.Cur], "N goes back towards newer lines")
}

// The wheel opens the scrollback of an attached session; wheeling back
// down to the newest line returns to the session, as tmux's copy mode
// entered with the wheel (copy-mode -e) does. Opened with v, the viewer
// stays until esc.
func TestWheelBackToTheBottomReturnsToTheSession(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	term.sb = make([]string, 40)
	for i := range term.sb {
		term.sb[i] = fmt.Sprintf("old %02d", i)
	}
	term.wrap = nil
	up := tea.MouseWheelMsg{Button: tea.MouseWheelUp, X: 5, Y: 10}
	down := tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 5, Y: 10}
	h.Send(up)
	h.Send(up)
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	h.Send(down)
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode, "not yet at the newest line")
	h.Send(down)
	require.True(t, h.M.Workspaces.Attached(), "back at the newest line: the session again")
	h.TypeText("x")
	term.Mu.Lock()
	keys := slices.Clone(term.Keys)
	term.Mu.Unlock()
	require.Contains(t, keys, "x", "keys go to the session again")

	h.Key("ctrl+q")
	h.Run(h.M.Workspaces.Load())
	h.Key("down")
	h.TypeText("v")
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode)
	h.Send(down)
	require.Equal(t, workspaces.WsScroll, h.M.Workspaces.Mode, "opened with v: the wheel only scrolls")
}

// Once the session is back to the pane's size (a resize that shrank the
// pane first, then the session), the pane shows it from its left edge
// again: the window panned to a cursor at the far right of the larger
// screen used to stay panned, cutting off the left of every row (top at
// 60x20 after 140x40 showed "  0 user,  load average…" for good).
func TestPanBackWhenTheScreenFitsAgain(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 100, 30)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	screen := func(cols int) {
		rows := make([]string, 20)
		for i := range rows {
			rows[i] = fmt.Sprintf("left-%02d%s", i, strings.Repeat(".", cols-7))
		}
		term.Mu.Lock()
		term.Screen = strings.Join(rows, "\n")
		term.Mu.Unlock()
	}
	screen(170)
	term.cur = &[2]int{165, 19}
	h.Send(workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen})
	require.NotContains(t, h.Screen(), "left-00", "a wider screen pans to the cursor")

	w, _ := h.M.BodySize()
	screen(w)
	term.cur = &[2]int{50, 19} // the session took the pane's width; the cursor stays right of the old window's start
	h.Send(workspaces.TermChangedMsg{ID: term.ID(), Gen: h.M.Workspaces.TermGen})
	require.Contains(t, h.Screen(), "left-00", "the screen fits again: shown from its left edge")
	x, _, ok := h.M.Workspaces.Cursor()
	require.True(t, ok)
	require.Equal(t, 50, x)
}

// A session wider than the preview is cut with "…" only where text goes
// past the edge: blank rows and rows whose text fits (padded with blanks
// to the session's width) are not marked (every row of a 136-column
// claude ended in "…" in a 73-column preview, blank ones too).
func TestPreviewMarksOnlyCutText(t *testing.T) {
	t.Parallel()
	h, f := newSessionHarness(t, 160, 45)
	h.Key("s")
	term := f.sess["ws1"][0].Term.(*richTerm)
	pad := strings.Repeat(" ", 150)
	term.Mu.Lock()
	term.Screen = "short line" + pad + "\n" + pad + "\n" + strings.Repeat("long ", 40) + "\n$ " + pad
	term.Mu.Unlock()
	h.Key("ctrl+q")
	h.Run(h.M.Workspaces.Load())
	s := h.Screen()
	require.Contains(t, s, "preview · sh1")
	require.Regexp(t, `short line +│`, s, "a padded row is not marked as cut")
	require.Contains(t, s, "long long…", "a row whose text goes past the edge is")
	require.Equal(t, 1, strings.Count(s, "… │"), "only the long row is marked: %s", s)
}
