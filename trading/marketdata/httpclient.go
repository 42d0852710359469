package marketdata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxBody caps how much of a response is read; chart payloads for a few
// years of daily bars are well under this.
const maxBody = 16 << 20

// httpGetter is the shared plumbing of the HTTP backends: one GET, status
// check, JSON decode with numbers kept as json.Number.
type httpGetter struct {
	client  *http.Client
	base    *url.URL
	headers http.Header
}

func newHTTPGetter(client *http.Client, baseURL string, headers http.Header) (httpGetter, error) {
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return httpGetter{}, fmt.Errorf("invalid market data base URL %q", baseURL)
	}
	return httpGetter{client: client, base: u, headers: headers}, nil
}

// statusError is a non-2xx reply.
type statusError struct {
	Status int
	Body   string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("market data HTTP %d: %s", e.Status, e.Body)
}

// get fetches base+path?query into v. path segments must already be escaped.
func (g httpGetter) get(ctx context.Context, path string, query url.Values, v any) error {
	u := *g.base
	unescaped, err := url.PathUnescape(path)
	if err != nil {
		return fmt.Errorf("market data path %q: %w", path, err)
	}
	u.Path = g.base.Path + unescaped
	u.RawPath = g.base.EscapedPath() + path
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	for k, vs := range g.headers {
		for _, val := range vs {
			req.Header.Add(k, val)
		}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := g.client.Do(req)
	if err != nil {
		return fmt.Errorf("market data request %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return fmt.Errorf("market data read %s: %w", path, err)
	}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		se := &statusError{Status: resp.StatusCode, Body: msg}
		if resp.StatusCode == http.StatusNotFound {
			return errors.Join(ErrNotFound, se)
		}
		return se
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("market data decode %s: %w", path, err)
	}
	return nil
}
