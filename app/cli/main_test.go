package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
)

func TestVersionAndHelp(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"--version"}, &out, &errb))
	require.Contains(t, out.String(), "alice ")
	out.Reset()
	require.Equal(t, 0, run([]string{"--help"}, &out, &errb))
	require.Contains(t, out.String(), "alice serve")
	require.Equal(t, 2, run([]string{"bogus"}, &out, &errb))
	require.Contains(t, errb.String(), `unknown command "bogus"`)
}

func TestCheckIsReadOnlyAndReportsBadConfig(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), errb.String())
	entries, _ := os.ReadDir(home)
	require.Empty(t, entries, "check writes nothing: missing files are checked as their defaults")

	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	bad := filepath.Join(home, "config", "connectors.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"mcpAsk":{"enabled":true,"port":"3003"}}`), 0o600))
	accts := filepath.Join(home, "config", "accounts.json")
	require.NoError(t, os.WriteFile(accts, []byte(`[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"mode":"demo"}}]`), 0o600))
	errb.Reset()
	require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
	require.Contains(t, errb.String(), bad)
	require.Contains(t, errb.String(), `"mcpAsk.port"`)

	// With the other files fixed, the broker preset check (what serve runs
	// before it starts an account) is reported too.
	require.NoError(t, os.Remove(bad))
	errb.Reset()
	require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
	require.Contains(t, errb.String(), accts)
	require.Contains(t, errb.String(), `"[0].presetConfig.mode"`)
	errb.Reset()
	require.Equal(t, 1, run([]string{"serve", "--home", home}, &out, &errb), "serve refuses what check refuses")
	require.Contains(t, errb.String(), `"[0].presetConfig.mode"`)
}

// TestServeStopsCleanlyOnSIGTERM runs the real binary headless on free
// ports, waits for its listeners, checks that a second instance on the
// same data dir is refused (naming the first) while `alice check` still
// works, and sends SIGTERM.
func TestServeStopsCleanlyOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildAlice(t)

	home := apptest.Home(t, nil) // free MCP port, no Ask connector, no news
	cmd := exec.Command(bin, "serve", "--home", home)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	var printed []string
	for ready := false; !ready; {
		select {
		case l := <-lines:
			printed = append(printed, l)
			ready = strings.Contains(l, "serving")
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatal("alice serve did not become ready")
		}
	}
	// Next to the MCP ports it names the attach socket.
	require.Contains(t, strings.Join(printed, "\n"), "attach listening on unix://"+sockPath(t, home))
	// A second core is refused; `alice` without a terminal says it needs
	// one (with one, it attaches: scripts/attach/attach-e2e.sh).
	tuiNoTTY := exec.Command(bin, "--home", home)
	var terr bytes.Buffer
	tuiNoTTY.Stderr = &terr
	var exit1 *exec.ExitError
	require.ErrorAs(t, tuiNoTTY.Run(), &exit1)
	require.Contains(t, terr.String(), "needs a terminal")
	for _, args := range [][]string{{"serve", "--home", home}} {
		second := exec.Command(bin, args...)
		var serr bytes.Buffer
		second.Stderr = &serr
		err := second.Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v must fail while the first runs", args)
		require.Equal(t, 1, exit.ExitCode())
		require.Contains(t, serr.String(), fmt.Sprintf("pid %d", cmd.Process.Pid), "names the owner")
		require.Contains(t, serr.String(), "MCP http://127.0.0.1:", "names the owner's ports")
	}
	check := exec.Command(bin, "check", "--home", home)
	outb, err := check.CombinedOutput()
	require.NoError(t, err, "check needs no lock: %s", outb)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "exit status 0 after SIGTERM")
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("alice serve did not stop within 30s of SIGTERM")
	}
	// With none running, `alice stop` fails saying so (as tmux kill-server
	// does) and `alice attach` says how to start one.
	for args, want := range map[string]string{"stop": "no core is running", "attach": "start one with `alice` or `alice serve`"} {
		c := exec.Command(bin, args, "--home", home)
		var serr bytes.Buffer
		c.Stderr = &serr
		var exit *exec.ExitError
		require.ErrorAs(t, c.Run(), &exit, args)
		require.Equal(t, 1, exit.ExitCode(), args)
		require.Contains(t, serr.String(), want, args)
	}
}

// buildAlice returns the alice binary, built once per test run.
func buildAlice(t *testing.T) string {
	t.Helper()
	return built(t, &aliceBin, "alice", "github.com/alice-trading/alice")
}

// buildMockLLM returns scripts/mockllm, built once per test run.
func buildMockLLM(t *testing.T) string {
	t.Helper()
	return built(t, &mockLLMBin, "mockllm", "github.com/alice-trading/alice/scripts/mockllm")
}

// binaries are built once into binDir (made by TestMain) and shared by
// every test that runs a real process: linking alice takes seconds.
var (
	binDir               string
	aliceBin, mockLLMBin onceBuild
)

type onceBuild struct {
	once sync.Once
	path string
	err  error
}

func built(t *testing.T, b *onceBuild, name, pkg string) string {
	t.Helper()
	b.once.Do(func() {
		b.path = filepath.Join(binDir, name)
		build := exec.Command("go", "build", "-o", b.path, pkg)
		var stderr bytes.Buffer
		build.Stderr = &stderr
		if err := build.Run(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, stderr.String())
		}
	})
	require.NoError(t, b.err)
	return b.path
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "alice-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// TestNoHomeRefusesAndWritesNothing runs `env -i PATH=… alice check` (and
// serve): no HOME, no XDG dirs, no --home.
func TestNoHomeRefusesAndWritesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildAlice(t)
	_, rootConfigBefore := os.Stat("/.config/alice")
	_, rootLocalBefore := os.Stat("/.local/share/alice")
	work := t.TempDir()
	for _, args := range [][]string{{"check"}, {"serve"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v: %s", args, out)
		require.Equal(t, 1, exit.ExitCode())
		require.Contains(t, string(out), "--home", "says how to fix it")
	}
	entries, _ := os.ReadDir(work)
	require.Empty(t, entries)
	_, rootConfigAfter := os.Stat("/.config/alice")
	_, rootLocalAfter := os.Stat("/.local/share/alice")
	require.Equal(t, rootConfigBefore == nil, rootConfigAfter == nil, "nothing created under /")
	require.Equal(t, rootLocalBefore == nil, rootLocalAfter == nil, "nothing created under /")
}

// sockPath is where the core of home serves its terminal.
func sockPath(t *testing.T, home string) string {
	sock, _ := socketPaths(apptest.Paths(t, home).Data)
	return sock
}
