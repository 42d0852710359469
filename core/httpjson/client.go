// Package httpjson is alice's one HTTP/JSON client: a base URL checked once,
// default headers, a timeout, an optional rate limit and response cache,
// typed errors for non-2xx answers and transport failures, and retries with
// bounded exponential backoff for idempotent requests only. Research
// sources, market data backends, broker adapters and the Telegram Bot API
// client all send their requests through it; what differs between them
// (request signing, API keys in a path, envelope formats, mapping errors to
// domain codes) stays with the caller as a Prepare hook or as code that
// inspects the typed errors.
//
// It is a neutral low-level package: it imports nothing from alice, so the
// kernel (core) and every domain zone can use it.
package httpjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Defaults used when Options leave a field zero.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxBody    = 16 << 20
	DefaultClip       = 300
	DefaultBackoff    = 250 * time.Millisecond
	DefaultMaxBackoff = 5 * time.Second
)

// Options configure a Client. Only BaseURL is required.
type Options struct {
	// Name labels errors, e.g. "SEC EDGAR" or "alpaca".
	Name string
	// BaseURL is scheme://host[/path]; a trailing slash is ignored.
	BaseURL string
	// HTTP is the transport client; nil means one with Timeout.
	HTTP *http.Client
	// Timeout bounds one attempt when HTTP is nil (0: DefaultTimeout).
	Timeout time.Duration
	// Headers are sent with every request (Accept: application/json is
	// added unless set here).
	Headers http.Header
	// PerSecond > 0 spaces requests (every attempt) to that rate with a
	// burst of Burst (0: 1).
	PerSecond float64
	Burst     int
	// CacheTTL > 0 keeps successful answers to idempotent requests that
	// long; CacheEntries bounds the cache (0: 256), oldest out first.
	CacheTTL     time.Duration
	CacheEntries int
	// Retries is how many times an idempotent request is tried again after
	// a transport error or a 429/502/503/504 answer. Backoff doubles from
	// Backoff up to MaxBackoff (a Retry-After header is honoured up to
	// MaxBackoff too).
	Retries    int
	Backoff    time.Duration
	MaxBackoff time.Duration
	// MaxBody caps how much of an answer is read (0: DefaultMaxBody).
	MaxBody int64
	// Clip caps the error body kept in StatusError.Body, in runes (0:
	// DefaultClip).
	Clip int
	// Prepare runs on every attempt just before sending, with the request
	// body; brokers sign requests here (so a retry gets a fresh timestamp).
	Prepare func(req *http.Request, body []byte) error
	// Now and Sleep are test seams (nil: the real clock).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client sends JSON requests to one base URL. It is safe for concurrent use.
type Client struct {
	name    string
	base    *url.URL
	http    *http.Client
	headers http.Header
	limiter *rate.Limiter
	cache   *cache
	retries int
	backoff time.Duration
	maxWait time.Duration
	maxBody int64
	clip    int
	prepare func(*http.Request, []byte) error
	sleep   func(context.Context, time.Duration) error
}

// New checks the base URL and builds a client.
func New(o Options) (*Client, error) {
	base, err := ParseBaseURL(o.BaseURL)
	if err != nil {
		if o.Name != "" {
			return nil, fmt.Errorf("%s: %w", o.Name, err)
		}
		return nil, err
	}
	c := &Client{name: o.Name, base: base, http: o.HTTP, headers: o.Headers.Clone(), retries: max(o.Retries, 0),
		backoff: o.Backoff, maxWait: o.MaxBackoff, maxBody: o.MaxBody, clip: o.Clip, prepare: o.Prepare, sleep: o.Sleep}
	if c.http == nil {
		t := o.Timeout
		if t <= 0 {
			t = DefaultTimeout
		}
		c.http = &http.Client{Timeout: t}
	}
	if c.headers == nil {
		c.headers = http.Header{}
	}
	if c.headers.Get("Accept") == "" {
		c.headers.Set("Accept", "application/json")
	}
	if o.PerSecond > 0 {
		c.limiter = rate.NewLimiter(rate.Limit(o.PerSecond), max(o.Burst, 1))
	}
	if o.CacheTTL > 0 {
		now := o.Now
		if now == nil {
			now = time.Now
		}
		c.cache = newCache(o.CacheTTL, o.CacheEntries, now)
	}
	if c.backoff <= 0 {
		c.backoff = DefaultBackoff
	}
	if c.maxWait <= 0 {
		c.maxWait = DefaultMaxBackoff
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBody
	}
	if c.clip <= 0 {
		c.clip = DefaultClip
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	return c, nil
}

// ParseBaseURL accepts an absolute http(s) URL with a host and no query or
// fragment, and drops a trailing slash.
func ParseBaseURL(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(s), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("invalid base URL %q (want http(s)://host[/path])", s)
	}
	return u, nil
}

// Name is the label errors carry.
func (c *Client) Name() string { return c.name }

// Request is one call. Path is appended to the base URL's path and must
// already be escaped (url.PathEscape each variable segment).
type Request struct {
	Method string // "" means GET, or POST when Body/RawBody is set
	Path   string
	Query  url.Values
	// Body is JSON-encoded; RawBody is sent as it is (Content-Type from
	// Header, default application/json).
	Body    any
	RawBody []byte
	Header  http.Header
	// Idempotent marks a POST/PUT/DELETE as safe to retry and cache (e.g.
	// a query sent as POST). GET, HEAD and OPTIONS always are.
	Idempotent bool
	// NoCache skips the cache for this call.
	NoCache bool
}

func (r *Request) method() string {
	switch {
	case r.Method != "":
		return strings.ToUpper(r.Method)
	case r.Body != nil || r.RawBody != nil:
		return http.MethodPost
	}
	return http.MethodGet
}

func (r *Request) idempotent() bool {
	switch r.method() {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return r.Idempotent
}

// Response is a 2xx answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	Cached bool
}

// Decode unmarshals the body into v, keeping numbers as json.Number.
func (r *Response) Decode(v any) error {
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.UseNumber()
	return dec.Decode(v)
}

// URL is the absolute URL of path and query on this client's base.
func (c *Client) URL(path string, query url.Values) (string, error) {
	u := *c.base
	unescaped, err := url.PathUnescape(path)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", path, err)
	}
	u.Path = c.base.Path + unescaped
	u.RawPath = c.base.EscapedPath() + path
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	return u.String(), nil
}

// Do sends the request (from the cache when fresh), retrying idempotent
// requests on transient failures. A non-2xx answer is a *StatusError, a
// failure to get any answer a *TransportError; neither quotes the URL, so
// keys in paths or queries stay out of logs.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	method := r.method()
	payload := r.RawBody
	if r.Body != nil && payload == nil {
		b, err := json.Marshal(r.Body)
		if err != nil {
			return nil, fmt.Errorf("%s %s %s: encode body: %w", c.name, method, r.Path, err)
		}
		payload = b
	}
	u, err := c.URL(r.Path, r.Query)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	idem := r.idempotent()
	key := ""
	if c.cache != nil && idem && !r.NoCache {
		key = method + " " + u + "\x00" + string(payload)
		if resp, ok := c.cache.get(key); ok {
			return resp, nil
		}
	}
	attempts := 1
	if idem {
		attempts += c.retries
	}
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if err := c.sleep(ctx, c.wait(i, last)); err != nil {
				return nil, &TransportError{Source: c.name, Method: method, Path: r.Path, Err: err}
			}
		}
		resp, err := c.once(ctx, method, u, r, payload)
		if err == nil {
			if key != "" {
				c.cache.put(key, resp)
			}
			return resp, nil
		}
		last = err
		if !retryable(ctx, err) {
			break
		}
	}
	return nil, last
}

// once is one attempt.
func (c *Client) once(ctx context.Context, method, u string, r Request, payload []byte) (*Response, error) {
	fail := func(err error) error {
		return &TransportError{Source: c.name, Method: method, Path: r.Path, Err: err}
	}
	if c.limiter != nil {
		if err := c.limiter.Wait(ctx); err != nil {
			return nil, fail(err)
		}
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, fail(err)
	}
	for k, vs := range c.headers {
		req.Header[k] = append([]string(nil), vs...)
	}
	for k, vs := range r.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if payload != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.prepare != nil {
		if err := c.prepare(req, payload); err != nil {
			return nil, fmt.Errorf("%s %s %s: %w", c.name, method, r.Path, err)
		}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL may carry a key or token
		}
		return nil, fail(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody))
	if err != nil {
		return nil, fail(fmt.Errorf("reading response: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &StatusError{Source: c.name, Method: method, Path: r.Path, Status: resp.StatusCode,
			Body: Clip(string(data), c.clip), Raw: data, RetryAfter: retryAfter(resp.Header.Get("Retry-After"))}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// wait is the pause before attempt i (1-based): Backoff·2^(i-1), or the
// server's Retry-After, never more than MaxBackoff.
func (c *Client) wait(i int, last error) time.Duration {
	d := c.backoff << (i - 1)
	if d <= 0 || d > c.maxWait {
		d = c.maxWait
	}
	var se *StatusError
	if errors.As(last, &se) && se.RetryAfter > 0 {
		d = min(se.RetryAfter, c.maxWait)
	}
	return d
}

// retryable: transport failures (unless our context ended) and the
// statuses that mean "try again later".
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		switch se.Status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	var te *TransportError
	if !errors.As(err, &te) {
		return false
	}
	// A name that does not resolve does not resolve a moment later either
	// (offline, or a typo in the base URL): the caller hears it at once.
	var dns *net.DNSError
	return !errors.As(err, &dns) || !dns.IsNotFound
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// JSON sends the request and decodes a 2xx body into v (numbers as
// json.Number); v nil or an empty body decodes nothing.
func (c *Client) JSON(ctx context.Context, r Request, v any) error {
	resp, err := c.Do(ctx, r)
	if err != nil {
		return err
	}
	if v == nil || len(bytes.TrimSpace(resp.Body)) == 0 {
		return nil
	}
	if err := resp.Decode(v); err != nil {
		return &DecodeError{Source: c.name, Method: r.method(), Path: r.Path, Err: err}
	}
	return nil
}

// Get is JSON for a GET of path?query.
func (c *Client) Get(ctx context.Context, path string, query url.Values, v any) error {
	return c.JSON(ctx, Request{Path: path, Query: query}, v)
}
