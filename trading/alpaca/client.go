// Package alpaca adapts Alpaca's REST trading API (v2) and its market data
// API to broker.Broker. It speaks plain net/http so it can be tested
// against an httptest server and needs no SDK; the paper endpoint is the
// default and every URL is configurable.
package alpaca

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/alice-trading/alice/trading/broker"
)

// Default endpoints.
const (
	PaperURL = "https://paper-api.alpaca.markets"
	LiveURL  = "https://api.alpaca.markets"
	DataURL  = "https://data.alpaca.markets"
)

// Config is the alpaca preset's presetConfig.
type Config struct {
	APIKey       string `json:"apiKey,omitempty"`
	APIKeyEnv    string `json:"apiKeyEnv,omitempty"`
	APISecret    string `json:"apiSecret,omitempty"`
	APISecretEnv string `json:"apiSecretEnv,omitempty"`
	// Paper selects the paper endpoint (default true).
	Paper *bool `json:"paper,omitempty"`
	// Mode is OpenAlice's spelling of the same choice: "paper" or "live".
	Mode    string `json:"mode,omitempty"`
	BaseURL string `json:"baseUrl,omitempty"`
	DataURL string `json:"dataUrl,omitempty"`
}

// ParseConfig decodes presetConfig strictly and resolves keys from the
// environment (apiKeyEnv, default APCA_API_KEY_ID; apiSecretEnv, default
// APCA_API_SECRET_KEY). On error it returns the offending key.
func ParseConfig(raw json.RawMessage, getenv func(string) string) (Config, string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var c Config
	if k, err := broker.DecodePreset(raw, &c); err != nil {
		return c, k, err
	}
	switch c.Mode {
	case "":
	case "paper", "live":
		if c.Paper != nil && *c.Paper != (c.Mode == "paper") {
			return c, "paper", fmt.Errorf("contradicts mode %q (set one of them)", c.Mode)
		}
		paper := c.Mode == "paper"
		c.Paper = &paper
	default:
		return c, "mode", fmt.Errorf("must be \"paper\" or \"live\", got %q", c.Mode)
	}
	c.APIKey = broker.Credential(c.APIKey, c.APIKeyEnv, "APCA_API_KEY_ID", getenv)
	c.APISecret = broker.Credential(c.APISecret, c.APISecretEnv, "APCA_API_SECRET_KEY", getenv)
	if c.APIKey == "" {
		return c, "apiKey", errors.New("no API key: set apiKey, or apiKeyEnv naming an environment variable (default APCA_API_KEY_ID)")
	}
	if c.APISecret == "" {
		return c, "apiSecret", errors.New("no API secret: set apiSecret, or apiSecretEnv (default APCA_API_SECRET_KEY)")
	}
	if c.BaseURL == "" {
		c.BaseURL = PaperURL
		if c.Paper != nil && !*c.Paper {
			c.BaseURL = LiveURL
		}
	}
	if c.DataURL == "" {
		c.DataURL = DataURL
	}
	for k, u := range map[string]string{"baseUrl": c.BaseURL, "dataUrl": c.DataURL} {
		if p, err := url.Parse(u); err != nil || p.Scheme == "" || p.Host == "" {
			return c, k, fmt.Errorf("invalid URL %q", u)
		}
	}
	c.BaseURL, c.DataURL = strings.TrimRight(c.BaseURL, "/"), strings.TrimRight(c.DataURL, "/")
	return c, "", nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type client struct {
	cfg    Config
	http   *http.Client
	logger *slog.Logger
}

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// do sends a request and decodes a JSON answer into out (when non-nil),
// mapping HTTP failures to broker error codes.
func (c *client) do(ctx context.Context, method, base, path string, q url.Values, body, out any) error {
	u := base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return &broker.Error{Code: broker.CodeConfig, Msg: "build request", Err: err}
	}
	req.Header.Set("APCA-API-KEY-ID", c.cfg.APIKey)
	req.Header.Set("APCA-API-SECRET-KEY", c.cfg.APISecret)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &broker.Error{Code: broker.CodeNetwork, Msg: method + " " + path, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return &broker.Error{Code: broker.CodeNetwork, Msg: "read response", Err: err}
	}
	if resp.StatusCode >= 300 {
		var ae apiError
		_ = json.Unmarshal(data, &ae)
		msg := ae.Message
		if msg == "" {
			msg = strings.TrimSpace(string(data))
		}
		code := codeFor(resp.StatusCode, msg)
		return &broker.Error{Code: code, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, msg), Hint: hintFor(resp.StatusCode, code)}
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &broker.Error{Code: broker.CodeExchange, Msg: "decode " + path, Err: err}
	}
	return nil
}

func codeFor(status int, msg string) broker.Code {
	switch {
	case status == http.StatusUnauthorized:
		return broker.CodeAuth
	case status == http.StatusForbidden:
		// Alpaca answers 403 both for keys without permission and for
		// orders it refuses (insufficient buying power, wash trades, PDT):
		// only the former is an authentication problem.
		m := strings.ToLower(msg)
		switch {
		case strings.Contains(m, "market") && strings.Contains(m, "closed"):
			return broker.CodeMarketClosed
		case strings.Contains(m, "forbidden"), strings.Contains(m, "not authorized"), strings.Contains(m, "unauthorized"), strings.Contains(m, "access"):
			return broker.CodeAuth
		}
		return broker.CodeExchange
	case status == http.StatusNotFound:
		return broker.CodeNotFound
	case status == http.StatusTooManyRequests, status >= 500:
		return broker.CodeNetwork
	}
	return broker.CodeExchange
}

func hintFor(status int, code broker.Code) string {
	switch {
	case code == broker.CodeAuth:
		return "check the Alpaca API key/secret in accounts.json (paper keys only work against the paper endpoint)"
	case status == http.StatusTooManyRequests:
		return "rate limited by Alpaca; retry shortly"
	}
	return ""
}

func newClient(cfg Config, logger *slog.Logger) *client {
	if logger == nil {
		logger = slog.Default()
	}
	return &client{cfg: cfg, http: &http.Client{Timeout: 20 * time.Second}, logger: logger}
}
