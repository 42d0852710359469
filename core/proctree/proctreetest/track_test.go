package proctreetest

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTrack: the check reads running until the process ends, and ended
// once it has, before it is reaped (a zombie) and after.
func TestTrack(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	running := Track(t, cmd.Process.Pid)
	require.True(t, running())
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	require.Eventually(t, func() bool { return !running() }, 10*time.Second, time.Millisecond, "a zombie is not running")
	_ = cmd.Wait()
	require.False(t, running(), "reaped")
}
