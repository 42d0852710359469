package tui_test

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace"
)

// keyBytes is a model that turns every key and paste it is given into the
// bytes an attached session gets for it (workspace.EncodeKey; a paste as
// a bracketed one), as the Workspaces pane forwards them.
type keyBytes struct {
	out       chan encodedKey
	appCursor bool
}

type encodedKey struct {
	name  string // the key as the UI sees it ("esc", "alt+a"), "paste"
	bytes []byte
}

func (k keyBytes) Init() tea.Cmd { return nil }
func (k keyBytes) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		k.out <- encodedKey{m.String(), workspace.EncodeKey(workspace.KeyPress(m.Key()), k.appCursor)}
	case tea.PasteMsg:
		k.out <- encodedKey{"paste", []byte("\x1b[200~" + m.Content + "\x1b[201~")}
	}
	return k, nil
}
func (k keyBytes) View() tea.View { return tea.NewView("") }

// TestKeyBurstsReachTheSessionAsInTmux writes bursts of keys to a
// Program's terminal in one write, as `tmux send-keys` with several keys
// sends them, and requires the bytes the session would get to be the
// bytes a program in a bare tmux pane reads for the same send-keys call
// (scripts/workspace/keys-diff.sh compares the two for real).
//
// Ultraviolet's parser read ESC ESC as alt+esc, so two Escapes reached the
// session as one ESC fewer (three as two) or, under the kitty protocol,
// as alt+esc; ESC ESC [ A was alt+up (third_party/bubbletea/escreader.go).
func TestKeyBurstsReachTheSessionAsInTmux(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []string // written one after the other, each in one write
		want string   // what the session gets (normal cursor keys)
		app  string   // … under DECCKM, when it differs
	}{
		{name: "Escape", in: []string{"\x1b"}, want: "\x1b"},
		{name: "Escape Escape", in: []string{"\x1b\x1b"}, want: "\x1b\x1b"},
		{name: "Escape Escape Escape", in: []string{"\x1b\x1b\x1b"}, want: "\x1b\x1b\x1b"},
		{name: "Escape ×4", in: []string{"\x1b\x1b\x1b\x1b"}, want: "\x1b\x1b\x1b\x1b"},
		{name: "Escape, then Escape in another read", in: []string{"\x1b", "\x1b"}, want: "\x1b\x1b"},
		{name: "Escape a", in: []string{"\x1ba"}, want: "\x1ba"},
		{name: "Escape Escape a", in: []string{"\x1b\x1ba"}, want: "\x1b\x1ba"},
		{name: "Escape Up", in: []string{"\x1b\x1b[A"}, want: "\x1b\x1b[A", app: "\x1b\x1bOA"},
		{name: "Escape Escape Up", in: []string{"\x1b\x1b\x1b[A"}, want: "\x1b\x1b\x1b[A", app: "\x1b\x1b\x1bOA"},
		{name: "Escape : w q Enter", in: []string{"\x1b:wq\r"}, want: "\x1b:wq\r"},
		{name: "i x Escape", in: []string{"ix\x1b"}, want: "ix\x1b"},
		{name: "M-[", in: []string{"\x1b["}, want: "\x1b["},
		{name: "M-Enter M-BSpace", in: []string{"\x1b\r\x1b\x7f"}, want: "\x1b\r\x1b\x7f"},
		{name: "C-M-a", in: []string{"\x1b\x01"}, want: "\x1b\x01"},
		{name: "C-Space", in: []string{"\x00"}, want: "\x00"},
		{name: "Up Left", in: []string{"\x1b[A\x1b[D"}, want: "\x1b[A\x1b[D", app: "\x1bOA\x1bOD"},
		{name: "S-Up C-Down M-Right", in: []string{"\x1b[1;2A\x1b[1;5B\x1b[1;3C"}, want: "\x1b[1;2A\x1b[1;5B\x1b[1;3C"},
		// tmux sends SS3 A for these literal keys, and so does a terminal
		// under DECCKM for Up: it is Up, in the session's own cursor mode
		// (tmux reading the same bytes from a terminal sends ESC [ A too).
		{name: "Escape O A typed", in: []string{"\x1bOA"}, want: "\x1b[A", app: "\x1bOA"},
		// tmux's Home and End (TERM=tmux); a session has xterm's.
		{name: "Home End", in: []string{"\x1b[1~\x1b[4~"}, want: "\x1b[H\x1b[F", app: "\x1bOH\x1bOF"},
		{name: "S-Home C-End", in: []string{"\x1b[1;2H\x1b[1;5F"}, want: "\x1b[1;2H\x1b[1;5F"},
		{name: "F1 F5 S-F1 C-F5", in: []string{"\x1bOP\x1b[15~\x1b[1;2P\x1b[15;5~"}, want: "\x1bOP\x1b[15~\x1b[1;2P\x1b[15;5~"},
		{name: "BTab M-BTab", in: []string{"\x1b[Z\x1b\x1b[Z"}, want: "\x1b[Z\x1b\x1b[Z"},
		{name: "paste with ESCs", in: []string{"\x1b[200~x\x1by\x1b\x1b[Az\x1b\x1b\x1b[201~"}, want: "\x1b[200~x\x1by\x1b\x1b[Az\x1b\x1b\x1b[201~"},
		{name: "Escape Escape after a paste", in: []string{"\x1b[200~p\x1b[201~\x1b\x1b"}, want: "\x1b[200~p\x1b[201~\x1b\x1b"},
	} {
		for _, app := range []bool{false, true} {
			want := c.want
			name := c.name
			if app {
				if c.app == "" {
					continue
				}
				want, name = c.app, name+" (DECCKM)"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				got, _ := burstBytes(t, c.in, app, len(want))
				require.Equal(t, want, got)
			})
		}
	}
}

// burstBytes runs a Program on a pty, writes each of in (once the Program
// reads its keys) and returns the bytes its keys encode to, n of them and
// whatever else comes within 200 ms, and the keys' names.
func burstBytes(t *testing.T, in []string, appCursor bool, n int) (string, []string) {
	keys := make(chan encodedKey, 64)
	master, _, _ := runOnPty(t, keyBytes{keys, appCursor})

	// The terminal is in raw mode once a key typed comes through.
	_, err := master.Write([]byte("#"))
	require.NoError(t, err)
	select {
	case k := <-keys:
		require.Equal(t, "#", string(k.bytes))
	case <-time.After(30 * time.Second):
		t.Fatal("the program never read its terminal")
	}

	for i, s := range in {
		if i > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		_, err = master.Write([]byte(s))
		require.NoError(t, err)
	}
	var got bytes.Buffer
	var names []string
	deadline := time.After(30 * time.Second)
	for got.Len() < n {
		select {
		case k := <-keys:
			got.Write(k.bytes)
			names = append(names, k.name)
		case <-deadline:
			return got.String(), names
		}
	}
	extra := time.After(200 * time.Millisecond)
	for {
		select {
		case k := <-keys:
			got.Write(k.bytes)
			names = append(names, k.name)
		case <-extra:
			return got.String(), names
		}
	}
}

// TestEscapesReachTheUIAsEscapes: each Escape typed is an Escape for the UI
// and the session alike (under the kitty protocol a session tells esc esc
// from alt+esc), whether the Escapes came in one read or two; an ESC
// before another key is still that key with alt.
func TestEscapesReachTheUIAsEscapes(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []string
		want []string
	}{
		{"Escape", []string{"\x1b"}, []string{"esc"}},
		{"Escape Escape", []string{"\x1b\x1b"}, []string{"esc", "esc"}},
		{"Escape Escape Escape", []string{"\x1b\x1b\x1b"}, []string{"esc", "esc", "esc"}},
		{"Escape, Escape in the next read", []string{"\x1b", "\x1b"}, []string{"esc", "esc"}},
		{"Escape Up", []string{"\x1b\x1b[A"}, []string{"esc", "up"}},
		{"alt+a", []string{"\x1ba"}, []string{"alt+a"}},
		{"Escape alt+4", []string{"\x1b\x1b4"}, []string{"esc", "alt+4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			n := 0 // the session gets the bytes typed
			for _, s := range c.in {
				n += len(s)
			}
			_, names := burstBytes(t, c.in, false, n)
			require.Equal(t, c.want, names)
		})
	}
}
