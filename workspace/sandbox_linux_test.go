package workspace

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aliceDirs is a temporary alice layout: config with accounts.json, data
// with operator.key and the workspaces root.
type aliceDirs struct {
	config, data, root, accounts, key string
}

const accountsBody = `[{"id":"sim","presetId":"simulator","autoApprove":false}]`

func newAliceDirs(t *testing.T) aliceDirs {
	t.Helper()
	base := t.TempDir()
	d := aliceDirs{config: filepath.Join(base, "config"), data: filepath.Join(base, "data")}
	d.root = filepath.Join(d.data, "workspaces")
	d.accounts = filepath.Join(d.config, "accounts.json")
	d.key = filepath.Join(d.data, "operator.key")
	require.NoError(t, os.MkdirAll(d.config, 0o700))
	require.NoError(t, os.MkdirAll(d.data, 0o700))
	require.NoError(t, os.WriteFile(d.accounts, []byte(accountsBody), 0o600))
	require.NoError(t, os.WriteFile(d.key, []byte("secret-operator-key"), 0o600))
	return d
}

// sandboxedManager hides d's config and data dirs from sessions, whose
// environment gets env too; it skips with the probe's reason when this
// kernel refuses the sandbox.
func sandboxedManager(t *testing.T, d aliceDirs, mode string, probe func() error, env ...string) *Manager {
	t.Helper()
	m := newTestManager(t, d.root, func(o *Options) {
		o.Sandbox = SandboxOptions{Hide: []string{d.config, d.data}, Mode: mode, Probe: probe}
		o.ExtraEnv = append(o.ExtraEnv, env...)
	})
	if st := m.Sandbox(); !st.On && probe == nil {
		t.Skipf("no sandbox here: %s", st.Reason)
	}
	return m
}

// probeScript checks, from inside a session or run, what it can reach;
// it prints one line per finding.
func probeScript(d aliceDirs) string {
	return `cat ` + d.accounts + ` >/dev/null 2>&1 && echo LEAK-read-accounts; ` +
		`echo '[{"autoApprove":true}]' 2>/dev/null > ` + d.accounts + ` && echo LEAK-wrote-accounts; ` +
		`cat ` + d.key + ` >/dev/null 2>&1 && echo LEAK-read-key; ` +
		`ls /proc | grep -qx ` + strconv.Itoa(os.Getpid()) + ` && echo LEAK-host-pid; ` +
		`echo inside > made-inside.txt && echo CHECK-wrote-workspace; ` +
		`echo CHECK-done`
}

func requireHidden(t *testing.T, d aliceDirs, ws Workspace, out string) {
	t.Helper()
	require.Contains(t, out, "CHECK-done", out)
	assert.NotContains(t, out, "LEAK", out)
	assert.Contains(t, out, "CHECK-wrote-workspace", out)
	b, err := os.ReadFile(d.accounts)
	require.NoError(t, err)
	assert.Equal(t, accountsBody, string(b), "accounts.json on the host is unchanged")
	b, err = os.ReadFile(filepath.Join(ws.Dir, "made-inside.txt"))
	require.NoError(t, err, "a file written in the workspace appears on the host")
	assert.Equal(t, "inside\n", string(b))
}

// TestSandboxedSessionHidesAliceDirs: a shell session on a real pty cannot
// read or write accounts.json, read operator.key or see the core's pid; it
// writes its own workspace; a daemon it detaches with a clean environment
// is gone once the session is stopped, which is prompt.
func TestSandboxedSessionHidesAliceDirs(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	m := sandboxedManager(t, d, config.SandboxAuto, nil)
	w := createWS(t, m, "sbx", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	mark := proctreetest.SleepMark()
	out := filepath.Join(w.Dir, "probe.out")
	_, err = s.Write([]byte("(" + probeScript(d) + ") > " + out + " 2>&1; env -i setsid sleep " + mark + " </dev/null >/dev/null 2>&1 &\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(out); return strings.Contains(string(b), "CHECK-done") }, waitFor, tick)
	b, _ := os.ReadFile(out)
	requireHidden(t, d, w, string(b))
	require.Eventually(t, func() bool { return len(proctreetest.Sleepers(mark)) == 1 }, waitFor, tick, "the daemon runs")

	// A resize reaches the program (SIGWINCH goes to the terminal's
	// foreground group, the program's, not the init's).
	s.Resize(101, 31)
	size := filepath.Join(w.Dir, "size.txt")
	_, err = s.Write([]byte("stty size > " + size + "\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(size); return strings.TrimSpace(string(b)) == "31 101" }, waitFor, tick)

	start := time.Now()
	s.Stop()
	took := time.Since(start)
	t.Logf("Stop took %s (the kill grace is %s)", took, killGrace)
	st, _ := s.State()
	assert.Equal(t, StateStopped, st)
	assert.Eventually(t, func() bool { return len(proctreetest.Sleepers(mark)) == 0 }, 5*time.Second, tick, "the detached daemon outlived the session")
}

// TestSandboxedSessionExitCode: the program's exit status comes through
// the sandbox init.
func TestSandboxedSessionExitCode(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	m := sandboxedManager(t, d, config.SandboxOn, nil)
	w := createWS(t, m, "sbx-exit", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	_, err = s.Write([]byte("exit 3\n"))
	require.NoError(t, err)
	require.Eventually(t, func() bool { _, r := s.State(); return strings.Contains(r, "status 3") }, waitFor, tick)
	s.Stop()
}

// TestSandboxedHeadlessRunHidesAliceDirs: a one-shot run is sandboxed the
// same way, and its exit status comes back.
func TestSandboxedHeadlessRunHidesAliceDirs(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	m := sandboxedManager(t, d, config.SandboxAuto, nil)
	w := createWS(t, m, "sbx-run", "shell-only")
	res, err := m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Prompt: probeScript(d), Timeout: time.Minute})
	require.NoError(t, err)
	requireHidden(t, d, w, res.Output)

	res, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Prompt: "exit 3", Timeout: time.Minute})
	require.ErrorIs(t, err, ErrHeadlessFailed)
	assert.Equal(t, 3, res.ExitCode)

	// The time limit still kills the whole run.
	start := time.Now()
	res, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Prompt: "sleep 30", Timeout: time.Second})
	require.ErrorContains(t, err, "did not finish within 1s")
	assert.True(t, res.TimedOut)
	assert.Less(t, time.Since(start), 5*time.Second)

	mark := proctreetest.SleepMark()
	_, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell,
		Prompt: "env -i setsid sleep " + mark + " </dev/null >/dev/null 2>&1 & sleep 0.2", Timeout: time.Minute})
	require.NoError(t, err)
	assert.Eventually(t, func() bool { return len(proctreetest.Sleepers(mark)) == 0 }, 5*time.Second, tick, "the run's daemon outlived it")
}

// TestSandboxOnRefusesWithoutSandbox: with "on", a kernel that refuses the
// sandbox stops sessions and runs from starting, with the probe's reason;
// with "auto" they run unsandboxed and the session says so.
func TestSandboxOnRefusesWithoutSandbox(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	refuse := func() error { return errors.New("user namespaces are disabled") }
	m := sandboxedManager(t, d, config.SandboxOn, refuse)
	assert.False(t, m.Sandbox().On)
	w := createWS(t, m, "sbx-on", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateFailed)
	_, reason := s.State()
	assert.Contains(t, reason, "user namespaces are disabled")
	assert.Contains(t, reason, "sandbox: on")
	_, err = m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Prompt: "true", Timeout: time.Minute})
	assert.ErrorContains(t, err, "user namespaces are disabled")

	d2 := newAliceDirs(t)
	m2 := sandboxedManager(t, d2, config.SandboxAuto, refuse)
	w2 := createWS(t, m2, "sbx-auto", "shell-only")
	s2, err := m2.StartSession(w2.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s2, StateRunning)
	waitScreen(t, s2, "unsandboxed: user namespaces are disabled")
	_, err = s2.Write([]byte("cat " + d2.accounts + "\n"))
	require.NoError(t, err)
	waitScreen(t, s2, `"autoApprove":false`)
	s2.Stop()
}

// TestSandboxedSessionCtrlC: a ^C typed into a sandboxed session reaches
// the foreground program once (the init, in a group of its own, does not
// pass a second one on) and the shell lives on.
func TestSandboxedSessionCtrlC(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	m := sandboxedManager(t, d, config.SandboxAuto, nil)
	w := createWS(t, m, "sbx-int", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateRunning)
	ints := filepath.Join(w.Dir, "ints.txt")
	// The loop waits (up to 30 s) for the ^C, however slow the machine:
	// it ends once the trap ran, and a second SIGINT would run it again.
	_, err = s.Write([]byte("sh -c 'trap \"echo got >> " + ints + "\" INT; echo AR\"\"MED; i=0; while [ $i -lt 600 ] && [ ! -s " + ints + " ]; do sleep 0.05; i=$((i+1)); done; sleep 0.2'\n"))
	require.NoError(t, err)
	waitScreen(t, s, "ARMED") // the output, not the typed line (which has AR""MED)
	_, err = s.Write([]byte{3})
	require.NoError(t, err)
	require.Eventually(t, func() bool { b, _ := os.ReadFile(ints); return len(b) > 0 }, waitFor, tick)
	time.Sleep(300 * time.Millisecond)
	b, _ := os.ReadFile(ints)
	assert.Equal(t, "got\n", string(b), "one SIGINT")
	_, err = s.Write([]byte("echo still-$((40+2))\n"))
	require.NoError(t, err)
	waitScreen(t, s, "still-42")
	st, _ := s.State()
	assert.Equal(t, StateRunning, st)
	s.Stop()
}

// TestSandboxedRunCannotReachUserSockets: the user's tmux servers and
// runtime directory (systemd's and the bus's sockets) are out of reach of
// a sandboxed run, which gets empty directories of its own there; the ssh
// agent's socket stays (black-box: a session had the user's tmux run
// `cat …/operator.key` outside the sandbox).
func TestSandboxedRunCannotReachUserSockets(t *testing.T) {
	t.Parallel()
	d := newAliceDirs(t)
	base, err := os.MkdirTemp("", "sbu") // short: unix socket paths are ≤ 107 bytes
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	tmuxDir := filepath.Join(base, "tmux-"+strconv.Itoa(os.Getuid()))
	runtimeDir := filepath.Join(base, "run")
	require.NoError(t, os.MkdirAll(tmuxDir, 0o700))
	require.NoError(t, os.MkdirAll(filepath.Join(runtimeDir, "keyring"), 0o700))
	for _, p := range []string{filepath.Join(tmuxDir, "default"), filepath.Join(runtimeDir, "bus"), filepath.Join(runtimeDir, "keyring", "ssh")} {
		l, err := net.Listen("unix", p)
		require.NoError(t, err)
		t.Cleanup(func() { _ = l.Close() })
	}
	m := sandboxedManager(t, d, config.SandboxAuto, nil, "TMUX_TMPDIR="+base, "XDG_RUNTIME_DIR="+runtimeDir,
		"SSH_AUTH_SOCK="+filepath.Join(runtimeDir, "keyring", "ssh"))
	w := createWS(t, m, "sbx-sock", "shell-only")
	res, err := m.RunHeadless(context.Background(), HeadlessRun{WorkspaceID: w.ID, Agent: AgentShell, Timeout: time.Minute,
		Prompt: `test -e ` + tmuxDir + `/default && echo LEAK-tmux; test -e ` + runtimeDir + `/bus && echo LEAK-bus; ` +
			`test -S "$SSH_AUTH_SOCK" && echo KEPT-agent; touch ` + tmuxDir + `/own && echo OWN-tmux; echo DONE`})
	require.NoError(t, err, res.Output)
	assert.Contains(t, res.Output, "DONE")
	assert.NotContains(t, res.Output, "LEAK")
	assert.Contains(t, res.Output, "KEPT-agent")
	assert.Contains(t, res.Output, "OWN-tmux", "a tmux of the session's own can make its socket")
	_, err = os.Stat(filepath.Join(tmuxDir, "own"))
	assert.True(t, os.IsNotExist(err), "the session's own socket directory is its own")
}
