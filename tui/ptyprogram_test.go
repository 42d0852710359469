package tui_test

import (
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// runOnPty runs a Program of m whose terminal is a real pty: master is
// the side a person types into (what the Program writes there is drained,
// so it never blocks on its start-up questions), tty the Program's own.
// The Program is quit and waited for when the test ends.
func runOnPty(t *testing.T, m tea.Model) (master, tty *os.File, p *tea.Program) {
	t.Helper()
	master, tty, err := pty.Open()
	require.NoError(t, err)
	t.Cleanup(func() { _ = master.Close(); _ = tty.Close() })
	out, err := os.CreateTemp(t.TempDir(), "out")
	require.NoError(t, err)
	t.Cleanup(func() { _ = out.Close() })

	p = tea.NewProgram(m, tea.WithInput(tty), tea.WithOutput(out), tea.WithoutSignalHandler())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	t.Cleanup(func() {
		p.Quit()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("the program did not end")
		}
	})
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := master.Read(buf); err != nil {
				return
			}
		}
	}()
	return master, tty, p
}

// waitRaw waits until the Program has put its terminal in raw mode: bytes
// typed before that meet the line discipline (held until a newline, ctrl+q
// and ctrl+s taken as flow control).
func waitRaw(t *testing.T, tty *os.File) {
	t.Helper()
	require.Eventually(t, func() bool {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		return err == nil && tio.Lflag&unix.ICANON == 0 && tio.Iflag&unix.IXON == 0
	}, 30*time.Second, time.Millisecond, "the program never put its terminal in raw mode")
}
