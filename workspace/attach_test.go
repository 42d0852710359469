package workspace

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/termmodes"
	"github.com/stretchr/testify/require"
)

func TestAttachProxiesUntilDetachKey(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "zoom", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)

	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	defer inR.Close()
	defer inW.Close()
	out := &syncBuf{}
	a := s.Attach()
	a.SetStdin(inR)
	a.SetStdout(out)
	a.SetStderr(out)
	done := make(chan error, 1)
	go func() { done <- a.Run() }()

	_, err = inW.Write([]byte("echo zoom-$((3+4))\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "zoom-7") }, waitFor, tick)
	// The CSI-u ctrl+q arrives split across two reads.
	_, err = inW.Write([]byte("\x1b[113"))
	require.NoError(t, err)
	time.Sleep(50 * time.Millisecond) // let the first half be read on its own
	_, err = inW.Write([]byte(";5u"))
	require.NoError(t, err)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(waitFor):
		t.Fatal("detach key did not end the attachment")
	}
	st, _ := s.State()
	require.Equal(t, StateRunning, st, "detaching leaves the session running")
	require.NotContains(t, s.Screen(), "113;5u", "the detach key is not forwarded")
}

func TestDetachScanner(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		idx     int
		partial int
	}{
		{"abc", -1, 0},
		{"ab\x11cd", 2, 0},
		{"ab\x1b[113", -1, 5},
		{"ab\x1b[27;5;1", -1, 8},
		{"x\x1b[113;5uy", 1, 0},
		{"\x1b", -1, 1},
	}
	for _, tc := range cases {
		i, _ := findDetach([]byte(tc.in), DefaultDetachKeys)
		require.Equal(t, tc.idx, i, "%q", tc.in)
		if i < 0 {
			require.Equal(t, tc.partial, partialDetachSuffix([]byte(tc.in), DefaultDetachKeys), "%q", tc.in)
		}
	}
}

// A zoomed program writes to the real terminal directly; whatever modes it
// left on are put back when the zoom ends, and the alternate screen is
// erased before it is left (tmux copies rows of a resized alternate screen
// onto the main screen).
func TestZoomEndLeavesTheTerminalAsFound(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "zoom-modes", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)

	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	defer inR.Close()
	defer inW.Close()
	out := &syncBuf{}
	a := s.Attach()
	a.SetStdin(inR)
	a.SetStdout(out)
	done := make(chan error, 1)
	go func() { done <- a.Run() }()

	// vim's keys, htop's mouse, a shell's bracketed paste, claude's kitty
	// flags and hidden cursor, and a scroll region.
	_, err = inW.Write([]byte(`printf '\033[?1h\033=\033[?1000h\033[?1006h\033[?2004h\033[>1u\033[>4;2m\033[?25l\033[2 q\033[4h\033[?7l'; echo modes-$((2+3))` + "\r"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "modes-5") }, waitFor, tick)
	_, err = inW.Write([]byte{0x11})
	require.NoError(t, err)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(waitFor):
		t.Fatal("detach key did not end the attachment")
	}
	var modes termmodes.Tracker
	_, _ = modes.Write([]byte(out.String()))
	require.Empty(t, modes.Set(), "modes left on after the zoom")
	require.True(t, strings.HasSuffix(out.String(), "\x1b[2J\x1b[?1049l"), "%q", out.String()[max(len(out.String())-80, 0):])
}
