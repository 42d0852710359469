package settings

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
)

// Listener names an MCP listener whose bearer token the service manages.
type Listener string

// The listeners with a token.
const (
	MainListener Listener = "main" // mcp.json token
	AskListener  Listener = "ask"  // connectors.json mcpAsk.token
)

// ParseListener accepts "main" or "ask".
func ParseListener(s string) (Listener, error) {
	switch l := Listener(strings.TrimSpace(s)); l {
	case MainListener, AskListener:
		return l, nil
	}
	return "", fmt.Errorf("unknown listener %q (main or ask)", s)
}

func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b)
}

// NewMCPToken stores a fresh bearer token for a listener and returns it.
// The running listener picks it up on the next request.
func (s *Service) NewMCPToken(l Listener) (string, error) {
	tok := newToken()
	return tok, s.setMCPToken(l, tok)
}

// RevokeMCPToken removes a listener's bearer token.
func (s *Service) RevokeMCPToken(l Listener) error { return s.setMCPToken(l, "") }

func (s *Service) setMCPToken(l Listener, tok string) error {
	switch l {
	case MainListener:
		_, _, err := config.Edit(s.store, config.MCPFile, "", config.DefaultMCP, func(m *config.MCP) error { m.Token = tok; return nil })
		if err == nil {
			s.changed(config.MCPFile)
		}
		return err
	case AskListener:
		return s.editConnectors("", func(cn *config.Connectors) error { cn.MCPAsk.Token = tok; return nil })
	}
	return fmt.Errorf("unknown listener %q (main or ask)", l)
}

// WebhookToken is a webhook token as created: the secret and a ready curl
// line are shown once.
type WebhookToken struct {
	ID        string
	Token     string
	CreatedAt time.Time
	Curl      string
}

// CreateWebhookToken adds a webhook token to webhook.json.
func (s *Service) CreateWebhookToken() (WebhookToken, error) {
	t := config.WebhookToken{ID: "wh-" + newToken()[:8], Token: newToken(), CreatedAt: time.Now().UnixMilli()}
	_, _, err := config.Edit(s.store, config.WebhookFile, "", config.DefaultWebhook, func(w *config.Webhook) error {
		w.Tokens = append(w.Tokens, t)
		return nil
	})
	if err != nil {
		return WebhookToken{}, err
	}
	s.changed(config.WebhookFile)
	base := "http://127.0.0.1:3001"
	if s.o.MainURL != nil {
		if u := s.o.MainURL(); u != "" {
			base = strings.TrimSuffix(u, "/mcp")
		}
	}
	curl := fmt.Sprintf(`curl -X POST %s/api/events/ingest -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' -d '{"type":"task.requested","payload":{"prompt":"Check the portfolio"}}'`, base, t.Token)
	return WebhookToken{ID: t.ID, Token: t.Token, CreatedAt: time.UnixMilli(t.CreatedAt), Curl: curl}, nil
}

// RevokeWebhookToken removes a webhook token (it stops working at once).
func (s *Service) RevokeWebhookToken(id string) error {
	_, _, err := config.Edit(s.store, config.WebhookFile, "", config.DefaultWebhook, func(w *config.Webhook) error {
		for i, t := range w.Tokens {
			if t.ID == id {
				w.Tokens = append(w.Tokens[:i], w.Tokens[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("no webhook token %q", id)
	})
	if err == nil {
		s.changed(config.WebhookFile)
	}
	return err
}
