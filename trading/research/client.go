// Package research answers the fundamentals, calendar, discovery and macro
// research tools (equityGetFinancials … economyPetroleumStatus) from free
// public sources: SEC EDGAR (company facts, Form 4), Nasdaq's earnings
// calendar, Yahoo's predefined screens, FRED, BLS and EIA.
//
// Every source goes through one fetcher that caches answers for a while
// and spaces requests to stay inside the source's published rate limit, so
// an agent looping over tickers cannot get alice's address blocked.
package research

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxBody caps a response; SEC company facts for large filers are ~10 MB.
const maxBody = 32 << 20

// MissingKeyError says which key a source needs and where to put it.
type MissingKeyError struct {
	Source string // "FRED", "EIA"
	Env    string // the environment variable the config names
	Key    string // the research.json key, e.g. "fred.apiKey"
}

func (e *MissingKeyError) Error() string {
	where := fmt.Sprintf("research.json %q", e.Key)
	if e.Env != "" {
		where = fmt.Sprintf("the %s environment variable or %s", e.Env, where)
	}
	return fmt.Sprintf("%s API key missing: set %s (free key from the %s website)", e.Source, where, e.Source)
}

// StatusError is a non-2xx reply from a source.
type StatusError struct {
	Source string
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s HTTP %d: %s", e.Source, e.Status, e.Body)
}

// source is one endpoint family with its own limiter and headers.
type source struct {
	name    string
	base    *url.URL
	headers http.Header
	limiter *rate.Limiter
}

func newSource(name, baseURL, fallback string, perSecond float64, headers http.Header) (*source, error) {
	if baseURL == "" {
		baseURL = fallback
	}
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s: invalid base URL %q", name, baseURL)
	}
	return &source{name: name, base: u, headers: headers, limiter: rate.NewLimiter(rate.Limit(perSecond), 1)}, nil
}

// fetcher performs cached, rate-limited requests.
type fetcher struct {
	client *http.Client
	ttl    time.Duration
	now    func() time.Time

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	body []byte
	at   time.Time
}

// maxCacheEntries bounds memory; the oldest entries go first.
const maxCacheEntries = 256

func newFetcher(client *http.Client, ttl time.Duration) *fetcher {
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	return &fetcher{client: client, ttl: ttl, now: time.Now, cache: map[string]cached{}}
}

// request describes one call; Body non-nil makes it a POST.
type request struct {
	src   *source
	path  string
	query url.Values
	body  any
}

func (r request) url() string {
	u := *r.src.base
	u.Path = r.src.base.Path + r.path
	if r.query != nil {
		u.RawQuery = r.query.Encode()
	}
	return u.String()
}

// getJSON fetches into v, decoding numbers as json.Number.
func (f *fetcher) getJSON(ctx context.Context, r request, v any) error {
	body, err := f.fetch(ctx, r)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: unexpected response: %w", r.src.name, err)
	}
	return nil
}

// fetch returns the body, from the cache when fresh.
func (f *fetcher) fetch(ctx context.Context, r request) ([]byte, error) {
	var payload []byte
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, err
		}
		payload = b
	}
	key := r.url() + "\x00" + string(payload)
	if b, ok := f.lookup(key); ok {
		return b, nil
	}
	if err := r.src.limiter.Wait(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", r.src.name, err)
	}
	method := http.MethodGet
	var rd io.Reader
	if payload != nil {
		method, rd = http.MethodPost, bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.url(), rd)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.src.headers {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.src.name, redact(err, r.query))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, fmt.Errorf("%s: reading response: %w", r.src.name, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := strings.TrimSpace(string(b))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return nil, &StatusError{Source: r.src.name, Status: resp.StatusCode, Body: msg}
	}
	f.store(key, b)
	return b, nil
}

// redact removes API keys from transport errors, which quote the URL.
func redact(err error, q url.Values) error {
	msg := err.Error()
	for _, k := range []string{"api_key", "registrationkey"} {
		if v := q.Get(k); v != "" {
			msg = strings.ReplaceAll(msg, v, "REDACTED")
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

func (f *fetcher) lookup(key string) ([]byte, bool) {
	if f.ttl <= 0 {
		return nil, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.cache[key]
	if !ok || f.now().Sub(c.at) > f.ttl {
		return nil, false
	}
	return c.body, true
}

func (f *fetcher) store(key string, b []byte) {
	if f.ttl <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cache) >= maxCacheEntries {
		var oldest string
		var at time.Time
		for k, c := range f.cache {
			if oldest == "" || c.at.Before(at) {
				oldest, at = k, c.at
			}
		}
		delete(f.cache, oldest)
	}
	f.cache[key] = cached{body: b, at: f.now()}
}
