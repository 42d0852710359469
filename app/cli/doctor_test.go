package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doctorHome is a home whose config is valid and uses free ports.
func doctorHome(t *testing.T) config.Paths {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "config")
	require.NoError(t, os.MkdirAll(cfg, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "mcp.json"), []byte(fmt.Sprintf(`{"port":%d}`, freePort(t))), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "connectors.json"), []byte(fmt.Sprintf(`{"mcpAsk":{"enabled":true,"port":%d}}`, freePort(t))), 0o600))
	p, err := config.ResolvePaths(home)
	require.NoError(t, err)
	return p
}

// freePort is a port nothing listens on, drawn outside the range other
// tests' port-0 listeners and connections take theirs from: doctor's port
// check binds it again, and a port another test took in between would fail
// "port main" or "port ask".
func freePort(t *testing.T) int { return apptest.FreePort(t) }

// healthyDeps finds every program, gets an answer from the provider and
// sees healthy accounts.
func healthyDeps() doctorDeps {
	return doctorDeps{
		getenv:   func(string) string { return "" },
		lookPath: func(name string) (string, error) { return "/usr/bin/" + name, nil },
		version:  func(_ context.Context, path, _ string) (string, error) { return filepath.Base(path) + " 1.0", nil },
		ping: func(context.Context, *config.Store, string) (string, time.Duration, error) {
			return "fake (openai m)", 42 * time.Millisecond, nil
		},
		accounts: func(context.Context, *doctorRun) ([]accountHealth, error) {
			return []accountHealth{{ID: "sim-paper", Preset: "simulator", Enabled: true, Health: "healthy"}}, nil
		},
		timeout:      10 * time.Second,
		sandboxProbe: func() error { return nil },
	}
}

func byName(results []checkResult) map[string]checkResult {
	m := map[string]checkResult{}
	for _, r := range results {
		m[r.Name] = r
	}
	return m
}

func failed(results []checkResult) []string {
	var out []string
	for _, r := range results {
		if r.State == checkFail {
			out = append(out, r.Name)
		}
	}
	return out
}

// TestDoctorBreaksEachItemInTurn starts from a healthy setup and breaks
// one thing per case: exactly that item fails, with its fix.
func TestDoctorBreaksEachItemInTurn(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, p config.Paths, d *doctorDeps)
		fails  []string
		fix    string
	}{
		{"healthy", func(*testing.T, config.Paths, *doctorDeps) {}, nil, ""},
		{"data dir is a file", func(t *testing.T, p config.Paths, _ *doctorDeps) {
			require.NoError(t, os.WriteFile(p.Data, []byte("x"), 0o600))
		}, []string{"data dir"}, "--home"},
		{"lock file cannot be opened", func(t *testing.T, p config.Paths, _ *doctorDeps) {
			require.NoError(t, os.MkdirAll(p.Data, 0o700))
			require.NoError(t, os.Symlink("/nonexistent/dir/lock", filepath.Join(p.Data, "alice.lock")))
		}, []string{"lock"}, "rm "},
		{"config invalid", func(t *testing.T, p config.Paths, _ *doctorDeps) {
			require.NoError(t, os.WriteFile(filepath.Join(p.Config, "mcp.json"), []byte(`{"port":"x"}`), 0o600))
		}, []string{"config"}, "alice config edit mcp"},
		{"main port taken", func(t *testing.T, p config.Paths, _ *doctorDeps) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			t.Cleanup(func() { ln.Close() })
			port := ln.Addr().(*net.TCPAddr).Port
			require.NoError(t, os.WriteFile(filepath.Join(p.Config, "mcp.json"), []byte(fmt.Sprintf(`{"port":%d}`, port)), 0o600))
		}, []string{"port main"}, "alice config edit mcp"},
		{"provider unreachable", func(_ *testing.T, _ config.Paths, d *doctorDeps) {
			d.ping = func(context.Context, *config.Store, string) (string, time.Duration, error) {
				return "", 0, errors.New("dial tcp 127.0.0.1:9: connection refused")
			}
		}, []string{"AI provider"}, "ai-provider.json"},
		{"git missing", func(_ *testing.T, _ config.Paths, d *doctorDeps) {
			d.lookPath = func(name string) (string, error) {
				if name == "git" {
					return "", exec.ErrNotFound
				}
				return "/usr/bin/" + name, nil
			}
		}, []string{"git"}, "install git"},
		{"claude needed by a profile but missing", func(t *testing.T, p config.Paths, d *doctorDeps) {
			require.NoError(t, os.WriteFile(filepath.Join(p.Config, "ai-provider.json"),
				[]byte(`{"activeProfile":"cc","profiles":{"cc":{"backend":"claude-cli"}}}`), 0o600))
			d.lookPath = func(name string) (string, error) {
				if name == "claude" || name == "codex" {
					return "", exec.ErrNotFound
				}
				return "/usr/bin/" + name, nil
			}
		}, []string{"claude"}, "npm install -g @anthropic-ai/claude-code"},
		{"broker account offline", func(_ *testing.T, _ config.Paths, d *doctorDeps) {
			d.accounts = func(context.Context, *doctorRun) ([]accountHealth, error) {
				return []accountHealth{
					{ID: "sim-paper", Preset: "simulator", Enabled: true, Health: "healthy"},
					{ID: "alpaca", Preset: "alpaca", Enabled: true, Health: "offline", Error: "401 unauthorized"},
				}, nil
			}
		}, []string{"account alpaca"}, "accounts.json"},
		{"sandbox required but unavailable", func(t *testing.T, p config.Paths, d *doctorDeps) {
			require.NoError(t, os.WriteFile(filepath.Join(p.Config, "workspaces.json"), []byte(`{"sandbox":"on"}`), 0o600))
			d.sandboxProbe = func() error { return errors.New("sandbox unavailable: operation not permitted") }
		}, []string{"workspace sandbox"}, "user namespaces"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := doctorHome(t)
			deps := healthyDeps()
			tc.break_(t, p, &deps)
			results := doctorChecks(context.Background(), p, deps)
			assert.ElementsMatch(t, tc.fails, failed(results))
			var out bytes.Buffer
			code := printDoctor(&out, p, results)
			if tc.fails == nil {
				assert.Equal(t, 0, code, out.String())
				assert.Contains(t, out.String(), "all good")
				return
			}
			assert.Equal(t, 1, code)
			assert.Contains(t, out.String(), "fix: ")
			assert.Contains(t, out.String(), tc.fix)
			_, err := os.Stat(filepath.Join(p.Config, "tools.json"))
			assert.True(t, os.IsNotExist(err), "doctor writes nothing into the config folder")
		})
	}
}

// TestDoctorSandboxLine: on names what sessions cannot see; auto on a
// kernel that refuses it is not a failure but says why; off says so.
func TestDoctorSandboxLine(t *testing.T) {
	p := doctorHome(t)
	deps := healthyDeps()
	r := byName(doctorChecks(context.Background(), p, deps))["workspace sandbox"]
	assert.Equal(t, checkOK, r.State, r.Detail)
	assert.Contains(t, r.Detail, "sessions cannot see "+p.Config+", "+p.Data)

	deps.sandboxProbe = func() error { return errors.New("sandbox unavailable: operation not permitted") }
	r = byName(doctorChecks(context.Background(), p, deps))["workspace sandbox"]
	assert.Equal(t, checkSkip, r.State)
	assert.Contains(t, r.Detail, "unsandboxed: sandbox unavailable: operation not permitted")

	require.NoError(t, os.WriteFile(filepath.Join(p.Config, "workspaces.json"), []byte(`{"sandbox":"off"}`), 0o600))
	r = byName(doctorChecks(context.Background(), p, deps))["workspace sandbox"]
	assert.Equal(t, checkSkip, r.State)
	assert.Contains(t, r.Detail, "off (workspaces.json sandbox: off)")
}

// TestDoctorTalksToTheRunningAlice: with the data dir locked by a running
// alice whose owner file lists its listeners, the ports count as held by
// it and the MCP endpoints must answer initialize.
func TestDoctorTalksToTheRunningAlice(t *testing.T) {
	p := doctorHome(t)
	tc := core.NewToolCenter(func() []string { return nil })
	tc.Register(core.Tool{Name: "listUTAs", Description: "accounts", InputSchema: core.Schema(`{"type":"object","properties":{}}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return []accountHealth{{ID: "live", Preset: "simulator", Enabled: true, Health: "healthy"}}, nil
		}})
	srv := mcp.NewMain(mcp.MainOptions{Listen: mcp.Listen{Host: "127.0.0.1"}, Tools: tc, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	require.NoError(t, srv.Start(ctx))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Addr())
	require.NoError(t, os.WriteFile(filepath.Join(p.Config, "mcp.json"), []byte(`{"port":`+port+`}`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(p.Config, "connectors.json"), []byte(`{"mcpAsk":{"enabled":false}}`), 0o600))

	require.NoError(t, os.MkdirAll(p.Data, 0o700))
	lf, err := os.OpenFile(filepath.Join(p.Data, "alice.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	require.NoError(t, err)
	defer lf.Close()
	require.NoError(t, syscall.Flock(int(lf.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	owner := fmt.Sprintf(`{"pid":4242,"command":"alice serve","started":"2026-11-23T10:00:00Z","listeners":[{"name":"MCP","url":%q},{"name":"Ask","url":"http://127.0.0.1:1/mcp"}]}`, srv.URL())
	require.NoError(t, os.WriteFile(filepath.Join(p.Data, "alice.lock.json"), []byte(owner), 0o600))

	deps := healthyDeps()
	deps.accounts = accountsHealth // the real one: asks listUTAs over MCP
	results := byName(doctorChecks(context.Background(), p, deps))
	assert.Equal(t, checkOK, results["lock"].State)
	assert.Contains(t, results["lock"].Detail, "pid 4242")
	assert.Equal(t, checkOK, results["port main"].State, results["port main"].Detail)
	assert.Contains(t, results["port main"].Detail, "held by this alice")
	assert.Equal(t, checkOK, results["mcp main"].State, results["mcp main"].Detail)
	assert.Contains(t, results["mcp main"].Detail, "answered initialize")
	assert.Equal(t, checkFail, results["mcp ask"].State, "a dead listener is reported")
	assert.Equal(t, checkOK, results["account live"].State)
	assert.Empty(t, srv.Clients(), "doctor closes its MCP sessions")
}

// TestDoctorRealProbes runs the real provider ping against a fake
// OpenAI-compatible server and the real account probe on the default
// simulator account.
func TestDoctorRealProbes(t *testing.T) {
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"OK"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer fake.Close()
	p := doctorHome(t)
	require.NoError(t, os.WriteFile(filepath.Join(p.Config, "ai-provider.json"),
		[]byte(`{"activeProfile":"local","profiles":{"local":{"backend":"openai","model":"m","baseUrl":"`+fake.URL+`/v1"}}}`), 0o600))
	deps := defaultDoctorDeps()
	deps.lookPath = healthyDeps().lookPath
	deps.version = healthyDeps().version
	results := byName(doctorChecks(context.Background(), p, deps))
	assert.Equal(t, checkOK, results["AI provider"].State, results["AI provider"].Detail)
	assert.Contains(t, results["AI provider"].Detail, "local (openai m) answered in")
	assert.Equal(t, checkOK, results["account sim-paper"].State, results["account sim-paper"].Detail)
	_, err := os.Stat(p.Data)
	assert.True(t, os.IsNotExist(err), "the account probe used a scratch data dir")

	fake.Close()
	results = byName(doctorChecks(context.Background(), p, deps))
	assert.Equal(t, checkFail, results["AI provider"].State)

	require.NoError(t, os.Remove(filepath.Join(p.Config, "ai-provider.json")))
	results = byName(doctorChecks(context.Background(), p, deps))
	assert.Equal(t, checkFail, results["AI provider"].State)
	assert.Contains(t, results["AI provider"].Detail, "No AI provider")
}

func TestDoctorCommandExitCode(t *testing.T) {
	var out, errb bytes.Buffer
	home := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(home, "data"), nil, 0o600))
	code := run([]string{"doctor", "--home", home}, &out, &errb)
	assert.Equal(t, 1, code)
	assert.True(t, strings.Contains(out.String(), "✗ data dir"), out.String())
}
