// Package bybit adapts Bybit's v5 REST API (unified trading account) to
// broker.Broker: USDT linear perpetuals (default) or spot, on the live,
// testnet or demo-trading endpoints.
//
// It is written against the documented wire format (bybit-exchange.github.io
// /docs/v5) with net/http rather than an SDK: the adapter needs ten
// endpoints, exact decimal strings both ways and its own mapping of retCode
// to the typed broker errors, which an SDK's generic types and errors would
// only get in the way of. The tests run it against a fake that checks the
// HMAC signature and keeps its state in a brokertest.Venue.
package bybit

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading/broker"
)

// Endpoints per mode.
const (
	LiveURL    = "https://api.bybit.com"
	TestnetURL = "https://api-testnet.bybit.com"
	DemoURL    = "https://api-demo.bybit.com"
)

// Config is the bybit preset's presetConfig. It accepts OpenAlice's shape
// ({mode, apiKey, secret}) as it is, plus env-var references for keys.
type Config struct {
	// Mode is live, testnet or demo (Bybit's demo trading: real market
	// data, simulated fills). OpenAlice defaults to live.
	Mode      string `json:"mode,omitempty"`
	APIKey    string `json:"apiKey,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty" cfg:"env"`
	Secret    string `json:"secret,omitempty"`
	SecretEnv string `json:"secretEnv,omitempty" cfg:"env"`
	// Category is linear (USDT perpetuals, default) or spot.
	Category string `json:"category,omitempty"`
	// SettleCoin is the quote/settlement coin (default USDT).
	SettleCoin string `json:"settleCoin,omitempty"`
	BaseURL    string `json:"baseUrl,omitempty" cfg:"baseurl"`
	// RecvWindowMs bounds clock skew Bybit tolerates (default 5000).
	RecvWindowMs int `json:"recvWindowMs,omitempty"`
}

// ParseConfig decodes presetConfig strictly, resolves keys from the
// environment (default BYBIT_API_KEY / BYBIT_API_SECRET) and returns the
// offending key on error.
func ParseConfig(raw json.RawMessage, getenv func(string) string) (Config, string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var c Config
	if k, err := broker.DecodePreset(raw, &c); err != nil {
		return c, k, err
	}
	if c.Mode == "" {
		c.Mode = "live"
	}
	base := map[string]string{"live": LiveURL, "testnet": TestnetURL, "demo": DemoURL}[c.Mode]
	if base == "" {
		return c, "mode", fmt.Errorf("must be live, testnet or demo, got %q", c.Mode)
	}
	if c.BaseURL == "" {
		c.BaseURL = base
	}
	if _, err := httpjson.ParseBaseURL(c.BaseURL); err != nil {
		return c, "baseUrl", fmt.Errorf("invalid URL %q", c.BaseURL)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	switch c.Category {
	case "":
		c.Category = "linear"
	case "linear", "spot":
	default:
		return c, "category", fmt.Errorf("must be linear or spot, got %q", c.Category)
	}
	if c.SettleCoin == "" {
		c.SettleCoin = "USDT"
	}
	if c.RecvWindowMs == 0 {
		c.RecvWindowMs = 5000
	}
	c.APIKey = broker.Credential(c.APIKey, c.APIKeyEnv, "BYBIT_API_KEY", getenv)
	c.Secret = broker.Credential(c.Secret, c.SecretEnv, "BYBIT_API_SECRET", getenv)
	if c.APIKey == "" {
		return c, "apiKey", errors.New("no API key: set apiKey, or apiKeyEnv naming an environment variable (default BYBIT_API_KEY); demo and testnet need keys made in that environment")
	}
	if c.Secret == "" {
		return c, "secret", errors.New("no API secret: set secret, or secretEnv (default BYBIT_API_SECRET)")
	}
	return c, "", nil
}

// client signs and sends v5 requests through the shared HTTP/JSON client;
// the HMAC signature is its Prepare hook, so a retried read is signed again
// with a fresh timestamp. Orders (POST) are never retried.
type client struct {
	cfg  Config
	http *httpjson.Client
	log  *slog.Logger
	now  func() time.Time
	err  error // a base URL httpjson refused; every call reports it
}

func newClient(cfg Config, log *slog.Logger) *client {
	c := &client{cfg: cfg, log: log, now: time.Now}
	c.http, c.err = httpjson.New(httpjson.Options{Name: "bybit", BaseURL: cfg.BaseURL, Timeout: 20 * time.Second,
		Retries: 1, Backoff: 150 * time.Millisecond, MaxBackoff: 2 * time.Second,
		MaxBody: 8 << 20, Clip: 200, Prepare: c.sign})
	return c
}

// sign adds the v5 authentication headers for this attempt.
func (c *client) sign(req *http.Request, body []byte) error {
	payload := req.URL.RawQuery
	if body != nil {
		payload = string(body)
	}
	ts := strconv.FormatInt(c.now().UnixMilli(), 10)
	rw := strconv.Itoa(c.cfg.RecvWindowMs)
	req.Header.Set("X-BAPI-API-KEY", c.cfg.APIKey)
	req.Header.Set("X-BAPI-TIMESTAMP", ts)
	req.Header.Set("X-BAPI-RECV-WINDOW", rw)
	req.Header.Set("X-BAPI-SIGN", Sign(c.cfg.Secret, ts, c.cfg.APIKey, rw, payload))
	return nil
}

// envelope is every v5 answer.
type envelope struct {
	RetCode wireInt         `json:"retCode"`
	RetMsg  string          `json:"retMsg"`
	Result  json.RawMessage `json:"result"`
}

// Sign computes X-BAPI-SIGN: HMAC-SHA256 over timestamp, key, recv window
// and the query string (GET) or JSON body (POST), hex encoded.
func Sign(secret, timestamp, apiKey, recvWindow, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(timestamp + apiKey + recvWindow + payload))
	return hex.EncodeToString(m.Sum(nil))
}

// get and post decode result into out.
func (c *client) get(ctx context.Context, path string, q url.Values, out any) error {
	return c.do(ctx, httpjson.Request{Method: http.MethodGet, Path: path, Query: q}, out)
}

func (c *client) post(ctx context.Context, path string, body any, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return c.do(ctx, httpjson.Request{Method: http.MethodPost, Path: path, RawBody: b}, out)
}

func (c *client) do(ctx context.Context, r httpjson.Request, out any) error {
	method, path := r.Method, r.Path
	if c.err != nil {
		return &broker.Error{Code: broker.CodeConfig, Msg: "bybit base URL", Err: c.err}
	}
	resp, err := c.http.Do(ctx, r)
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se) && se.Status == http.StatusUnauthorized:
		return &broker.Error{Code: broker.CodeAuth, Msg: fmt.Sprintf("%s %s: HTTP 401", method, path), Hint: authHint}
	case errors.As(err, &se) && (se.Status == http.StatusForbidden || se.Status == http.StatusTooManyRequests || se.Status >= 500):
		// Bybit answers 403 when an IP exceeds the rate limit.
		return &broker.Error{Code: broker.CodeNetwork, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, se.Status, se.Body), Hint: "Bybit is throttling or unavailable; retry shortly"}
	case errors.As(err, &se):
		return &broker.Error{Code: broker.CodeExchange, Msg: fmt.Sprintf("%s %s: HTTP %d: %s", method, path, se.Status, se.Body)}
	case err != nil:
		return &broker.Error{Code: broker.CodeNetwork, Msg: method + " " + path, Err: err}
	}
	var env envelope
	if err := json.Unmarshal(resp.Body, &env); err != nil {
		return &broker.Error{Code: broker.CodeBadData, Msg: "decode " + path, Err: err}
	}
	if env.RetCode != 0 {
		code := codeFor(int(env.RetCode))
		e := &broker.Error{Code: code, Msg: fmt.Sprintf("%s %s: retCode %d: %s", method, path, env.RetCode, env.RetMsg)}
		if code == broker.CodeAuth {
			e.Hint = authHint
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return &broker.Error{Code: broker.CodeBadData, Msg: "decode " + path, Err: err,
			Hint: "Bybit's answer did not parse strictly; nothing was derived from it (no value became zero)"}
	}
	return nil
}

const authHint = "check the Bybit apiKey/secret in accounts.json: live, testnet and demo each need keys created in that environment, with trade permission"

// codeFor maps v5 retCodes (bybit-exchange.github.io/docs/v5/error) to
// broker codes.
func codeFor(ret int) broker.Code {
	switch ret {
	case 10003, 10004, 10005, 10007, 10009, 10010, 33004:
		return broker.CodeAuth // invalid key, bad sign, permission, IP, banned, expired
	case 10002, 10006, 10016, 10018, 10429:
		return broker.CodeNetwork // clock skew, rate limit, server error, IP limit
	case 110001, 170213:
		return broker.CodeNotFound // order does not exist
	}
	return broker.CodeExchange // params, balance, duplicate orderLinkId, risk limits…
}
