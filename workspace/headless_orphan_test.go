package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/require"
)

// headlessHelperEnv makes the test binary, re-executed, act as a core that
// runs one headless command and is then killed with SIGKILL.
const headlessHelperEnv = "ALICE_TEST_HEADLESS_HELPER"

// TestHeadlessHelperProcess is not a test on its own: it is the "core"
// process of TestHeadlessRunDiesWithKilledCore.
func TestHeadlessHelperProcess(t *testing.T) {
	dir := os.Getenv(headlessHelperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	m := newTestManager(t, filepath.Join(dir, "root"), nil)
	ws := createWS(t, m, "orphan", "shell-only")
	// The shell starts a child (a sleep that records its own pid: exec
	// keeps it), then would act long after the core died.
	prompt := "sh -c 'echo $$ > " + filepath.Join(dir, "sleep.pid") + "; exec sleep 101'; touch " + filepath.Join(dir, "late.txt")
	_, _ = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: ws.ID, Agent: AgentShell, Prompt: prompt, Timeout: time.Hour})
}

// TestHeadlessRunDiesWithKilledCore: a one-shot run — its shell and every
// process the shell started — must not outlive a core
// killed with SIGKILL (no deferred cleanup runs then). Its task is recorded
// abandoned at the next start, so a shell that kept going would act after
// alice said it had stopped.
func TestHeadlessRunDiesWithKilledCore(t *testing.T) {
	if os.Getenv(headlessHelperEnv) != "" {
		t.Skip("inside the helper")
	}
	t.Parallel()
	dir := t.TempDir()
	core := exec.Command(os.Args[0], "-test.run=^TestHeadlessHelperProcess$", "-test.count=1")
	core.Env = append(os.Environ(), headlessHelperEnv+"="+dir)
	require.NoError(t, core.Start())
	t.Cleanup(func() { _ = core.Process.Kill(); _ = core.Wait() })

	pidFile := filepath.Join(dir, "sleep.pid")
	pid := proctreetest.ReadPIDFile(t, pidFile) // the headless shell started its sleep
	// Whatever happens, nothing of this run survives the test.
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	running := proctreetest.Track(t, pid) // immune to the pid's reuse
	require.True(t, running())

	require.NoError(t, core.Process.Signal(syscall.SIGKILL))
	_ = core.Wait()
	require.Eventually(t, func() bool { return !running() }, 30*time.Second, tick,
		"the headless run's child (sleep, pid %d) outlived the killed core", pid)
	_, err := os.Stat(filepath.Join(dir, "late.txt"))
	require.True(t, os.IsNotExist(err), "the run went on acting after the core died")
}
