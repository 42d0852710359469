package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Agent is the program a session runs.
type Agent string

// Supported agents. The first agent of a workspace is its default.
const (
	AgentClaude Agent = "claude"
	AgentCodex  Agent = "codex"
	// AgentOpenCode is sst's opencode (npm opencode-ai).
	AgentOpenCode Agent = "opencode"
	AgentShell    Agent = "shell"
)

// Agents lists every supported agent.
func Agents() []Agent { return []Agent{AgentClaude, AgentCodex, AgentOpenCode, AgentShell} }

// AgentNames is the list for messages: "claude, codex, opencode or shell".
const AgentNames = "claude, codex, opencode or shell"

// Valid reports whether a is a supported agent.
func (a Agent) Valid() bool {
	switch a {
	case AgentClaude, AgentCodex, AgentOpenCode, AgentShell:
		return true
	}
	return false
}

// prefix names sessions: c1, x2, sh1 (as the reference does).
func (a Agent) prefix() string {
	switch a {
	case AgentClaude:
		return "c"
	case AgentCodex:
		return "x"
	case AgentOpenCode:
		return "o"
	default:
		return "sh"
	}
}

// ErrAgentNotInstalled is wrapped when an agent's CLI is not on PATH.
var ErrAgentNotInstalled = errors.New("agent CLI not installed")

var installHints = map[Agent]string{
	AgentClaude:   "claude CLI not found on PATH; install with npm i -g @anthropic-ai/claude-code",
	AgentCodex:    "codex CLI not found on PATH; install with npm i -g @openai/codex",
	AgentOpenCode: "opencode not found on PATH; install with npm i -g opencode-ai",
	AgentShell:    "shell not found",
}

// ResumeHint tells a respawned or resumed session how to pick up its
// conversation.
type ResumeHint struct {
	// Kind is "agent-session-id" (claude: the --session-id we assigned) or
	// "last" (codex: resume --last; opencode: --continue).
	Kind  string `json:"kind"`
	Value string `json:"value,omitempty"`
}

// launch is a resolved command line.
type launch struct {
	path string
	args []string
	env  []string // added to sessionEnv (a provider override's key, base URL)
}

// AgentOverride is how an agent CLI is started in one workspace under a
// provider profile (channels.json "workspaces"): extra arguments (the
// model) and environment (key, base URL). It is resolved at every spawn,
// so an edit applies to the next start or respawn.
type AgentOverride func(ws Workspace, agent Agent) (args, env []string, err error)

// commandFor resolves the command line for one spawn. resume is true when
// the session is being resumed or respawned rather than started fresh.
func (m *Manager) commandFor(agent Agent, ws Workspace, hint *ResumeHint, resume bool) (launch, error) {
	var base []string
	switch agent {
	case AgentShell:
		base = m.opts.ShellCommand
		if len(base) == 0 {
			sh := os.Getenv("SHELL")
			if sh == "" {
				sh = "/bin/bash"
			}
			base = []string{sh}
		}
	case AgentClaude:
		base = m.opts.ClaudeCommand
		if len(base) == 0 {
			base = []string{"claude"}
		}
	case AgentCodex:
		base = m.opts.CodexCommand
		if len(base) == 0 {
			base = []string{"codex"}
		}
	case AgentOpenCode:
		base = m.opts.OpenCodeCommand
		if len(base) == 0 {
			base = []string{"opencode"}
		}
	default:
		return launch{}, fmt.Errorf("unknown agent %q", agent)
	}
	path, err := exec.LookPath(base[0])
	if err != nil {
		return launch{}, fmt.Errorf("%w: %s", ErrAgentNotInstalled, installHints[agent])
	}
	args := append([]string(nil), base[1:]...)
	var env []string
	if m.opts.AgentOverride != nil && agent != AgentShell {
		oargs, oenv, err := m.opts.AgentOverride(ws, agent)
		if err != nil {
			return launch{}, fmt.Errorf("workspace %s: %w", ws.Tag, err)
		}
		args, env = append(args, oargs...), oenv
	}
	mcp := m.mcpURL()
	switch agent {
	case AgentClaude:
		if hint != nil && hint.Kind == "agent-session-id" && hint.Value != "" {
			if claudeTranscriptExists(ws.Dir, hint.Value) {
				args = append(args, "--resume", hint.Value)
			} else {
				args = append(args, "--session-id", hint.Value)
			}
		}
	case AgentCodex:
		// codex does not read .mcp.json; hand it both servers as config
		// overrides (before any subcommand).
		args = append(args,
			"-c", fmt.Sprintf("mcp_servers.alice.url=%q", mcp),
			"-c", fmt.Sprintf("mcp_servers.alice-workspace.url=%q", mcp+"/"+ws.ID))
		if resume {
			args = append(args, "resume", "--last")
		}
	case AgentOpenCode:
		// opencode reads extra config from OPENCODE_CONFIG_CONTENT: both of
		// alice's servers as remote MCP servers, merged over the user's
		// own configuration (nothing written into the workspace).
		env = append(env, "OPENCODE_CONFIG_CONTENT="+OpenCodeMCPConfig(mcp, ws.ID))
		if resume {
			args = append(args, "--continue")
		}
	}
	return launch{path: path, args: args, env: env}, nil
}

// OpenCodeMCPConfig is the opencode configuration that reaches alice's
// MCP servers: the main catalogue and the workspace's own endpoint.
func OpenCodeMCPConfig(mcpURL, wsID string) string {
	b, _ := json.Marshal(map[string]any{"mcp": map[string]any{
		"alice":           map[string]any{"type": "remote", "url": mcpURL, "enabled": true},
		"alice-workspace": map[string]any{"type": "remote", "url": mcpURL + "/" + wsID, "enabled": true},
	}})
	return string(b)
}

// claudeTranscriptExists checks ~/.claude/projects/<cwd with / and . as
// ->/<id>.jsonl: --resume fails for a session that never got a turn, so a
// fresh --session-id is used until the transcript exists.
func claudeTranscriptExists(dir, id string) bool {
	root := os.Getenv("CLAUDE_CONFIG_DIR")
	if root == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		root = filepath.Join(home, ".claude")
	}
	mangled := strings.NewReplacer("/", "-", ".", "-").Replace(dir)
	_, err := os.Stat(filepath.Join(root, "projects", mangled, id+".jsonl"))
	return err == nil
}

// strippedEnvPrefixes are host-terminal variables that would make an agent
// CLI believe it runs inside another terminal or another claude.
var strippedEnvPrefixes = []string{
	"TERM_PROGRAM", "VSCODE_", "CLAUDE_CODE_", "CLAUDECODE", "ITERM_", "WT_", "KITTY_", "ALACRITTY_",
	"TERMINUS_", "WEZTERM_", "GHOSTTY_", "TMUX", "STY=", "COLUMNS=", "LINES=", "ALICE_",
}

// sessionEnv builds the child's environment: the host environment minus
// terminal/agent leftovers and alice's own credentials (SandboxOptions.
// HideEnv), plus the workspace variables.
func (m *Manager) sessionEnv(ws Workspace) []string {
	var env []string
	hidden := map[string]bool{}
	if f := m.opts.Sandbox.HideEnv; f != nil {
		for _, name := range f() {
			hidden[name] = true
		}
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); hidden[name] {
			continue
		}
		skip := false
		for _, p := range strippedEnvPrefixes {
			if strings.HasPrefix(kv, p) {
				skip = true
				break
			}
		}
		if !skip && !strings.HasPrefix(kv, "TERM=") && !strings.HasPrefix(kv, "COLORTERM=") && !strings.HasPrefix(kv, "PWD=") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"TERM=xterm-256color",
		"COLORTERM=truecolor",
		"TERM_PROGRAM=alice",
		"PWD="+ws.Dir,
		"ALICE_WS_ID="+ws.ID,
		"ALICE_WS_TAG="+ws.Tag,
		"ALICE_MCP_URL="+m.mcpURL(),
	)
	return append(env, m.opts.ExtraEnv...)
}
