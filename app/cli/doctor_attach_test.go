package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDoctorChecksAttachListenersAsListeners: a running core records its
// attach listeners (the unix socket, the SSH port) beside its MCP ports.
// They are not MCP endpoints: doctor checks that they accept connections
// and never reports a healthy core's socket as a failed MCP endpoint.
func TestDoctorChecksAttachListenersAsListeners(t *testing.T) {
	t.Parallel()
	p := doctorHome(t)
	require.NoError(t, os.MkdirAll(p.Data, 0o700))
	sockDir, err := os.MkdirTemp("", "bbattach") // a unix socket path must stay short
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(sockDir) })
	sock := filepath.Join(sockDir, "alice.sock")
	unixLn, err := net.Listen("unix", sock)
	require.NoError(t, err)
	defer unixLn.Close()
	sshLn, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer sshLn.Close()
	for _, ln := range []net.Listener{unixLn, sshLn} {
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				_ = c.Close()
			}
		}()
	}

	lf, err := os.OpenFile(filepath.Join(p.Data, "alice.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	require.NoError(t, err)
	defer lf.Close()
	require.NoError(t, syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	gone := filepath.Join(sockDir, "gone.sock")
	owner := fmt.Sprintf(`{"pid":4242,"command":"alice serve","started":"2026-11-23T10:00:00Z","listeners":[`+
		`{"name":"attach","url":"unix://%s"},{"name":"ssh","url":"ssh://%s"},{"name":"attach2","url":"unix://%s"}]}`,
		sock, sshLn.Addr(), gone)
	require.NoError(t, os.WriteFile(filepath.Join(p.Data, "alice.lock.json"), []byte(owner), 0o600))

	results := byName(doctorChecks(context.Background(), p, healthyDeps()))
	for name := range results {
		assert.NotContains(t, []string{"mcp attach", "mcp ssh", "mcp attach2"}, name, "an attach listener is not an MCP endpoint")
	}
	assert.Equal(t, checkOK, results["attach"].State, results["attach"].Detail)
	assert.Contains(t, results["attach"].Detail, "accepts connections")
	assert.Equal(t, checkOK, results["ssh"].State, results["ssh"].Detail)
	assert.Contains(t, results["ssh"].Detail, sshLn.Addr().String())
	assert.Equal(t, checkFail, results["attach2"].State, "a listener that is gone is reported")
	assert.Contains(t, results["attach2"].Detail, gone)
}
