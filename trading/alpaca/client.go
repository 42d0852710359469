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
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
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
	APIKeyEnv    string `json:"apiKeyEnv,omitempty" cfg:"env"`
	APISecret    string `json:"apiSecret,omitempty"`
	APISecretEnv string `json:"apiSecretEnv,omitempty" cfg:"env"`
	// Paper selects the paper endpoint (default true).
	Paper *bool `json:"paper,omitempty"`
	// Mode is OpenAlice's spelling of the same choice: "paper" or "live".
	Mode    string `json:"mode,omitempty"`
	BaseURL string `json:"baseUrl,omitempty" cfg:"baseurl"`
	DataURL string `json:"dataUrl,omitempty" cfg:"baseurl"`
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
		if _, err := httpjson.ParseBaseURL(u); err != nil {
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

// client sends Alpaca requests through the shared HTTP/JSON client: one
// for the trading API, one for market data. The API key pair is added by a
// Prepare hook; a read is retried once on a transient failure, an order
// never.
type client struct {
	cfg     Config
	trading *httpjson.Client
	data    *httpjson.Client
	http    *http.Client
	logger  *slog.Logger
	err     error // a base URL httpjson refused; every call reports it
}

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// do sends a request to base (cfg.BaseURL or cfg.DataURL) and decodes a
// JSON answer into out (when non-nil), mapping HTTP failures to broker
// error codes.
func (c *client) do(ctx context.Context, method, base, path string, q url.Values, body, out any) error {
	if c.err != nil {
		return &broker.Error{Code: broker.CodeConfig, Msg: "alpaca base URL", Err: c.err}
	}
	hc := c.trading
	if base == c.cfg.DataURL && base != c.cfg.BaseURL {
		hc = c.data
	} else if base != c.cfg.BaseURL {
		var err error
		if hc, err = c.clientFor(base); err != nil {
			return &broker.Error{Code: broker.CodeConfig, Msg: "build request", Err: err}
		}
	}
	resp, err := hc.Do(ctx, httpjson.Request{Method: method, Path: path, Query: q, Body: body})
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se):
		var ae apiError
		_ = json.Unmarshal(se.Raw, &ae)
		msg := ae.Message
		if msg == "" {
			msg = se.Body
		}
		code := codeFor(se.Status, msg)
		return &broker.Error{Code: code, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, se.Status, msg), Hint: hintFor(se.Status, code)}
	case err != nil:
		return &broker.Error{Code: broker.CodeNetwork, Msg: method + " " + path, Err: err}
	}
	if out == nil || len(bytes.TrimSpace(resp.Body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return &broker.Error{Code: broker.CodeBadData, Msg: "decode " + path, Err: err,
			Hint: "Alpaca's answer did not parse strictly; nothing was derived from it (no value became zero)"}
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
	c := &client{cfg: cfg, http: &http.Client{Timeout: 20 * time.Second}, logger: logger}
	if c.trading, c.err = c.clientFor(cfg.BaseURL); c.err == nil {
		c.data, c.err = c.clientFor(cfg.DataURL)
	}
	return c
}

// clientFor builds the HTTP/JSON client for one Alpaca host.
func (c *client) clientFor(base string) (*httpjson.Client, error) {
	return httpjson.New(httpjson.Options{Name: "alpaca", BaseURL: base, HTTP: c.http, Retries: 1,
		Backoff: 150 * time.Millisecond, MaxBackoff: 2 * time.Second, MaxBody: 8 << 20, Clip: 500,
		Prepare: func(req *http.Request, _ []byte) error {
			req.Header.Set("APCA-API-KEY-ID", c.cfg.APIKey)
			req.Header.Set("APCA-API-SECRET-KEY", c.cfg.APISecret)
			return nil
		}})
}
