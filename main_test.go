package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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

func TestCheckCreatesDefaultsAndReportsBadConfig(t *testing.T) {
	home := t.TempDir()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), errb.String())
	require.FileExists(t, filepath.Join(home, "config", "mcp.json"))
	require.FileExists(t, filepath.Join(home, "data", "logs", "alice.log"))

	bad := filepath.Join(home, "config", "connectors.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"mcpAsk":{"enabled":true,"port":"3003"}}`), 0o600))
	errb.Reset()
	require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
	require.Contains(t, errb.String(), bad)
	require.Contains(t, errb.String(), `"mcpAsk.port"`)
}

// TestServeStopsCleanlyOnSIGTERM runs the real binary headless on free
// ports, waits for its listeners and sends SIGTERM.
func TestServeStopsCleanlyOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "alice")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "mcp.json"), []byte(`{"port":0}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, "config", "connectors.json"), []byte(`{"mcpAsk":{"enabled":false}}`), 0o600))
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
	for ready := false; !ready; {
		select {
		case l := <-lines:
			ready = strings.Contains(l, "serving")
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatal("alice serve did not become ready")
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "exit status 0 after SIGTERM")
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("alice serve did not stop within 10s of SIGTERM")
	}
}
