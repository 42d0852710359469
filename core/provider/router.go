package provider

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"alice/config"
)

// ErrNoProvider means no AI backend is configured; its message (via
// NoProviderError) tells the user exactly how to add one.
var ErrNoProvider = errors.New("no AI provider configured")

// NoProviderError carries the how-to text.
type NoProviderError struct{ File string }

func (e *NoProviderError) Error() string {
	return fmt.Sprintf(`No AI provider is configured yet, so Alice cannot answer.

Add a profile to %s and make it active, for example:

  {
    "activeProfile": "claude",
    "profiles": {
      "claude": {"backend": "anthropic", "model": "claude-sonnet-4-5", "apiKeyEnv": "ANTHROPIC_API_KEY"},
      "local":  {"backend": "openai", "model": "qwen2.5:7b", "baseUrl": "http://127.0.0.1:11434/v1"},
      "cc":     {"backend": "claude-cli"}
    }
  }

Backends: anthropic (Messages API), openai (OpenAI or any OpenAI-compatible
server: Ollama, llama.cpp, OpenRouter), claude-cli, codex-cli. Or just set
ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment and restart.
The file is re-read on every message: no restart needed after editing it.`, e.File)
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
}

// NewRouter builds a router. mcpURL returns alice's main MCP endpoint (the
// CLI backends reach alice's tools through it).
func NewRouter(store *config.Store, mcpURL func() string) *Router {
	return &Router{store: store, getenv: os.Getenv, mcpURL: mcpURL}
}

// WithGetenv replaces environment lookups (tests).
func (r *Router) WithGetenv(f func(string) string) *Router { r.getenv = f; return r }

// Resolve picks the provider: explicit profile, else the channel override
// (longest matching prefix of the channel/session), else the active
// profile, else an implicit profile from ANTHROPIC_API_KEY / OPENAI_API_KEY.
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
		res.Provider = NewClaudeCLI(p.Command, p.Model, r.mcpURL)
	case config.BackendCodexCLI:
		res.Provider = NewCodexCLI(p.Command, p.Model, r.mcpURL)
	default:
		return res, fmt.Errorf("profile %q: unknown backend %q", name, p.Backend)
	}
	return res, nil
}
