package proctree

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/require"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
)

// procOf names a live pid with its start time.
func procOf(t *testing.T, pid int) Proc {
	t.Helper()
	st, ok := readStat(pid)
	require.True(t, ok, "pid %d is gone", pid)
	return Proc{PID: pid, Start: st.start}
}

func pids(procs []Proc) []int {
	out := make([]int, len(procs))
	for i, p := range procs {
		out[i] = p.PID
	}
	return out
}

func TestParseStat(t *testing.T) {
	line := "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 95 0 0 0 0 0 0 0 20 0 1 0 987654 2539520 239 rest"
	st, ok := parseStat(4242, []byte(line))
	require.True(t, ok)
	require.Equal(t, stat{pid: 4242, ppid: 1, session: 4242, start: 987654}, st)
	st, ok = parseStat(7, []byte("7 (zz) Z 3 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0"))
	require.True(t, ok)
	require.True(t, st.zombie)
	_, ok = parseStat(1, []byte("1 (short) S 0"))
	require.False(t, ok)
}

// TestTagFindsADaemon: a process that left the session (setsid) and whose
// parent exited (a double fork) is found by the tag it inherited, and End
// ends it.
func TestTagFindsADaemon(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	tag := NewTag()
	cmd := exec.Command("/bin/sh", "-c", `setsid sh -c 'sleep 300 & echo $! > "$1"' _ "$0" &`, pidFile)
	cmd.Env = append(os.Environ(), TagEntry(tag))
	require.NoError(t, cmd.Run())
	pid := proctreetest.ReadPIDFile(t, pidFile)
	daemon := procOf(t, pid)

	found := Query{Tag: tag}.Find()
	require.Equal(t, []int{pid}, pids(found), "the tag finds the daemon and only it")
	require.Empty(t, Query{Tag: NewTag()}.Find(), "another tag finds nothing")

	require.Equal(t, 1, End(Query{Tag: tag}.Find, 2*time.Second))
	require.Eventually(t, func() bool { return !Alive(daemon) }, waitFor, tick, "the daemon (pid %d) survived End", pid)
}

// TestBelowFindsADetachedChild: a child that left the session and dropped
// its environment is still found below its parent while the parent lives,
// and a recorded Proc is found after the parent is gone.
func TestBelowFindsADetachedChild(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	cmd := exec.Command("/bin/sh", "-c", `setsid env -i sleep 300 & echo $! > "$0"; read x; exit 0`, pidFile)
	cmd.Env = append(os.Environ(), TagEntry(NewTag()))
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	pid := proctreetest.ReadPIDFile(t, pidFile)
	child := procOf(t, pid)

	below := Query{Below: cmd.Process.Pid}.Find()
	require.True(t, slices.Contains(pids(below), pid), "below the shell: %v", below)
	require.NotContains(t, pids(Query{Session: cmd.Process.Pid}.Find()), pid)

	_ = stdin.Close() // the shell exits; the child is reparented
	require.NoError(t, cmd.Wait())
	require.Equal(t, []int{pid}, pids(Query{Known: below}.Find()), "the recorded Proc is still found")
	End(Query{Known: below}.Find, 2*time.Second)
	require.Eventually(t, func() bool { return !Alive(child) }, waitFor, tick)
	require.Empty(t, Query{Known: []Proc{{PID: pid, Start: child.Start + 1}}}.Find(), "another start time is another process")
}

// TestEndKillsWhatIgnoresTerm: SIGKILL follows the grace.
func TestEndKillsWhatIgnoresTerm(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "stubborn.pid")
	tag := NewTag()
	cmd := exec.Command("/bin/sh", "-c", `trap '' TERM; echo $$ > "$0"; while :; do sleep 1; done`, pidFile)
	cmd.Env = append(os.Environ(), TagEntry(tag))
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	proctreetest.ReadPIDFile(t, pidFile)
	start := time.Now()
	End(Query{Tag: tag}.Find, 300*time.Millisecond)
	select {
	case <-done:
	case <-time.After(waitFor):
		t.Fatal("the shell that ignores SIGTERM survived End")
	}
	require.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond, "it waited the grace before SIGKILL")
	require.Equal(t, syscall.SIGKILL, cmd.ProcessState.Sys().(syscall.WaitStatus).Signal())
}
