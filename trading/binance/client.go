// Package binance adapts Binance's REST APIs to broker.Broker: spot
// (/api/v3) or USDⓈ-M futures (/fapi), on live, demo-trading or testnet
// endpoints, with HMAC-SHA256 signed requests.
//
// Like the Bybit adapter it is written against the documented wire format
// (developers.binance.com) with the shared httpjson client rather than an
// SDK: a dozen endpoints, exact decimal strings both ways and a mapping of
// Binance's error codes to the typed broker errors. One account is one
// market (spot or futures), because Binance keeps them in separate wallets
// and alice accounts are single-wallet. The tests run it against a fake
// that checks the signature and keeps its state in a brokertest.Venue, and
// decode CCXT's recorded Binance responses.
package binance

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

// Endpoints per market and mode.
var endpoints = map[string]map[string]string{
	"spot": {
		"live":    "https://api.binance.com",
		"demo":    "https://demo-api.binance.com",
		"testnet": "https://testnet.binance.vision",
	},
	"futures": {
		"live":    "https://fapi.binance.com",
		"demo":    "https://demo-fapi.binance.com",
		"testnet": "https://testnet.binancefuture.com",
	},
}

// Config is the binance preset's presetConfig: OpenAlice's shape ({mode,
// apiKey, secret}) plus the market and env-var references for keys.
type Config struct {
	// Mode is live, demo (Binance Demo Trading: virtual funds) or testnet.
	Mode      string `json:"mode,omitempty"`
	APIKey    string `json:"apiKey,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty" cfg:"env"`
	Secret    string `json:"secret,omitempty"`
	SecretEnv string `json:"secretEnv,omitempty" cfg:"env"`
	// Market is spot (default) or futures (USDⓈ-M perpetuals).
	Market string `json:"market,omitempty"`
	// Quote is the quote/settlement asset (default USDT).
	Quote   string `json:"quote,omitempty"`
	BaseURL string `json:"baseUrl,omitempty" cfg:"baseurl"`
	// RecvWindowMs bounds the clock skew Binance tolerates (default 5000).
	RecvWindowMs int `json:"recvWindowMs,omitempty"`
}

// ParseConfig decodes presetConfig strictly, resolves keys from the
// environment (default BINANCE_API_KEY / BINANCE_API_SECRET) and returns
// the offending key on error.
func ParseConfig(raw json.RawMessage, getenv func(string) string) (Config, string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var c Config
	if k, err := broker.DecodePreset(raw, &c); err != nil {
		return c, k, err
	}
	switch c.Market {
	case "":
		c.Market = "spot"
	case "spot", "futures":
	default:
		return c, "market", fmt.Errorf("must be spot or futures (USDⓈ-M), got %q", c.Market)
	}
	if c.Mode == "" {
		c.Mode = "live"
	}
	base, ok := endpoints[c.Market][c.Mode]
	if !ok {
		return c, "mode", fmt.Errorf("must be live, demo or testnet, got %q", c.Mode)
	}
	if c.BaseURL == "" {
		c.BaseURL = base
	}
	if _, err := httpjson.ParseBaseURL(c.BaseURL); err != nil {
		return c, "baseUrl", fmt.Errorf("invalid URL %q", c.BaseURL)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Quote == "" {
		c.Quote = "USDT"
	}
	c.Quote = strings.ToUpper(c.Quote)
	if c.RecvWindowMs == 0 {
		c.RecvWindowMs = 5000
	}
	if c.RecvWindowMs < 0 || c.RecvWindowMs > 60000 {
		return c, "recvWindowMs", fmt.Errorf("must be 1..60000, got %d", c.RecvWindowMs)
	}
	c.APIKey = broker.Credential(c.APIKey, c.APIKeyEnv, "BINANCE_API_KEY", getenv)
	c.Secret = broker.Credential(c.Secret, c.SecretEnv, "BINANCE_API_SECRET", getenv)
	if c.APIKey == "" {
		return c, "apiKey", errors.New("no API key: set apiKey, or apiKeyEnv naming an environment variable (default BINANCE_API_KEY); demo and testnet need keys made there")
	}
	if c.Secret == "" {
		return c, "secret", errors.New("no API secret: set secret, or secretEnv (default BINANCE_API_SECRET)")
	}
	return c, "", nil
}

// Sign is Binance's SIGNED-endpoint signature: HMAC-SHA256 of the query
// string (timestamp and recvWindow included), hex encoded.
func Sign(secret, payload string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(payload))
	return hex.EncodeToString(m.Sum(nil))
}

// client sends requests through the shared HTTP/JSON client. Signed
// requests carry every parameter in the query string; the Prepare hook
// adds timestamp, recvWindow and signature per attempt, so a retried read
// is signed afresh. Orders are never retried.
type client struct {
	cfg  Config
	http *httpjson.Client
	log  *slog.Logger
	now  func() time.Time
	err  error
}

func newClient(cfg Config, log *slog.Logger) *client {
	c := &client{cfg: cfg, log: log, now: time.Now}
	c.http, c.err = httpjson.New(httpjson.Options{Name: "binance", BaseURL: cfg.BaseURL, Timeout: 20 * time.Second,
		Retries: 1, Backoff: 150 * time.Millisecond, MaxBackoff: 2 * time.Second, MaxBody: 16 << 20, Clip: 200,
		Headers: http.Header{"X-MBX-APIKEY": {cfg.APIKey}}, Prepare: c.sign})
	return c
}

// signedHeader marks a request for the Prepare hook.
const signedHeader = "X-Alice-Signed"

func (c *client) sign(req *http.Request, _ []byte) error {
	if req.Header.Get(signedHeader) == "" {
		return nil
	}
	req.Header.Del(signedHeader)
	q := req.URL.Query()
	q.Del("signature")
	q.Set("timestamp", strconv.FormatInt(c.now().UnixMilli(), 10))
	q.Set("recvWindow", strconv.Itoa(c.cfg.RecvWindowMs))
	payload := q.Encode()
	req.URL.RawQuery = payload + "&signature=" + Sign(c.cfg.Secret, payload)
	return nil
}

// apiError is Binance's error body.
type apiError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

// call sends one request; signed requests are authenticated.
func (c *client) call(ctx context.Context, method, path string, q url.Values, signed bool, out any) error {
	if c.err != nil {
		return &broker.Error{Code: broker.CodeConfig, Msg: "binance base URL", Err: c.err}
	}
	r := httpjson.Request{Method: method, Path: path, Query: q, Header: http.Header{}, NoCache: true}
	if signed {
		r.Header.Set(signedHeader, "1")
	}
	resp, err := c.http.Do(ctx, r)
	var se *httpjson.StatusError
	switch {
	case errors.As(err, &se):
		var ae apiError
		_ = json.Unmarshal(se.Raw, &ae)
		code := codeFor(se.Status, ae.Code)
		e := &broker.Error{Code: code, Msg: fmt.Sprintf("%s %s: HTTP %d: code %d: %s", method, path, se.Status, ae.Code, ae.Msg)}
		if ae.Msg == "" {
			e.Msg = fmt.Sprintf("%s %s: HTTP %d: %s", method, path, se.Status, se.Body)
		}
		switch code {
		case broker.CodeAuth:
			e.Hint = authHint
		case broker.CodeNetwork:
			e.Hint = "Binance is throttling or unavailable (or the clock is off by more than recvWindowMs); retry shortly"
		}
		return e
	case err != nil:
		return &broker.Error{Code: broker.CodeNetwork, Msg: method + " " + path, Err: err}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return &broker.Error{Code: broker.CodeExchange, Msg: "decode " + path, Err: err}
	}
	return nil
}

const authHint = "check the Binance apiKey/secret in accounts.json: live, demo and testnet each need keys created there, with trading enabled (and futures enabled for market: futures)"

// codeFor maps HTTP statuses and Binance error codes
// (developers.binance.com, "Error codes") to broker codes.
func codeFor(status, code int) broker.Code {
	switch {
	case status == http.StatusUnauthorized || code == -2014 || code == -2015 || code == -1022 || code == -2008:
		return broker.CodeAuth // bad key format, invalid key/IP/permissions, bad signature
	case status == http.StatusTooManyRequests || status == 418 || status >= 500 || code == -1003 || code == -1021 || code == -1001 || code == -1007:
		return broker.CodeNetwork // rate limit, IP ban, timestamp outside recvWindow, disconnected, timeout
	case code == -2013 || code == -2011 || code == -1121:
		return broker.CodeNotFound // order does not exist, unknown order on cancel, invalid symbol
	}
	return broker.CodeExchange // -2010 rejected (balance, duplicate clientOrderId), -1013 filters, -4xxx futures rules…
}
