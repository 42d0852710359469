package yahoo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/alice-trading/alice/core/httpjson"
)

// CookieURL is where Yahoo hands out the session cookie that its crumb
// (and so quoteSummary) is tied to.
const CookieURL = "https://fc.yahoo.com/"

// session is a cookie and the crumb Yahoo issued for it. quoteSummary
// refuses requests without both ("Invalid Crumb", 401).
type session struct {
	mu     sync.Mutex
	cookie string
	crumb  string
}

// ErrNoSession is returned (wrapped) when Yahoo would not hand out a
// session cookie or crumb: quoteSummary cannot be read then.
var ErrNoSession = errors.New("yahoo gave no session (cookie/crumb) for quoteSummary")

// Summary is one symbol's quoteSummary: module name → the module's JSON.
type Summary map[string]json.RawMessage

// Module decodes module name into v; a missing module is ErrNotFound.
func (s Summary) Module(name string, v any) error {
	raw, ok := s[name]
	if !ok || len(raw) == 0 || string(raw) == "null" {
		return fmt.Errorf("%w: yahoo quoteSummary has no %s module", ErrNotFound, name)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("yahoo quoteSummary %s: %w", name, err)
	}
	return nil
}

// QuoteSummary reads /v10/finance/quoteSummary/{symbol} for the given
// modules (topHoldings, fundProfile, financialData, defaultKeyStatistics,
// …). It first obtains a session cookie and crumb, as Yahoo requires, and
// renews them once when Yahoo refuses a stale crumb.
func (c *Client) QuoteSummary(ctx context.Context, symbol string, modules ...string) (Summary, error) {
	if len(modules) == 0 {
		return nil, errors.New("yahoo quoteSummary: no modules")
	}
	for attempt := 0; ; attempt++ {
		cookie, crumb, err := c.session(ctx, attempt > 0)
		if err != nil {
			return nil, fmt.Errorf("yahoo quoteSummary %s: %w", symbol, err)
		}
		q := url.Values{"modules": {strings.Join(modules, ",")}, "crumb": {crumb}, "formatted": {"false"}}
		var env struct {
			QuoteSummary struct {
				Result []Summary `json:"result"`
				Error  *struct {
					Code        string `json:"code"`
					Description string `json:"description"`
				} `json:"error"`
			} `json:"quoteSummary"`
		}
		res, err := c.http.Do(ctx, httpjson.Request{Path: "/v10/finance/quoteSummary/" + url.PathEscape(symbol), Query: q,
			Header: http.Header{"Cookie": {cookie}}})
		if err != nil {
			var se *httpjson.StatusError
			if errors.As(err, &se) && se.Status == http.StatusNotFound {
				return nil, errors.Join(ErrNotFound, fmt.Errorf("yahoo quoteSummary %s: %w", symbol, err))
			}
			if attempt == 0 && (errors.Is(err, httpjson.ErrUnauthorized) || errors.Is(err, httpjson.ErrForbidden)) {
				continue // a stale crumb: fetch a new session once
			}
			return nil, fmt.Errorf("yahoo quoteSummary %s: %w", symbol, err)
		}
		if err := res.Decode(&env); err != nil {
			return nil, fmt.Errorf("yahoo quoteSummary %s: %w", symbol, err)
		}
		if e := env.QuoteSummary.Error; e != nil {
			return nil, fmt.Errorf("%w: yahoo quoteSummary %s: %s (%s)", ErrNotFound, symbol, e.Description, e.Code)
		}
		if len(env.QuoteSummary.Result) == 0 {
			return nil, fmt.Errorf("%w: yahoo quoteSummary returned nothing for %s", ErrNotFound, symbol)
		}
		return env.QuoteSummary.Result[0], nil
	}
}

// session returns the cookie and crumb, fetching them when there are none
// (or renew is set).
func (c *Client) session(ctx context.Context, renew bool) (string, string, error) {
	c.sess.mu.Lock()
	defer c.sess.mu.Unlock()
	if !renew && c.sess.crumb != "" {
		return c.sess.cookie, c.sess.crumb, nil
	}
	c.sess.cookie, c.sess.crumb = "", ""
	cookie, err := c.fetchCookie(ctx)
	if err != nil {
		return "", "", err
	}
	res, err := c.http.Do(ctx, httpjson.Request{Path: "/v1/test/getcrumb", Header: http.Header{"Cookie": {cookie}, "Accept": {"text/plain, */*"}}, NoCache: true})
	if err != nil {
		return "", "", fmt.Errorf("%w: getcrumb: %w", ErrNoSession, err)
	}
	crumb := strings.TrimSpace(string(res.Body))
	if crumb == "" || strings.ContainsAny(crumb, "<>{} \n") {
		return "", "", fmt.Errorf("%w: getcrumb answered %q", ErrNoSession, httpjson.Clip(crumb, 40))
	}
	c.sess.cookie, c.sess.crumb = cookie, crumb
	return cookie, crumb, nil
}

// fetchCookie visits the cookie URL and keeps the cookies it sets (it
// answers 404 with the cookie; the status does not matter).
func (c *Client) fetchCookie(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cookieURL, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("User-Agent", userAgent)
	hc := *c.raw
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", &httpjson.TransportError{Source: "yahoo", Method: http.MethodGet, Path: "(session cookie)", Err: err}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	var parts []string
	for _, ck := range resp.Cookies() {
		parts = append(parts, ck.Name+"="+ck.Value)
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("%w: %s set no cookie (status %d)", ErrNoSession, req.URL.Host, resp.StatusCode)
	}
	return strings.Join(parts, "; "), nil
}
