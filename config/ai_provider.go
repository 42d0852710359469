package config

import (
	"fmt"
	"sort"
)

// Backend names the kind of AI provider a profile talks to.
type Backend string

const (
	BackendAnthropic Backend = "anthropic"  // Anthropic Messages API
	BackendOpenAI    Backend = "openai"     // OpenAI or any OpenAI-compatible server (Ollama, llama.cpp, OpenRouter)
	BackendClaudeCLI Backend = "claude-cli" // the claude CLI in print mode with stream-json
	BackendCodexCLI  Backend = "codex-cli"  // the codex CLI (codex exec --json)
)

// Backends lists the valid backends in display order.
var Backends = []Backend{BackendAnthropic, BackendOpenAI, BackendClaudeCLI, BackendCodexCLI}

// AIProviderFile is ai-provider.json.
const AIProviderFile = "ai-provider.json"

// Profile is one named way of reaching a model.
type Profile struct {
	Backend Backend `json:"backend"`
	Model   string  `json:"model,omitempty"`
	// BaseURL overrides the API endpoint (OpenAI-compatible servers, proxies).
	BaseURL string `json:"baseUrl,omitempty" cfg:"baseurl"`
	// APIKey is the literal key; APIKeyEnv names an environment variable
	// holding it. APIKeyEnv is preferred so keys stay out of files.
	APIKey    string `json:"apiKey,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty" cfg:"env"`
	// AuthMode is "x-api-key" (default for Anthropic) or "bearer".
	AuthMode  string `json:"authMode,omitempty"`
	MaxTokens int    `json:"maxTokens,omitempty"`
	// Command overrides the executable for CLI backends.
	Command string `json:"command,omitempty"`
}

// AIProvider is the whole ai-provider.json. It is read on every request so
// switching profile takes effect without a restart.
type AIProvider struct {
	ActiveProfile string             `json:"activeProfile"`
	Profiles      map[string]Profile `json:"profiles"`
	// Channels maps a channel ("telegram", "mcp-ask", "heartbeat", "cron",
	// "tui", a session id prefix) to a profile that overrides the active one.
	Channels map[string]string `json:"channels,omitempty"`
}

// DefaultAIProvider has no profile: alice cannot guess which paid API the
// user wants, so the chat explains how to add one.
func DefaultAIProvider() AIProvider {
	return AIProvider{Profiles: map[string]Profile{}, Channels: map[string]string{}}
}

// Validate checks backends and that every referenced profile exists.
func (c *AIProvider) Validate() (string, error) {
	names := make([]string, 0, len(c.Profiles))
	for n := range c.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := c.Profiles[n]
		if !ValidProfileName(n) {
			return "profiles." + n, fmt.Errorf("a profile name must be letters, digits, - or _ (A-Z, a-z, 0-9), got %q", n)
		}
		switch p.Backend {
		case BackendAnthropic, BackendOpenAI, BackendClaudeCLI, BackendCodexCLI:
		default:
			return "profiles." + n + ".backend", fmt.Errorf("unknown backend %q (want one of %v)", p.Backend, Backends)
		}
		if p.AuthMode != "" && p.AuthMode != "x-api-key" && p.AuthMode != "bearer" {
			return "profiles." + n + ".authMode", fmt.Errorf("must be \"x-api-key\" or \"bearer\", got %q", p.AuthMode)
		}
		if p.MaxTokens < 0 {
			return "profiles." + n + ".maxTokens", fmt.Errorf("must not be negative")
		}
	}
	if c.ActiveProfile != "" {
		if _, ok := c.Profiles[c.ActiveProfile]; !ok {
			return "activeProfile", fmt.Errorf("no profile named %q", c.ActiveProfile)
		}
	}
	for ch, prof := range c.Channels {
		if _, ok := c.Profiles[prof]; !ok {
			return "channels." + ch, fmt.Errorf("no profile named %q", prof)
		}
	}
	return "", nil
}
