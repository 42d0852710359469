package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMissingFilesAreCreatedWithDefaults(t *testing.T) {
	s := NewStore(t.TempDir())
	require.NoError(t, s.CheckAll())
	for _, f := range []string{AIProviderFile, MCPFile, ConnectorsFile, AccountsFile, ToolsFile, HeartbeatFile, NewsFile, SnapshotFile, CompactionFile, WebhookFile, AgentFile, MarketDataFile} {
		info, err := os.Stat(s.Path(f))
		require.NoError(t, err, f)
		require.Equal(t, os.FileMode(0o600), info.Mode().Perm(), f)
	}
	m, err := s.MCP()
	require.NoError(t, err)
	require.Equal(t, DefaultMCP(), m)
	acc, err := s.Accounts()
	require.NoError(t, err)
	require.Len(t, acc, 1)
	require.Equal(t, "simulator", acc[0].Preset)
}

func TestMalformedConfigNamesFileAndKey(t *testing.T) {
	cases := []struct {
		name, file, body, wantKey, wantMsg string
		load                               func(*Store) error
	}{
		{"wrong type", MCPFile, `{"port":"3001"}`, "port", "expected a whole number, got JSON string", func(s *Store) error { _, err := s.MCP(); return err }},
		{"nested wrong type", ConnectorsFile, `{"mcpAsk":{"enabled":"yes"}}`, "mcpAsk.enabled", "true or false", func(s *Store) error { _, err := s.Connectors(); return err }},
		{"unknown key", ToolsFile, `{"disabeld":["x"]}`, "disabeld", "unknown key", func(s *Store) error { _, err := s.Tools(); return err }},
		{"out of range", MCPFile, `{"port":70000}`, "port", "0..65535", func(s *Store) error { _, err := s.MCP(); return err }},
		{"bad profile ref", AIProviderFile, `{"activeProfile":"x","profiles":{}}`, "activeProfile", "no profile", func(s *Store) error { _, err := s.AIProvider(); return err }},
		{"bad backend", AIProviderFile, `{"profiles":{"a":{"backend":"gpt"}}}`, "profiles.a.backend", "unknown backend", func(s *Store) error { _, err := s.AIProvider(); return err }},
		{"market and window", HeartbeatFile, `{"every":"30m","activeHours":{"start":"09:00","end":"17:00","market":"sim-paper"}}`, "activeHours.market", "not both", func(s *Store) error { _, err := s.Heartbeat(); return err }},
		{"bad heartbeat target", HeartbeatFile, `{"every":"30m","target":{"kind":"cloud"}}`, "target.kind", "oneshot", func(s *Store) error { _, err := s.Heartbeat(); return err }},
		{"bad tz", HeartbeatFile, `{"every":"30m","activeHours":{"start":"09:00","end":"17:00","timezone":"Mars/Base"}}`, "activeHours.timezone", "IANA", func(s *Store) error { _, err := s.Heartbeat(); return err }},
		{"bad duration", SnapshotFile, `{"enabled":true,"every":"15 minutes"}`, "every", "duration", func(s *Store) error { _, err := s.Snapshot(); return err }},
		{"bad account id", AccountsFile, `[{"id":"../x","presetId":"simulator","guards":[]}]`, "[0].id", "must match", func(s *Store) error { _, err := s.Accounts(); return err }},
		{"duplicate account key", AccountsFile, `[{"id":"d","presetId":"simulator","readOnly":true,"readOnly":false}]`, "[0].readOnly", "duplicate key", func(s *Store) error { _, err := s.Accounts(); return err }},
		{"duplicate presetConfig key", AccountsFile, `[{"id":"d","presetId":"simulator","presetConfig":{"seed":1,"seed":2}}]`, "[0].presetConfig.seed", "duplicate key", func(s *Store) error { _, err := s.Accounts(); return err }},
		{"duplicate top-level key", MCPFile, `{"port":1,"port":2}`, "port", "duplicate key", func(s *Store) error { _, err := s.MCP(); return err }},
		{"duplicate nested key", ConnectorsFile, `{"mcpAsk":{"enabled":true,"enabled":false}}`, "mcpAsk.enabled", "duplicate key", func(s *Store) error { _, err := s.Connectors(); return err }},
		{"account wrong type keeps path", AccountsFile, `[{"id":"d","presetId":"simulator","autoApprove":"false"}]`, "[0].autoApprove", `expected true or false, got JSON string (account "d")`, func(s *Store) error { _, err := s.Accounts(); return err }},
		{"guard wrong type names its index", AccountsFile, `[{"id":"d","presetId":"simulator","guards":[{"type":"cooldown"},{"type":5}]}]`, "[0].guards[1].type", `expected a string, got JSON number (account "d")`, func(s *Store) error { _, err := s.Accounts(); return err }},
		{"second account wrong type", AccountsFile, `[{"id":"d","presetId":"simulator"},{"id":"e","presetId":"simulator","enabled":"yes"}]`, "[1].enabled", `(account "e")`, func(s *Store) error { _, err := s.Accounts(); return err }},
		{"escape time out of range", WorkspacesFile, `{"escapeTimeMs":-1}`, "escapeTimeMs", "0..1000", func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"sandbox value misspelt", WorkspacesFile, `{"sandbox":"onn"}`, "sandbox", `unknown value "onn" (did you mean "on"?); one of: auto, on, off`, func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"sandbox value unknown", WorkspacesFile, `{"sandbox":"always"}`, "sandbox", "one of: auto, on, off", func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"sandbox wrong type", WorkspacesFile, `{"sandbox":true}`, "sandbox", "expected a string", func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"sandbox key misspelt", WorkspacesFile, `{"sandBox":"on"}`, "sandBox", `did you mean "sandbox"?`, func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"escape time misspelt", WorkspacesFile, `{"escapeTime":0}`, "escapeTime", "escapeTimeMs", func(s *Store) error { _, err := s.Workspaces(); return err }},
		{"syntax", MCPFile, "{\n\"port\": 1,,\n}", "", "line 2", func(s *Store) error { _, err := s.MCP(); return err }},
		{"empty", MCPFile, "  ", "", "empty", func(s *Store) error { _, err := s.MCP(); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore(t.TempDir())
			require.NoError(t, os.WriteFile(s.Path(tc.file), []byte(tc.body), 0o600))
			err := tc.load(s)
			var ce *Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			require.Equal(t, s.Path(tc.file), ce.File)
			require.Equal(t, tc.wantKey, ce.Key)
			require.Contains(t, ce.Error(), tc.wantMsg)
			require.Contains(t, ce.Error(), filepath.Base(tc.file))
			// The user's file is never overwritten by a failed load.
			b, _ := os.ReadFile(s.Path(tc.file))
			require.Equal(t, tc.body, string(b))
		})
	}
}

func TestPartialFileKeepsDefaultsAndIsReadOnEachCall(t *testing.T) {
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(MCPFile), []byte(`{"port":4000}`), 0o600))
	m, err := s.MCP()
	require.NoError(t, err)
	require.Equal(t, 4000, m.Port)
	require.Equal(t, "127.0.0.1", m.Host, "omitted keys keep defaults")
	require.NoError(t, os.WriteFile(s.Path(MCPFile), []byte(`{"port":4001}`), 0o600))
	m, _ = s.MCP()
	require.Equal(t, 4001, m.Port)
}

// An escape time left out is tmux's 10 ms; 0 is kept as 0 (no wait).
func TestEscapeTimeDefaultsAndZero(t *testing.T) {
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(WorkspacesFile), []byte(`{"scrollbackLines":500}`), 0o600))
	ws, err := s.Workspaces()
	require.NoError(t, err)
	require.Equal(t, 10*time.Millisecond, ws.EscapeTime())
	require.NoError(t, os.WriteFile(s.Path(WorkspacesFile), []byte(`{"escapeTimeMs":0}`), 0o600))
	ws, err = s.Workspaces()
	require.NoError(t, err)
	require.Equal(t, time.Duration(0), ws.EscapeTime())
}

// The workspace sandbox is "auto" when left out; each mode is accepted.
func TestSandboxModes(t *testing.T) {
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(WorkspacesFile), []byte(`{"scrollbackLines":500}`), 0o600))
	ws, err := s.Workspaces()
	require.NoError(t, err)
	require.Equal(t, SandboxAuto, ws.Sandbox)
	for _, m := range SandboxModes {
		require.NoError(t, os.WriteFile(s.Path(WorkspacesFile), []byte(`{"sandbox":"`+m+`"}`), 0o600))
		ws, err = s.Workspaces()
		require.NoError(t, err)
		require.Equal(t, m, ws.Sandbox)
	}
}

func TestAccountEnabledDefaultsTrue(t *testing.T) {
	s := NewStore(t.TempDir())
	require.NoError(t, os.WriteFile(s.Path(AccountsFile), []byte(`[{"id":"a","presetId":"simulator","guards":[]},{"id":"b","presetId":"simulator","enabled":false,"guards":[]}]`), 0o600))
	acc, err := s.Accounts()
	require.NoError(t, err)
	require.True(t, acc[0].Enabled)
	require.False(t, acc[1].Enabled)
}

func TestParseEvery(t *testing.T) {
	for in, want := range map[string]time.Duration{"30m": 30 * time.Minute, "2h": 2 * time.Hour, "5m30s": 5*time.Minute + 30*time.Second, "1h1m1s": time.Hour + time.Minute + time.Second} {
		got, err := ParseEvery(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "0m", "5", "m", "1d", "-5m", "5 m"} {
		_, err := ParseEvery(bad)
		require.Error(t, err, bad)
	}
	got, err := ParseEvery("8760h")
	require.NoError(t, err)
	require.Equal(t, MaxEvery, got)
	// Too large (99999999h overflowed to a negative duration and was
	// reported as "must be positive"): the error names the maximum.
	for _, big := range []string{"8760h1s", "99999999h", "9999999999999999999999h", "600000m"} {
		_, err := ParseEvery(big)
		require.ErrorContains(t, err, "too large", big)
		require.ErrorContains(t, err, "8760h", big)
	}
}

func TestParseHHMM(t *testing.T) {
	m, err := ParseHHMM("09:30")
	require.NoError(t, err)
	require.Equal(t, 570, m)
	m, _ = ParseHHMM("23:59")
	require.Equal(t, 1439, m)
	for _, bad := range []string{"24:00", "9:60", "0930", ""} {
		_, err := ParseHHMM(bad)
		require.Error(t, err, bad)
	}
}

func TestResolvePaths(t *testing.T) {
	home := t.TempDir()
	p, err := ResolvePaths(home)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(home, "config"), p.Config)
	require.Equal(t, filepath.Join(home, "data"), p.Data)
	t.Setenv("ALICE_HOME", "")
	xdgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(xdgHome, "c"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(xdgHome, "d"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(xdgHome, "s"))
	p, err = ResolvePaths("")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(xdgHome, "c", "alice"), p.Config)
	require.True(t, strings.HasPrefix(p.Logs, filepath.Join(xdgHome, "s")))
	require.NoError(t, p.Ensure())
}

func TestUnknownNamesTheNearest(t *testing.T) {
	t.Parallel()
	if got := Unknown("key", "readonly", JSONKeys(Account{})); !strings.Contains(got, `did you mean "readOnly"?`) {
		t.Errorf("Unknown: %s", got)
	}
	if got := Unknown("guard type", "max-order-valu", []string{"cooldown", "max-order-value"}); got != `unknown guard type "max-order-valu" (did you mean "max-order-value"?); known: cooldown, max-order-value` {
		t.Errorf("Unknown: %s", got)
	}
}

// TestAskPortZeroIsKept: mcpAsk.port 0 (any free port) is written and read
// back as 0; with omitempty it was dropped and the default 3003 came back.
func TestAskPortZeroIsKept(t *testing.T) {
	t.Parallel()
	s := NewStore(t.TempDir())
	_, _, err := Edit(s, ConnectorsFile, "", DefaultConnectors, func(c *Connectors) error { c.MCPAsk.Port = 0; return nil })
	require.NoError(t, err)
	raw, err := os.ReadFile(s.Path(ConnectorsFile))
	require.NoError(t, err)
	require.Contains(t, string(raw), `"port": 0`)
	c, err := s.Connectors()
	require.NoError(t, err)
	require.Equal(t, 0, c.MCPAsk.Port)
	// Written by hand, as mcp.json's port.
	require.NoError(t, os.WriteFile(s.Path(ConnectorsFile), []byte(`{"mcpAsk":{"enabled":true,"port":0}}`), 0o600))
	c, err = s.Connectors()
	require.NoError(t, err)
	require.Equal(t, 0, c.MCPAsk.Port)
}
