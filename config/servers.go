package config

import "fmt"

// MCPFile is mcp.json: the main tool server.
const MCPFile = "mcp.json"

// MCP configures the main MCP listener (/mcp and /mcp/{wsId}).
type MCP struct {
	// Host defaults to loopback; binding elsewhere exposes trading tools.
	Host string `json:"host"`
	// Port 0 picks a free port (useful for tests); the bound port is shown
	// in the status bar and written into workspace .mcp.json files.
	Port int `json:"port"`
	// Token, when set, must arrive as "Authorization: Bearer <token>".
	Token string `json:"token,omitempty"`
	// MaxRequestBytes caps one HTTP request body.
	MaxRequestBytes int64 `json:"maxRequestBytes"`
	// AllowedOrigins extends the loopback origins accepted in Origin headers.
	AllowedOrigins []string `json:"allowedOrigins,omitempty"`
	// SessionIdleMinutes expires MCP client sessions idle this long
	// (0: 30). Applies to the Ask connector too.
	SessionIdleMinutes int `json:"sessionIdleMinutes,omitempty"`
	// MaxStreamsPerSession and MaxStreams cap open SSE (GET) streams
	// (0: 2 per session, 64 in total).
	MaxStreamsPerSession int `json:"maxStreamsPerSession,omitempty"`
	MaxStreams           int `json:"maxStreams,omitempty"`
}

// DefaultMCP listens on 127.0.0.1:3001.
func DefaultMCP() MCP {
	return MCP{Host: "127.0.0.1", Port: 3001, MaxRequestBytes: 4 << 20}
}

// Validate checks the port range.
func (c *MCP) Validate() (string, error) {
	if c.Port < 0 || c.Port > 65535 {
		return "port", fmt.Errorf("must be 0..65535, got %d", c.Port)
	}
	if c.MaxRequestBytes <= 0 {
		return "maxRequestBytes", fmt.Errorf("must be positive")
	}
	for key, v := range map[string]int{"sessionIdleMinutes": c.SessionIdleMinutes, "maxStreamsPerSession": c.MaxStreamsPerSession, "maxStreams": c.MaxStreams} {
		if v < 0 {
			return key, fmt.Errorf("must not be negative, got %d", v)
		}
	}
	return "", nil
}

// ConnectorsFile is connectors.json.
const ConnectorsFile = "connectors.json"

// MCPAsk configures the Ask connector: a separate MCP listener through
// which other agents converse with Alice.
type MCPAsk struct {
	Enabled bool   `json:"enabled"`
	Host    string `json:"host,omitempty"`
	// Port 0 picks a free port, as mcp.json's port does. Always written:
	// an omitted port is the default 3003, so omitempty would turn a 0
	// saved by the Settings form back into 3003.
	Port  int    `json:"port"`
	Token string `json:"token,omitempty"`
}

// Telegram configures the Telegram bot connector.
type Telegram struct {
	Enabled     bool   `json:"enabled"`
	BotToken    string `json:"botToken,omitempty"`
	BotTokenEnv string `json:"botTokenEnv,omitempty" cfg:"env"`
	BotUsername string `json:"botUsername,omitempty"`
	// ChatIDs is the allow list; messages from other chats are ignored.
	ChatIDs []int64 `json:"chatIds"`
	// APIBaseURL lets tests point the bot at a Bot API emulator.
	APIBaseURL string `json:"apiBaseUrl,omitempty" cfg:"baseurl"`
	// Notifications switches pushed notifications to Telegram off (false)
	// without disabling the bot; /settings toggles it. Absent = on.
	Notifications *bool `json:"notifications,omitempty"`
}

// NotificationsOn reports whether notifications are pushed to Telegram.
func (t Telegram) NotificationsOn() bool { return t.Notifications == nil || *t.Notifications }

// Connectors is connectors.json.
type Connectors struct {
	MCPAsk   MCPAsk   `json:"mcpAsk"`
	Telegram Telegram `json:"telegram"`
}

// DefaultConnectors enables the Ask connector on loopback port 3003 so
// other local agents can talk to Alice out of the box; Telegram is off.
func DefaultConnectors() Connectors {
	return Connectors{
		MCPAsk:   MCPAsk{Enabled: true, Host: "127.0.0.1", Port: 3003},
		Telegram: Telegram{ChatIDs: []int64{}, APIBaseURL: "https://api.telegram.org"},
	}
}

// Validate checks ports and that an enabled Telegram bot has a token source.
func (c *Connectors) Validate() (string, error) {
	if c.MCPAsk.Port < 0 || c.MCPAsk.Port > 65535 {
		return "mcpAsk.port", fmt.Errorf("must be 0..65535, got %d", c.MCPAsk.Port)
	}
	if c.Telegram.Enabled && c.Telegram.BotToken == "" && c.Telegram.BotTokenEnv == "" {
		return "telegram.botToken", fmt.Errorf("telegram is enabled but neither botToken nor botTokenEnv is set")
	}
	return "", nil
}

// WebhookFile is webhook.json.
const WebhookFile = "webhook.json"

// WebhookToken is one accepted ingest token.
type WebhookToken struct {
	ID        string `json:"id"`
	Token     string `json:"token"`
	CreatedAt int64  `json:"createdAt"`
}

// Webhook configures POST /api/events/ingest on the main MCP listener. No
// tokens means ingest answers 503.
type Webhook struct {
	Tokens []WebhookToken `json:"tokens"`
}

// DefaultWebhook has no tokens.
func DefaultWebhook() Webhook { return Webhook{Tokens: []WebhookToken{}} }

// Validate rejects empty tokens.
func (c *Webhook) Validate() (string, error) {
	for i, t := range c.Tokens {
		if len(t.Token) < 8 {
			return fmt.Sprintf("tokens[%d].token", i), fmt.Errorf("must be at least 8 characters")
		}
	}
	return "", nil
}
