package provider

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/alice-trading/alice/config"
)

// ErrNoProvider means no AI backend is configured; its message (via
// NoProviderError) tells the user exactly how to add one.
var ErrNoProvider = errors.New("no AI provider configured")

// NoProviderError carries the how-to text.
type NoProviderError struct{ File string }

func (e *NoProviderError) Error() string {
	return "No AI provider is configured yet, so Alice cannot answer.\n\n" +
		"In the terminal UI: Settings → AI provider (alt+8) adds one and tests it.\n" +
		"Or add a profile to " + e.File + " and make it active, for example:\n\n" +
		indent(ExampleConfig, "  ") + "\n\n" +
		"Backends: anthropic (Messages API), openai (OpenAI or any OpenAI-compatible\n" +
		"server: Ollama, llama.cpp, OpenRouter via baseUrl), claude-cli and codex-cli\n" +
		"(the installed CLIs with your login). Or set ANTHROPIC_API_KEY or\n" +
		"OPENAI_API_KEY in the environment before starting alice.\n" +
		"The file is re-read on every message: no restart needed after editing it."
}

// ExampleConfig is a working ai-provider.json shown to users who have not
// configured a provider (one profile per kind of backend).
const ExampleConfig = `{
  "activeProfile": "claude",
  "profiles": {
    "claude": {"backend": "anthropic", "model": "claude-sonnet-4-5", "apiKeyEnv": "ANTHROPIC_API_KEY"},
    "gpt":    {"backend": "openai", "model": "gpt-4.1", "apiKeyEnv": "OPENAI_API_KEY"},
    "local":  {"backend": "openai", "model": "qwen2.5:7b", "baseUrl": "http://127.0.0.1:11434/v1"},
    "cc":     {"backend": "claude-cli"},
    "codex":  {"backend": "codex-cli"}
  },
  "channels": {"heartbeat": "local"}
}`

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// Unwrap lets errors.Is(err, ErrNoProvider) match.
func (e *NoProviderError) Unwrap() error { return ErrNoProvider }

// Resolved is the provider chosen for one request.
type Resolved struct {
	Provider Provider
	Profile  string // profile name ("env:ANTHROPIC_API_KEY" for implicit ones)
	Model    string
	Config   config.Profile
}

// Label is "profile (backend model)" for the status bar.
func (r Resolved) Label() string {
	m := r.Model
	if m == "" {
		m = "default model"
	}
	return fmt.Sprintf("%s (%s %s)", r.Profile, r.Config.Backend, m)
}

// Router reads ai-provider.json on every call and builds the backend for
// the active profile, a per-channel override, or an explicit profile.
type Router struct {
	store  *config.Store
	getenv func(string) string
	mcpURL func() string
	cliDir string
}

// NewRouter builds a router. mcpURL returns alice's main MCP endpoint (the
// CLI backends reach alice's tools through it).
func NewRouter(store *config.Store, mcpURL func() string) *Router {
	return &Router{store: store, getenv: os.Getenv, mcpURL: mcpURL}
}

// WithGetenv replaces environment lookups (tests).
func (r *Router) WithGetenv(f func(string) string) *Router { r.getenv = f; return r }

// WithCLIDir sets the working directory of the claude/codex CLIs (the
// reference uses <data>/brain so they never wander the user's projects).
func (r *Router) WithCLIDir(dir string) *Router { r.cliDir = dir; return r }

// Resolve picks the provider: explicit profile, else the channel override
// (longest matching prefix of the channel/session), else the active
// profile, else the only profile when exactly one exists, else an
// implicit profile from ANTHROPIC_API_KEY / OPENAI_API_KEY, else a
// *NoProviderError (errors.Is ErrNoProvider) explaining how to add one.
func (r *Router) Resolve(profile, channel string) (Resolved, error) {
	cfg, err := r.store.AIProvider()
	if err != nil {
		return Resolved{}, err
	}
	name := profile
	if name == "" {
		best := ""
		for ch, p := range cfg.Channels {
			if (channel == ch || strings.HasPrefix(channel, ch+"/")) && len(ch) > len(best) {
				best, name = ch, p
			}
		}
	}
	if name == "" {
		name = cfg.ActiveProfile
	}
	if name == "" && len(cfg.Profiles) == 1 {
		for n := range cfg.Profiles {
			name = n
		}
	}
	if name == "" {
		switch {
		case r.getenv("ANTHROPIC_API_KEY") != "":
			return r.build("env:ANTHROPIC_API_KEY", config.Profile{Backend: config.BackendAnthropic, Model: "claude-sonnet-4-5", APIKeyEnv: "ANTHROPIC_API_KEY"})
		case r.getenv("OPENAI_API_KEY") != "":
			return r.build("env:OPENAI_API_KEY", config.Profile{Backend: config.BackendOpenAI, Model: "gpt-4.1", APIKeyEnv: "OPENAI_API_KEY"})
		}
		return Resolved{}, &NoProviderError{File: r.store.Path(config.AIProviderFile)}
	}
	p, ok := cfg.Profiles[name]
	if !ok {
		return Resolved{}, &config.Error{File: r.store.Path(config.AIProviderFile), Key: "profiles." + name, Msg: "no such profile"}
	}
	return r.build(name, p)
}

func (r *Router) key(p config.Profile) string {
	if p.APIKey != "" {
		return p.APIKey
	}
	if p.APIKeyEnv != "" {
		return r.getenv(p.APIKeyEnv)
	}
	return ""
}

// cliOptions are the settings shared by the CLI backends; their own loop
// is bounded by agent.json maxSteps like the API backends' tool loop.
func (r *Router) cliOptions(p config.Profile) CLIOptions {
	o := CLIOptions{Command: p.Command, Model: p.Model, MCPURL: r.mcpURL, Dir: r.cliDir}
	if a, err := r.store.Agent(); err == nil {
		o.MaxTurns = a.MaxSteps
	}
	if o.Dir != "" {
		if err := os.MkdirAll(o.Dir, 0o700); err != nil {
			o.Dir = ""
		}
	}
	return o
}

func (r *Router) build(name string, p config.Profile) (Resolved, error) {
	res := Resolved{Profile: name, Model: p.Model, Config: p}
	switch p.Backend {
	case config.BackendAnthropic:
		key := r.key(p)
		if key == "" {
			key = r.getenv("ANTHROPIC_API_KEY")
		}
		if key == "" && p.BaseURL == "" {
			return res, fmt.Errorf("profile %q (anthropic) has no API key: set apiKeyEnv (e.g. ANTHROPIC_API_KEY) in %s", name, r.store.Path(config.AIProviderFile))
		}
		if res.Model == "" {
			res.Model = "claude-sonnet-4-5"
		}
		res.Provider = NewAnthropic(p.BaseURL, key, res.Model, p.AuthMode == "bearer", p.MaxTokens)
	case config.BackendOpenAI:
		key := r.key(p)
		if key == "" && p.BaseURL == "" {
			key = r.getenv("OPENAI_API_KEY")
			if key == "" {
				return res, fmt.Errorf("profile %q (openai) has no API key and no baseUrl: set apiKeyEnv or baseUrl in %s", name, r.store.Path(config.AIProviderFile))
			}
		}
		if res.Model == "" {
			res.Model = "gpt-4.1"
		}
		res.Provider = NewOpenAI(p.BaseURL, key, res.Model)
	case config.BackendClaudeCLI:
		o := r.cliOptions(p)
		if key := r.key(p); key != "" {
			if p.AuthMode == "bearer" {
				o.Env = append(o.Env, "ANTHROPIC_AUTH_TOKEN="+key)
			} else {
				o.Env = append(o.Env, "ANTHROPIC_API_KEY="+key)
			}
		}
		if p.BaseURL != "" {
			o.Env = append(o.Env, "ANTHROPIC_BASE_URL="+p.BaseURL)
		}
		res.Provider = NewClaudeCLI(o)
	case config.BackendCodexCLI:
		o := r.cliOptions(p)
		if key := r.key(p); key != "" {
			o.Env = append(o.Env, "CODEX_API_KEY="+key)
		}
		if p.BaseURL != "" {
			o.Env = append(o.Env, "OPENAI_BASE_URL="+p.BaseURL)
		}
		res.Provider = NewCodexCLI(o)
	default:
		return res, fmt.Errorf("profile %q: unknown backend %q", name, p.Backend)
	}
	return res, nil
}

// AgentLaunch is what a profile adds to an agent CLI started in a
// workspace: arguments (the model) and environment (key, base URL).
type AgentLaunch struct {
	Args []string
	Env  []string
}

// WorkspaceAgent resolves a per-workspace override (channels.json
// "workspaces") for the agent CLI Alice starts there: claude takes an
// anthropic or claude-cli profile, codex an openai or codex-cli one. Any
// other pairing is refused with the reason rather than started on
// something the user did not choose.
func (r *Router) WorkspaceAgent(profile, agent string) (AgentLaunch, error) {
	cfg, err := r.store.AIProvider()
	if err != nil {
		return AgentLaunch{}, err
	}
	p, ok := cfg.Profiles[profile]
	if !ok {
		return AgentLaunch{}, &config.Error{File: r.store.Path(config.ChannelsFile), Key: "workspaces", Msg: fmt.Sprintf("no profile named %q in %s", profile, config.AIProviderFile)}
	}
	var out AgentLaunch
	key := r.key(p)
	switch agent {
	case "claude":
		if p.Backend != config.BackendAnthropic && p.Backend != config.BackendClaudeCLI {
			return out, fmt.Errorf("profile %q (%s) cannot start claude: choose an anthropic or claude-cli profile in %s", profile, p.Backend, r.store.Path(config.ChannelsFile))
		}
		if p.Model != "" {
			out.Args = append(out.Args, "--model", p.Model)
		}
		if key != "" {
			if p.AuthMode == "bearer" {
				out.Env = append(out.Env, "ANTHROPIC_AUTH_TOKEN="+key)
			} else {
				out.Env = append(out.Env, "ANTHROPIC_API_KEY="+key)
			}
		}
		if p.BaseURL != "" {
			out.Env = append(out.Env, "ANTHROPIC_BASE_URL="+p.BaseURL)
		}
	case "codex":
		if p.Backend != config.BackendOpenAI && p.Backend != config.BackendCodexCLI {
			return out, fmt.Errorf("profile %q (%s) cannot start codex: choose an openai or codex-cli profile in %s", profile, p.Backend, r.store.Path(config.ChannelsFile))
		}
		if p.Model != "" {
			out.Args = append(out.Args, "-m", p.Model)
		}
		if key != "" {
			out.Env = append(out.Env, "OPENAI_API_KEY="+key, "CODEX_API_KEY="+key)
		}
		if p.BaseURL != "" {
			out.Env = append(out.Env, "OPENAI_BASE_URL="+p.BaseURL)
		}
	}
	return out, nil
}
