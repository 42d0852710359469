package workspace

import (
	"os"
	"strings"
	"testing"
	"time"

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
