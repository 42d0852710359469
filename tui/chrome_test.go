package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// extraPane is what a helper adding a tab writes: a pane with actions.
type extraPane struct {
	w, h    int
	focused bool
	ran     int
}

func (p *extraPane) SetSize(w, h int)         { p.w, p.h = w, h }
func (p *extraPane) Focus()                   { p.focused = true }
func (p *extraPane) Blur()                    { p.focused = false }
func (p *extraPane) Update(tea.Msg) tea.Cmd   { return nil }
func (p *extraPane) View() string             { return "extra pane body" }
func (p *extraPane) Capturing() bool          { return false }
func (p *extraPane) Badge() string            { return "●" }
func (p *extraPane) ShortHelp() []key.Binding { return nil }
func (p *extraPane) Actions() []Action {
	return []Action{{ID: "extra.refresh", Title: "Refresh the extra thing", Group: "Extra", Key: "r",
		Run: func() tea.Cmd { p.ran++; return nil }}}
}

func TestAddedPaneGetsATabAKeyAndPaletteActions(t *testing.T) {
	h := newHarness(t, 120, 30)
	x := &extraPane{}
	idx := h.m.addPane("Extra", x)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	require.Equal(t, [2]int{116, 25}, [2]int{x.w, x.h}, "sized to the inside of the frame")
	require.Contains(t, h.screen(), fmt.Sprintf("%d Extra ●", idx+1))
	h.send(tea.KeyPressMsg{Code: rune('1' + idx), Mod: tea.ModAlt})
	require.Equal(t, idx, h.m.focus)
	require.True(t, x.focused)
	require.Contains(t, h.screen(), "╭─ Extra ─")
	require.Contains(t, h.screen(), "extra pane body")

	h.send(ctrl('p'))
	h.typeText("refr extra")
	require.Contains(t, h.screen(), "Refresh the extra thing")
	h.key("enter")
	require.Nil(t, h.m.palette)
	require.Equal(t, 1, x.ran)
}

func TestPaletteFuzzyFindsAndRunsAnAction(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.send(ctrl('p'))
	require.NotNil(t, h.m.palette)
	s := h.screen()
	require.Contains(t, s, "Go to Portfolio")
	var ids []string
	for _, a := range h.m.palette.all {
		ids = append(ids, a.ID)
	}
	require.Contains(t, ids, "workspaces.shell", "every pane's actions are listed, not only the focused one's")
	require.Equal(t, "chat.new", ids[0], "the focused pane's actions come first")
	h.typeText("aprv")
	require.Equal(t, "portfolio.approve", h.m.palette.all[h.m.palette.matches[0].Index].ID)
	h.key("enter")
	require.Equal(t, focusPortfolio, h.m.focus, "the action focuses its pane")
	require.NotNil(t, h.m.dialog, "and opens the approval confirmation")
	require.Empty(t, h.f.approved)

	// Aliases match, arrows move, esc closes without running anything.
	h.key("esc")
	h.now = h.now.Add(time.Second)
	h.key("esc")
	h.send(ctrl('p'))
	h.typeText("exit")
	require.Equal(t, "app.quit", h.m.palette.all[h.m.palette.matches[0].Index].ID)
	h.key("esc")
	require.Nil(t, h.m.palette)
	require.Nil(t, h.m.quitDlg)
}

func TestFooterShowsPaneKeysWithEllipsisAndAlwaysQuitAndHelp(t *testing.T) {
	for _, w := range []int{80, 120, 220} {
		h := newHarness(t, w, 24)
		for f := range h.m.tabs {
			h.m.setFocus(focus(f))
			lines := strings.Split(h.screen(), "\n")
			foot := lines[len(lines)-2]
			require.LessOrEqual(t, ansi.StringWidth(foot), w)
			require.Contains(t, foot, "ctrl+c quit", "width %d pane %d", w, f)
			require.Contains(t, foot, "help")
			require.Contains(t, foot, "ctrl+p commands")
			if w == 80 {
				require.Contains(t, foot, "…", "hints that do not fit end in an ellipsis")
			}
		}
	}
}

func TestToastsExpireErrorsStayAndAreKeptInHistory(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.send(flashMsg("detached; the session keeps running"))
	require.Contains(t, h.screen(), "detached; the session keeps running")
	id := h.m.toasts.live[0].id
	h.send(flashMsg("newer"))
	h.send(toastExpiredMsg{id}) // the old timer must not clear the newer toast
	require.Contains(t, h.screen(), "newer")
	h.send(toastExpiredMsg{h.m.toasts.live[0].id})
	require.NotContains(t, h.screen(), "newer", "info toasts expire")

	h.send(errMsg{errors.New("broker offline")})
	h.send(toastExpiredMsg{h.m.toasts.seq})
	require.Contains(t, h.screen(), "✗ broker offline", "errors stay until dismissed")
	require.Contains(t, h.screen(), "ctrl+x dismiss")
	h.send(ctrl('x'))
	require.NotContains(t, h.screen(), "broker offline")

	h.send(tea.KeyPressMsg{Code: 'm', Mod: tea.ModAlt})
	require.NotNil(t, h.m.help)
	s := h.screen()
	require.Contains(t, s, "Messages")
	require.Contains(t, s, "✗ broker offline")
	require.Contains(t, s, "detached; the session keeps running")
	h.typeText("broker")
	require.NotContains(t, h.screen(), "detached;", "the history filters")
}

func TestFriendlyErrors(t *testing.T) {
	for _, tc := range []struct {
		in   error
		want string
	}{
		{context.Canceled, "Stopped."},
		{fmt.Errorf("stopped: %w", context.Canceled), "Stopped."},
		{errors.New("stopped: context canceled"), "Stopped."},
		{context.DeadlineExceeded, "That took too long and was stopped; try again."},
		{errors.New("get quote: dial tcp 127.0.0.1:7497: connect: connection refused"), "get quote: could not connect to 127.0.0.1:7497 (is it running?)"},
		{errors.New("order rejected: insufficient cash"), "order rejected: insufficient cash"},
	} {
		require.Equal(t, tc.want, friendlyError(tc.in), tc.in.Error())
	}
}

func TestProgressLineShowsLongWorkUntilItEnds(t *testing.T) {
	h := newHarness(t, 120, 30)
	cmd := h.m.work.begin("compact", "compacting the session", h.now)
	require.NotNil(t, cmd, "the first item starts the spinner")
	h.now = h.now.Add(3 * time.Second)
	require.Contains(t, h.screen(), "compacting the session… 3s")
	require.Nil(t, h.m.work.begin("snap", "taking a snapshot", h.now), "one spinner for all work")
	require.Contains(t, h.screen(), "taking a snapshot… (+1 more)")
	h.m.work.end("snap")
	h.m.work.end("compact")
	require.NotContains(t, h.screen(), "compacting")
	require.Nil(t, h.m.work.update(workMsg{}), "the spinner stops when nothing runs")
}

func TestQuitAsksOnlyWhenSomethingRuns(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.m.setFocus(focusPortfolio)
	h.key("q")
	require.NotNil(t, h.m.quitDlg, "a running shell needs confirmation")
	require.Contains(t, h.screen(), "sh1 in workspace research-aapl")
	h.key("n")
	require.Nil(t, h.m.quitDlg)
	require.NoError(t, h.m.ctx.Err(), "still running")

	// In the chat input q is a letter, not quit.
	h.m.setFocus(focusChat)
	h.key("q")
	require.Nil(t, h.m.quitDlg)
	require.Equal(t, "q", h.m.chat.input.Value())

	h.m.workspaces.list = []WorkspaceInfo{{Tag: "w", Sessions: []string{"sh1 exited", "claude1 stopped", "sh2 restarting"}}}
	require.Equal(t, []string{"sh2 in workspace w"}, h.m.runningWork(), "ended sessions do not count, respawning ones do")
	h.m.workspaces.list = nil
	_, cmd := h.m.Update(keyMsg("ctrl+c"))
	require.NotNil(t, cmd)
	require.IsType(t, tea.QuitMsg{}, cmd(), "nothing runs: quit at once")
}

func TestCtrlCFromAnOverlayAndWorkspaceCreationProgress(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.send(ctrl('p'))
	h.key("ctrl+c")
	require.Nil(t, h.m.palette, "ctrl+c closes the palette")
	require.NotNil(t, h.m.quitDlg, "and asks, since a shell runs")
	h.key("esc")

	h.m.setFocus(focusWorkspaces)
	h.key("n")
	h.typeText("notes")
	_, cmd := h.m.Update(keyMsg("enter"))
	require.Contains(t, h.screen(), "creating the workspace…")
	h.run(cmd)
	require.NotContains(t, h.screen(), "creating the workspace…")
	require.Len(t, h.f.workspace, 2)
}

func TestLongToastsAreCutAtAWord(t *testing.T) {
	require.Equal(t, "detached; the session…", cutWords("detached; the session keeps running in the background", 24))
	require.Equal(t, "short", cutWords("short", 24))
	h := newHarness(t, 80, 24)
	h.send(flashMsg("detached; the session keeps running in the background while you look at other panes and more"))
	lines := strings.Split(h.screen(), "\n")
	status := lines[len(lines)-1]
	require.Contains(t, status, "…")
	require.NotContains(t, status, "pane…", "cut between words, not inside one")
}

func TestHelpListsEveryPaneAndFilters(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.m.setFocus(focusPortfolio)
	h.key("?")
	all := strings.Join(h.m.help.lines(), "\n")
	for _, tb := range h.m.tabs {
		require.Contains(t, all, tb.name, "a section per pane")
	}
	require.Contains(t, all, "approve push")
	require.Contains(t, all, "edit in $EDITOR", "other panes' keys too")
	require.Contains(t, all, "go to pane N")
	h.typeText("editor")
	got := ansi.Strip(strings.Join(h.m.help.lines(), "\n"))
	require.Contains(t, got, "ctrl+e")
	require.NotContains(t, got, "approve push", "the filter narrows the list")
	h.key("esc")
	require.Nil(t, h.m.help)
}
