package workspace

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/workspace/agentstate"
)

// fakeOpenCode writes an `opencode` into a fresh directory: it records its
// arguments and OPENCODE_CONFIG_CONTENT, replays the recorded home screen
// of opencode 1.18.33, waits for "say hi", replays the recorded turn (the
// working bar, then retrying with no network) and exits on the next line.
func fakeOpenCode(t *testing.T) (dir, out string) {
	t.Helper()
	idle, err := filepath.Abs("agentstate/testdata/opencode-1.18.33-idle.bin")
	require.NoError(t, err)
	prompt, err := filepath.Abs("agentstate/testdata/opencode-1.18.33-prompt.bin")
	require.NoError(t, err)
	dir, out = t.TempDir(), t.TempDir()
	// No echo: the emulator answers opencode's capability queries on the
	// pty's input, as a terminal does; echoed back they would land in the
	// middle of the replayed escape sequences (the real opencode runs raw).
	script := `#!/bin/sh
stty -echo
printf '%s' "$OPENCODE_CONFIG_CONTENT" > '` + out + `/config.json'
printf '%s\n' "$@" > '` + out + `/args'
cat '` + idle + `'
while read -r line; do case "$line" in *"say hi"*) break;; esac; done
cat '` + prompt + `'
read -r _
exit 0
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "opencode"), []byte(script), 0o755))
	return dir, out
}

// opencode started the way a person starts it (the default command
// `opencode`, found on PATH) in the workspace manager's pty: its state is
// read from the recorded stream — idle at the home screen, working once a
// prompt runs, exited when it quits — and it was handed alice's two MCP
// servers. The real CLI is not installed here (npm i -g opencode-ai), so
// the binary on PATH is a script replaying a recording of the real one.
// Not parallel: it puts the fake on the process's PATH.
func TestOpenCodeStartsInPtyAndItsStateIsDetected(t *testing.T) {
	dir, out := fakeOpenCode(t)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	m := newTestManager(t, t.TempDir(), nil)
	var log stateLog
	m.OnAgentState(log.add)
	w := createWS(t, m, "oc", "chat")
	s, err := m.StartSessionSize(w.ID, AgentOpenCode, 100, 30)
	require.NoError(t, err)

	waitScreen(t, s, "Ask anything")
	waitAgentState(t, m, s, agentstate.Idle)
	st, _ := m.AgentStatus(s.ID())
	assert.Equal(t, AgentOpenCode, st.Agent)

	require.NoError(t, s.Input([]byte("say hi\r")))
	// The turn's bottom line reads "esc interrupt", then (no network here
	// when it was recorded) "Cannot connect to API … [retrying": both are
	// working; the replay ends on the second.
	waitScreen(t, s, "[retrying")
	waitAgentState(t, m, s, agentstate.Working)

	require.NoError(t, s.Input([]byte("\r")))
	waitAgentState(t, m, s, agentstate.Exited)
	require.Eventually(t, func() bool {
		states := dedupe(log.states())
		return len(states) >= 2 && states[len(states)-1] == agentstate.Exited
	}, waitFor, tick)
	assert.Contains(t, log.states(), agentstate.Working)
	assert.NotContains(t, log.states(), agentstate.Errored, "a retried connection is not an error")

	cfg, err := os.ReadFile(filepath.Join(out, "config.json"))
	require.NoError(t, err)
	var parsed struct {
		MCP map[string]struct{ Type, URL string } `json:"mcp"`
	}
	require.NoError(t, json.Unmarshal(cfg, &parsed), string(cfg))
	assert.Equal(t, "http://127.0.0.1:4567/mcp", parsed.MCP["alice"].URL)
	assert.Equal(t, "http://127.0.0.1:4567/mcp/"+w.ID, parsed.MCP["alice-workspace"].URL)
}
