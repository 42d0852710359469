package proctree

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/require"
)

// reaperHelperEnv makes the test binary, re-executed, act as a core with a
// Reaper (a subreaper is process-wide: the other tests' process stays an
// ordinary one).
const reaperHelperEnv = "ALICE_TEST_REAPER_HELPER"

// TestReaper runs TestReaperHelperProcess in a process of its own.
func TestReaper(t *testing.T) {
	if os.Getenv(reaperHelperEnv) != "" {
		t.Skip("inside the helper")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestReaperHelperProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), reaperHelperEnv+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "helper:\n%s", out)
	require.Contains(t, string(out), "--- PASS: TestReaperHelperProcess", "helper:\n%s", out)
}

// TestReaperHelperProcess is not a test on its own (see TestReaper). As a
// subreaper it runs os/exec children while orphans exit around them: every
// Wait must get its own child's status (none stolen by the reaper), every
// orphan must be reaped, and Close must end an orphan that kept running
// with no tag and a session of its own.
func TestReaperHelperProcess(t *testing.T) {
	dir := os.Getenv(reaperHelperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	r := StartReaper(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	require.NotNil(t, r.sig, "the reaper is on (pidfds and PR_SET_CHILD_SUBREAPER work here)")
	self := os.Getpid()

	var wg sync.WaitGroup
	errs := make(chan error, 400)
	wg.Go(func() { // os/exec children, their statuses checked
		for i := range 150 {
			code := i % 4
			err := exec.Command("/bin/sh", "-c", "exit $0", strconv.Itoa(code)).Run()
			var ee *exec.ExitError
			switch {
			case code == 0 && err != nil:
				errs <- err
			case code != 0 && (!errors.As(err, &ee) || ee.ExitCode() != code):
				errs <- fmt.Errorf("exit %d reported as %v", code, err)
			}
		}
	})
	wg.Go(func() { // orphans: the shell exits, its job is reparented here
		for range 60 {
			if err := exec.Command("/bin/sh", "-c", "(sleep 0.05 &); exit 0").Run(); err != nil {
				errs <- err
			}
		}
	})
	wg.Go(func() { // os/exec children waited for only after they exited
		for i := range 30 {
			code := 1 + i%3
			cmd := exec.Command("/bin/sh", "-c", "exit $0", strconv.Itoa(code))
			if err := cmd.Start(); err != nil {
				errs <- err
				continue
			}
			// A zombie, and its SIGCHLD long handled, before Wait.
			for st, ok := readStat(cmd.Process.Pid); ok && !st.zombie; st, ok = readStat(cmd.Process.Pid) {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			var ee *exec.ExitError
			if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != code {
				errs <- fmt.Errorf("late wait: exit %d reported as %v", code, err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Eventually(t, func() bool {
		for _, st := range snapshot() {
			if st.ppid == self {
				return false
			}
		}
		return true
	}, waitFor, tick, "orphans were left unreaped (zombies of the subreaper)")

	// A daemon: its own session, no environment, its parent gone.
	pidFile := filepath.Join(dir, "stray.pid")
	require.NoError(t, exec.Command("/bin/sh", "-c", `setsid env -i sleep 300 & echo $! > "$0"`, pidFile).Run())
	pid := proctreetest.ReadPIDFile(t, pidFile)
	stray := procOf(t, pid)
	st, _ := readStat(pid)
	require.Equal(t, self, st.ppid, "the orphan was reparented to the subreaper")

	require.Equal(t, 1, r.Close(2*time.Second))
	require.False(t, Alive(stray), "Close left the stray (pid %d) running", pid)
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	require.True(t, os.IsNotExist(err), "Close left the stray's zombie unreaped")
}
