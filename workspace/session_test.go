package workspace

import (
	"context"
	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShellSessionOnRealPty(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "shell", "shell-only")
	s, err := m.StartSession(w.ID, "")
	require.NoError(t, err)
	require.Equal(t, AgentShell, s.Agent())
	require.Equal(t, "sh1", s.Name())
	waitState(t, s, StateRunning)

	// Key path: the arithmetic only turns into 3 if the shell ran it.
	typeText(s, "echo hi-$((1+2))")
	s.SendKey(KeyPress{Code: uv.KeyEnter})
	waitScreen(t, s, "hi-3")

	// Raw byte path, and the workspace environment.
	_, err = s.Write([]byte("echo \"ws=$ALICE_WS_ID term=$TERM dir=$(pwd)\"\n"))
	require.NoError(t, err)
	waitScreen(t, s, "ws="+w.ID+" term=xterm-256color")
	require.Eventually(t, func() bool {
		return strings.Contains(strings.ReplaceAll(s.Screen(), "\n", ""), "dir="+w.Dir)
	}, waitFor, tick)

	// Esc is forwarded: cat -v shows it as ^[.
	_, err = s.Write([]byte("cat -v\n"))
	require.NoError(t, err)
	s.SendKey(KeyPress{Code: uv.KeyEscape})
	typeText(s, "zz")
	s.SendKey(KeyPress{Code: uv.KeyEnter})
	waitScreen(t, s, "^[zz")
	s.SendKey(KeyPress{Code: 'c', Mod: uv.ModCtrl})
	// ^C flushes pending tty input, so wait for the prompt before typing on.
	require.Eventually(t, func() bool {
		lines := strings.Split(strings.TrimRight(s.Screen(), " \n"), "\n")
		return strings.TrimSpace(lines[len(lines)-1]) == "$"
	}, waitFor, tick)

	// Resize reaches both the pty and the emulator.
	s.Resize(100, 30)
	cols, rows := s.Terminal().Size()
	require.Equal(t, []int{100, 30}, []int{cols, rows})
	_, err = s.Write([]byte("stty size\n"))
	require.NoError(t, err)
	waitScreen(t, s, "30 100")
	x, y, visible := s.Cursor()
	require.True(t, visible)
	require.GreaterOrEqual(t, x, 0)
	require.Greater(t, y, 0)
	require.NotEmpty(t, s.Render())
	require.Contains(t, string(s.Replay()), "hi-3")

	// A background job must not survive Stop.
	_, err = s.Write([]byte("sleep 300 & echo bg=$!\n"))
	require.NoError(t, err)
	var bg int
	require.Eventually(t, func() bool {
		mm := regexp.MustCompile(`bg=(\d+)`).FindStringSubmatch(s.Screen())
		if mm == nil {
			return false
		}
		bg, _ = strconv.Atoi(mm[1])
		return true
	}, waitFor, tick)
	pid := s.PID()
	require.NotZero(t, pid)
	shell, job := proctreetest.Track(t, pid), proctreetest.Track(t, bg) // immune to pid reuse
	require.True(t, job())

	s.Stop()
	st, _ := s.State()
	require.Equal(t, StateStopped, st)
	require.Eventually(t, func() bool { return !shell() && !job() }, waitFor, tick, "processes leaked")
	_, err = s.Write([]byte("x"))
	require.ErrorIs(t, err, ErrSessionNotRunning)

	// Restart brings it back with the same screen.
	require.NoError(t, s.Restart())
	waitState(t, s, StateRunning)
	_, err = s.Write([]byte("echo again-$((2+2))\n"))
	require.NoError(t, err)
	waitScreen(t, s, "again-4")
}

func TestCrashRespawnAndCircuitBreaker(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	counter := filepath.Join(dir, "runs")
	m := newTestManager(t, filepath.Join(dir, "ws"), func(o *Options) {
		o.ShellCommand = []string{"/bin/sh", "-c", "echo run >> " + counter + "; echo boom; exit 3"}
	})
	w := createWS(t, m, "crashy", "shell-only")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := m.Subscribe(ctx)
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateFailed)
	_, reason := s.State()
	require.Contains(t, reason, "circuit open")
	require.Contains(t, reason, "status 3")
	runs, err := os.ReadFile(counter)
	require.NoError(t, err)
	require.Equal(t, maxCrashes+1, strings.Count(string(runs), "run"), "respawned until the circuit opened")
	waitScreen(t, s, "not restarting")

	sawRestarting := false
	for done := false; !done; {
		select {
		case ev := <-events:
			if ev.Kind == EventSessionState && ev.State == StateRestarting {
				sawRestarting = true
			}
			done = ev.State == StateFailed
		case <-ctx.Done():
			done = true
		}
	}
	require.True(t, sawRestarting)

	// Restart closes the circuit and tries again.
	require.NoError(t, s.Restart())
	waitState(t, s, StateFailed)
	runs, _ = os.ReadFile(counter)
	require.Equal(t, 2*(maxCrashes+1), strings.Count(string(runs), "run"))
}

func TestCleanExitIsNotACrash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	counter := filepath.Join(dir, "runs")
	m := newTestManager(t, filepath.Join(dir, "ws"), func(o *Options) {
		o.ShellCommand = []string{"/bin/sh", "-c", "echo run >> " + counter}
	})
	w := createWS(t, m, "once", "shell-only")
	s, err := m.StartSession(w.ID, AgentShell)
	require.NoError(t, err)
	waitState(t, s, StateExited)
	runs, err := os.ReadFile(counter)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(runs), "run"))
}

func TestMissingAgentCLI(t *testing.T) {
	t.Parallel()
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.ClaudeCommand = []string{"alice-test-no-such-claude"}
	})
	w := createWS(t, m, "chat", "chat")
	_, err := m.StartSession(w.ID, AgentClaude)
	require.ErrorIs(t, err, ErrAgentNotInstalled)
	require.ErrorContains(t, err, "npm i -g @anthropic-ai/claude-code")
	_, err = m.StartSession(w.ID, "vim")
	require.ErrorContains(t, err, "unknown agent")
	_, err = m.StartSession("nope", AgentShell)
	require.ErrorIs(t, err, ErrWorkspaceNotFound)
}

func TestAgentCommandLines(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		o.ClaudeCommand = []string{"true"}
		o.CodexCommand = []string{"true", "--flag"}
	})
	w := Workspace{ID: "ws-1", Dir: "/tmp/x.y/ws"}
	hint := &ResumeHint{Kind: "agent-session-id", Value: "abc"}
	transcript := filepath.Join(os.Getenv("CLAUDE_CONFIG_DIR"), "projects", "-tmp-x-y-ws", "abc.jsonl")
	cases := []struct {
		name   string
		agent  Agent
		hint   *ResumeHint
		resume bool
		setup  func()
		want   []string
	}{
		{"claude fresh", AgentClaude, hint, false, nil, []string{"--session-id", "abc"}},
		{"claude no transcript yet", AgentClaude, hint, true, nil, []string{"--session-id", "abc"}},
		{"claude resume", AgentClaude, hint, true, func() {
			require.NoError(t, os.MkdirAll(filepath.Dir(transcript), 0o700))
			require.NoError(t, os.WriteFile(transcript, []byte("{}"), 0o600))
		}, []string{"--resume", "abc"}},
		{"codex fresh", AgentCodex, &ResumeHint{Kind: "last"}, false, nil, []string{"--flag",
			"-c", `mcp_servers.alice.url="http://127.0.0.1:4567/mcp"`,
			"-c", `mcp_servers.alice-workspace.url="http://127.0.0.1:4567/mcp/ws-1"`}},
		{"codex resume", AgentCodex, &ResumeHint{Kind: "last"}, true, nil, []string{"--flag",
			"-c", `mcp_servers.alice.url="http://127.0.0.1:4567/mcp"`,
			"-c", `mcp_servers.alice-workspace.url="http://127.0.0.1:4567/mcp/ws-1"`, "resume", "--last"}},
		{"shell", AgentShell, nil, true, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup()
			}
			l, err := m.commandFor(tc.agent, w, tc.hint, tc.resume)
			require.NoError(t, err)
			require.Equal(t, tc.want, l.args)
		})
	}
}

func TestSessionEnvIsClean(t *testing.T) {
	t.Setenv("TERM_PROGRAM", "vscode")
	t.Setenv("VSCODE_PID", "1")
	t.Setenv("CLAUDE_CODE_ENTRYPOINT", "cli")
	t.Setenv("TERM", "dumb")
	t.Setenv("ALICE_KEEP_ME", "x")
	t.Setenv("HOME_TEST_VAR", "kept")
	m := newTestManager(t, t.TempDir(), nil)
	env := m.sessionEnv(Workspace{ID: "w1", Tag: "t", Dir: "/d"})
	joined := "\n" + strings.Join(env, "\n") + "\n"
	for _, gone := range []string{"TERM_PROGRAM=vscode", "VSCODE_PID=", "CLAUDE_CODE_ENTRYPOINT=", "TERM=dumb", "ALICE_KEEP_ME"} {
		require.NotContains(t, joined, "\n"+gone)
	}
	for _, want := range []string{"TERM=xterm-256color", "COLORTERM=truecolor", "ALICE_WS_ID=w1", "ALICE_MCP_URL=http://127.0.0.1:4567/mcp", "PWD=/d", "HOME_TEST_VAR=kept"} {
		require.Contains(t, joined, "\n"+want+"\n")
	}
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	m := newTestManager(t, t.TempDir(), nil)
	w := createWS(t, m, "leak", "shell-only")
	for range 2 {
		s, err := m.StartSession(w.ID, AgentShell)
		require.NoError(t, err)
		waitState(t, s, StateRunning)
		_, err = s.Write([]byte("echo up\n"))
		require.NoError(t, err)
		waitScreen(t, s, "up")
	}
	require.NoError(t, m.Close())
	// +1: testify runs the condition in a goroutine of its own.
	if !assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+1 }, waitFor, tick) {
		buf := make([]byte, 1<<20)
		t.Fatalf("goroutines: before %d, now %d\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
	}
}

// TestSessionTerminalIsUTF8: the session's terminal has IUTF8, as a tmux
// pane has, so the line discipline's Backspace erases a whole character:
// `aé日`, two Backspaces and `x` reach a line reader as "ax" (without
// IUTF8 it got "a\303\251\346x").
func TestSessionTerminalIsUTF8(t *testing.T) {
	t.Parallel()
	s := runningShell(t, "utf8", 0, 0)
	_, err := s.Write([]byte("stty -a | tr ' ' '\\n' | grep -x -e iutf8 -e -iutf8 | sed 's/^/FLAG:/'\n"))
	require.NoError(t, err)
	waitScreen(t, s, "FLAG:iutf8")
	require.NotContains(t, s.Screen(), "FLAG:-iutf8")
	_, err = s.Write([]byte("head -1 | od -An -c | tr -s ' ' | sed 's/^/GOT:/'\n"))
	require.NoError(t, err)
	// Canonical input is edited as it arrives, so the line is head's
	// whenever head starts reading. Two Backspaces (DEL, the erase
	// character) after a, é and 日.
	_, err = s.Write([]byte("aé日\x7f\x7fx\n"))
	require.NoError(t, err)
	waitScreen(t, s, "GOT: a x \\n")
}
