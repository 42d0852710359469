package workspace

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// A provider override for a workspace reaches the agent's real process:
// its arguments follow the configured command, its environment is set,
// other workspaces and the shell are untouched, and a refused override
// stops the start with the reason.
func TestAgentOverrideReachesTheProcess(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	t.Setenv("ANTHROPIC_API_KEY", "")
	m := newTestManager(t, t.TempDir(), func(o *Options) {
		// $0 is "claude"; the screen shows the key and every argument.
		o.ClaudeCommand = []string{"/bin/sh", "-c", `echo "key=[$ANTHROPIC_API_KEY] args=[$*]"; sleep 30`, "claude"}
		o.AgentOverride = func(ws Workspace, a Agent) ([]string, []string, error) {
			switch ws.Tag {
			case "quant":
				return []string{"--model", "claude-haiku"}, []string{"ANTHROPIC_API_KEY=sk-quant"}, nil
			case "broken":
				return nil, nil, errors.New(`profile "gpt" (openai) cannot start claude`)
			}
			return nil, nil, nil
		}
	})
	quant := createWS(t, m, "quant", "shell-only")
	s, err := m.StartSession(quant.ID, AgentClaude)
	require.NoError(t, err)
	t.Cleanup(s.Stop)
	waitScreen(t, s, "key=[sk-quant] args=[--model claude-haiku --session-id ")

	plain := createWS(t, m, "plain", "shell-only")
	p, err := m.StartSession(plain.ID, AgentClaude)
	require.NoError(t, err)
	t.Cleanup(p.Stop)
	waitScreen(t, p, "key=[] args=[--session-id ")

	broken := createWS(t, m, "broken", "shell-only")
	_, err = m.StartSession(broken.ID, AgentClaude)
	require.ErrorContains(t, err, `workspace broken: profile "gpt" (openai) cannot start claude`)
	sh, err := m.StartSession(broken.ID, AgentShell)
	require.NoError(t, err, "the shell never takes a provider override")
	sh.Stop()
}
