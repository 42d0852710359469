package tui_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

// keyLog is a model that reports every key it is given.
type keyLog struct{ keys chan string }

func (k keyLog) Init() tea.Cmd { return nil }
func (k keyLog) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		k.keys <- kp.String()
	}
	return k, nil
}
func (k keyLog) View() tea.View { return tea.NewView("") }

// TestInputReaderHandsTheTerminalBackWithoutTakingAByte drives a Program
// whose input is a real pty (the patched Bubble Tea reads a terminal
// through the runtime poller, third_party/bubbletea/pollreader_linux.go):
// keys typed reach the model; once the terminal is released (what the
// full-screen hand-over does before a program takes the terminal) a byte
// typed is left for that program, not swallowed by a read still pending;
// after the terminal is restored, keys reach the model again.
func TestInputReaderHandsTheTerminalBackWithoutTakingAByte(t *testing.T) {
	keys := make(chan string, 16)
	master, tty, p := runOnPty(t, keyLog{keys})

	want := func(k string) {
		t.Helper()
		select {
		case got := <-keys:
			require.Equal(t, k, got)
		case <-time.After(30 * time.Second):
			t.Fatalf("key %q never reached the model", k)
		}
	}
	_, err := master.Write([]byte("a"))
	require.NoError(t, err)
	want("a")

	require.NoError(t, p.ReleaseTerminal())
	_, err = master.Write([]byte("z\n"))
	require.NoError(t, err)
	// The line is still there for whoever reads the terminal next (a
	// released terminal is back in line mode).
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 8)
		n, _ := tty.Read(b)
		got <- string(b[:n])
	}()
	select {
	case s := <-got:
		require.Equal(t, "z\n", s)
	case <-time.After(30 * time.Second):
		t.Fatal("the byte typed while the terminal was released was taken")
	}
	select {
	case k := <-keys:
		t.Fatalf("a released terminal's key reached the model: %q", k)
	default:
	}

	require.NoError(t, p.RestoreTerminal())
	_, err = master.Write([]byte("b"))
	require.NoError(t, err)
	want("b")
}
