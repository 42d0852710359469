package workspaces_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// heldKeys presses open (attach, zoom or a new session), then keys before
// the opening's command has answered, as a fast typist or a paste does
// (the keys arrive in the same read as the one that opens), and then lets
// the opening finish.
func heldKeys(t *testing.T, h *tuitest.Harness, open string, keys ...string) {
	t.Helper()
	_, cmd := h.M.Update(tuitest.KeyMsg(open))
	require.NotNil(t, cmd)
	for _, k := range keys {
		_, c := h.M.Update(tuitest.KeyMsg(k))
		h.Run(c) // whatever a held key would start runs now, before the opening ends
	}
	h.Run(cmd)
}

// detachedShell starts a shell session, detaches from it and returns how
// many keys it had received by then.
func detachedShell(t *testing.T) (*tuitest.Harness, *tuitest.FakeTerm, int) {
	t.Helper()
	h := tuitest.NewHarness(t, 100, 30)
	h.Key("alt+4")
	h.Key("s")
	term := h.F.Terms["ws1"][0].(*tuitest.FakeTerm)
	h.Key("ctrl+q")
	require.False(t, h.M.Workspaces.Attached())
	term.Mu.Lock()
	defer term.Mu.Unlock()
	return h, term, len(term.Keys)
}

// Keys typed while a session opens go to the session, in order, once it
// is shown: they used to reach the session list, where "ls" ran list
// actions and the text was lost.
func TestKeysTypedWhileASessionOpensGoToIt(t *testing.T) {
	t.Parallel()
	h, term, before := detachedShell(t)
	heldKeys(t, h, "enter", "g", "i", "t", "enter")
	require.True(t, h.M.Workspaces.Attached())
	term.Mu.Lock()
	got := append([]string(nil), term.Keys[before:]...)
	term.Mu.Unlock()
	require.Equal(t, []string{"g", "i", "t", "enter"}, got, "the keys reached the session in order")
	require.Contains(t, h.Screen(), "● input", "and nothing else opened (g is the list's git view)")

	// A paste typed meanwhile goes too.
	h.Key("ctrl+q")
	_, cmd := h.M.Update(tuitest.KeyMsg("enter"))
	h.M.Update(tea.PasteMsg{Content: "pasted"})
	h.Run(cmd)
	term.Mu.Lock()
	require.Equal(t, "pasted", term.Keys[len(term.Keys)-1])
	term.Mu.Unlock()
}

// A detach key among the held keys leaves the session after the keys
// before it: the person left before it showed.
func TestDetachTypedWhileASessionOpens(t *testing.T) {
	t.Parallel()
	h, term, before := detachedShell(t)
	heldKeys(t, h, "enter", "a", "ctrl+q", "b")
	require.False(t, h.M.Workspaces.Attached())
	term.Mu.Lock()
	require.Equal(t, []string{"a"}, term.Keys[before:])
	term.Mu.Unlock()
}

// Keys held after a held detach key were typed into the UI, detached: they
// go to the UI, in order. ctrl+q Enter ctrl+q Enter typed at once used to
// end detached, the last Enter and every key after it lost (black-box).
func TestKeysAfterAHeldDetachGoToTheUI(t *testing.T) {
	t.Parallel()
	h, term, before := detachedShell(t)
	heldKeys(t, h, "enter", "a", "ctrl+q", "enter", "c")
	require.True(t, h.M.Workspaces.Attached(), "the Enter after the held ctrl+q attached again")
	term.Mu.Lock()
	require.Equal(t, []string{"a", "c"}, term.Keys[before:], "and the key after it reached the session")
	term.Mu.Unlock()

	// A detach key among them detaches again, and what follows acts on
	// the list: n opens the new-workspace form, with what was typed after
	// it as the tag.
	h.Key("ctrl+q")
	heldKeys(t, h, "enter", "ctrl+q", "n", "h", "i")
	require.False(t, h.M.Workspaces.Attached())
	require.Contains(t, h.Screen(), "New workspace")
	require.Contains(t, h.Screen(), "hi")
}

// The detach toast is taken back when the pane attaches again, and not
// shown at all when the attach came first (ctrl+q Enter typed at once
// left "detached; …" under an attached session).
func TestDetachToastEndsWithTheDetach(t *testing.T) {
	t.Parallel()
	h, _, _ := detachedShell(t)
	require.Contains(t, h.Screen(), "detached; the session keeps running")
	h.Key("enter")
	require.True(t, h.M.Workspaces.Attached())
	require.NotContains(t, h.Screen(), "detached; the session keeps running", "attaching took it back")

	// ctrl+q and Enter in one read: the detach's toast comes after the
	// attach.
	_, detach := h.M.Update(tuitest.KeyMsg("ctrl+q"))
	_, attach := h.M.Update(tuitest.KeyMsg("enter"))
	h.Run(attach)
	require.True(t, h.M.Workspaces.Attached())
	h.Run(detach)
	require.True(t, h.M.Workspaces.Attached())
	require.NotContains(t, h.Screen(), "detached; the session keeps running")
}
