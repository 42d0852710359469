package httpjson

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// recorder is a Sleep seam that records the backoff instead of waiting.
type recorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *recorder) sleep(_ context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	return nil
}

func newTest(t *testing.T, h http.HandlerFunc, o Options) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	o.BaseURL = srv.URL + "/api/"
	if o.Sleep == nil {
		o.Sleep = (&recorder{}).sleep
	}
	c, err := New(o)
	require.NoError(t, err)
	return c
}

func TestBaseURLCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want string // "" means invalid
	}{
		{"https://example.com", "https://example.com"},
		{"https://example.com/", "https://example.com"},
		{"http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1"},
		{" https://example.com/x ", "https://example.com/x"},
		{"", ""},
		{"example.com", ""},
		{"ftp://example.com", ""},
		{"https://", ""},
		{"https://example.com/?q=1", ""},
		{"https://example.com/#frag", ""},
		{"://bad", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			u, err := ParseBaseURL(tc.in)
			if tc.want == "" {
				require.Error(t, err)
				_, err = New(Options{Name: "src", BaseURL: tc.in})
				require.ErrorContains(t, err, "src: invalid base URL")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, u.String())
		})
	}
}

func TestStatusToTypedError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		is     error
		not    []error
	}{
		{400, ErrBadRequest, []error{ErrNotFound, ErrServer}},
		{401, ErrUnauthorized, []error{ErrForbidden, ErrBadRequest}},
		{403, ErrForbidden, []error{ErrUnauthorized, ErrBadRequest}},
		{404, ErrNotFound, []error{ErrBadRequest, ErrServer}},
		{409, ErrBadRequest, []error{ErrNotFound}},
		{422, ErrBadRequest, []error{ErrRateLimited}},
		{429, ErrRateLimited, []error{ErrBadRequest, ErrServer}},
		{500, ErrServer, []error{ErrBadRequest}},
		{503, ErrServer, []error{ErrRateLimited}},
		{302, nil, []error{ErrNotFound, ErrServer, ErrBadRequest}},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, `{"message":"nope"}`)
			}, Options{Name: "src", HTTP: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}})
			err := c.Get(context.Background(), "/thing", nil, nil)
			var se *StatusError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tc.status, se.Status)
			require.Equal(t, `{"message":"nope"}`, se.Body)
			require.Equal(t, `{"message":"nope"}`, string(se.Raw))
			require.Equal(t, fmt.Sprintf(`src GET /thing: HTTP %d: {"message":"nope"}`, tc.status), err.Error())
			if tc.is != nil {
				require.ErrorIs(t, err, tc.is)
			}
			for _, n := range tc.not {
				require.NotErrorIs(t, err, n)
			}
		})
	}
}

func TestRetriesOnlyIdempotentRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		req        Request
		status     int
		wantCalls  int32
		wantStatus int
	}{
		{"GET 503 retried", Request{Path: "/x"}, 503, 3, 503},
		{"GET 429 retried", Request{Path: "/x"}, 429, 3, 429},
		{"GET 502 retried", Request{Path: "/x"}, 502, 3, 502},
		{"GET 500 not retried", Request{Path: "/x"}, 500, 1, 500},
		{"GET 404 not retried", Request{Path: "/x"}, 404, 1, 404},
		{"HEAD 504 retried", Request{Method: "HEAD", Path: "/x"}, 504, 3, 504},
		{"POST 503 not retried", Request{Path: "/x", Body: map[string]int{"a": 1}}, 503, 1, 503},
		{"DELETE 503 not retried", Request{Method: "DELETE", Path: "/x"}, 503, 1, 503},
		{"PUT 503 not retried", Request{Method: "PUT", Path: "/x", Body: 1}, 503, 1, 503},
		{"idempotent POST retried", Request{Path: "/x", Body: 1, Idempotent: true}, 503, 3, 503},
		{"GET ok first time", Request{Path: "/x"}, 200, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(tc.status)
			}, Options{Retries: 2})
			_, err := c.Do(context.Background(), tc.req)
			require.Equal(t, tc.wantCalls, calls.Load())
			if tc.wantStatus == 0 {
				require.NoError(t, err)
				return
			}
			var se *StatusError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tc.wantStatus, se.Status)
		})
	}
}

func TestRetryRecoversAndRetriesTransportErrors(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
	}, Options{Retries: 3})
	var out struct{ OK bool }
	require.NoError(t, c.Get(context.Background(), "/x", nil, &out))
	require.True(t, out.OK)
	require.EqualValues(t, 3, calls.Load())

	// A refused connection is a TransportError, retried for GET only.
	srv := httptest.NewServer(http.NotFoundHandler())
	base := srv.URL
	srv.Close()
	rec := &recorder{}
	dead, err := New(Options{Name: "dead", BaseURL: base, Retries: 2, Sleep: rec.sleep})
	require.NoError(t, err)
	err = dead.Get(context.Background(), "/x", nil, nil)
	var te *TransportError
	require.ErrorAs(t, err, &te)
	require.Len(t, rec.waits, 2)
	_, err = dead.Do(context.Background(), Request{Path: "/x", Body: 1})
	require.ErrorAs(t, err, &te)
	require.Len(t, rec.waits, 2, "a POST is never retried")

	// A host name that does not resolve is not retried: it will not
	// resolve a moment later either.
	rec = &recorder{}
	noHost := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return nil, &net.DNSError{Err: "no such host", Name: r.URL.Hostname(), IsNotFound: true}
	})
	nowhere, err := New(Options{Name: "nowhere", BaseURL: "http://alice-test.invalid", Retries: 2, Sleep: rec.sleep,
		HTTP: &http.Client{Transport: noHost}})
	require.NoError(t, err)
	err = nowhere.Get(context.Background(), "/x", nil, nil)
	require.ErrorAs(t, err, &te)
	var dns *net.DNSError
	require.ErrorAs(t, err, &dns)
	require.Empty(t, rec.waits)
}

func TestBackoffIsBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		retries    int
		retryAfter string
		want       []time.Duration
	}{
		{"doubles up to the cap", 6, "", []time.Duration{100, 200, 400, 800, 1000, 1000}},
		{"retry-after honoured", 2, "1", []time.Duration{1000, 1000}},
		{"retry-after capped", 2, "3600", []time.Duration{1000, 1000}},
		{"large attempt count never overflows", 70, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.retryAfter != "" {
					w.Header().Set("Retry-After", tc.retryAfter)
				}
				w.WriteHeader(http.StatusTooManyRequests)
			}, Options{Retries: tc.retries, Backoff: 100 * time.Millisecond, MaxBackoff: time.Second, Sleep: rec.sleep})
			err := c.Get(context.Background(), "/x", nil, nil)
			require.ErrorIs(t, err, ErrRateLimited)
			require.Len(t, rec.waits, tc.retries)
			for i, w := range rec.waits {
				require.Greater(t, w, time.Duration(0))
				require.LessOrEqual(t, w, time.Second)
				if tc.want != nil {
					require.Equal(t, tc.want[i]*time.Millisecond, w, "wait %d", i)
				}
			}
		})
	}
}

func TestCancelledContextStopsRetries(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		cancel()
		w.WriteHeader(http.StatusServiceUnavailable)
	}, Options{Retries: 5, Sleep: sleepCtx})
	_, err := c.Do(ctx, Request{Path: "/x"})
	require.Error(t, err)
	require.EqualValues(t, 1, calls.Load())
}

func TestRateLimitSpacesRequests(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }, Options{PerSecond: 20})
	start := time.Now()
	for range 4 {
		_, err := c.Do(context.Background(), Request{Path: "/x"})
		require.NoError(t, err)
	}
	// Burst 1 at 20/s: the 2nd, 3rd and 4th request each wait 50 ms.
	require.GreaterOrEqual(t, time.Since(start), 140*time.Millisecond)
	require.EqualValues(t, 4, calls.Load())

	// A context that ends while waiting for a slot is a TransportError.
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	slow := newTest(t, func(w http.ResponseWriter, r *http.Request) {}, Options{PerSecond: 0.01})
	_, err := slow.Do(context.Background(), Request{Path: "/x"})
	require.NoError(t, err)
	_, err = slow.Do(ctx, Request{Path: "/x"})
	var te *TransportError
	require.ErrorAs(t, err, &te)
}

func TestCache(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		if r.URL.Query().Get("fail") != "" {
			w.WriteHeader(http.StatusBadRequest)
		}
		fmt.Fprintf(w, `{"n":%d,"q":%q,"body":%q}`, n, r.URL.Query().Get("q"), body)
	}, Options{CacheTTL: time.Minute, CacheEntries: 2, Now: clock})
	get := func(req Request) (int, bool) {
		t.Helper()
		resp, err := c.Do(context.Background(), req)
		require.NoError(t, err)
		var v struct{ N int }
		require.NoError(t, resp.Decode(&v))
		return v.N, resp.Cached
	}
	q := func(s string) url.Values { return url.Values{"q": {s}} }

	for _, step := range []struct {
		name    string
		req     Request
		advance time.Duration
		wantN   int
		cached  bool
	}{
		{"first GET goes out", Request{Path: "/a", Query: q("1")}, 0, 1, false},
		{"same GET is cached", Request{Path: "/a", Query: q("1")}, 0, 1, true},
		{"other query is not", Request{Path: "/a", Query: q("2")}, 0, 2, false},
		{"NoCache bypasses", Request{Path: "/a", Query: q("1"), NoCache: true}, 0, 3, false},
		{"POST is never cached", Request{Path: "/a", Body: 1}, 0, 4, false},
		{"POST again goes out", Request{Path: "/a", Body: 1}, 0, 5, false},
		{"idempotent POST goes out", Request{Path: "/a", Body: 2, Idempotent: true}, 0, 6, false},
		{"idempotent POST cached by body", Request{Path: "/a", Body: 2, Idempotent: true}, 0, 6, true},
		{"…and evicted the oldest entry", Request{Path: "/a", Query: q("1")}, 0, 7, false},
		{"fresh within ttl", Request{Path: "/a", Query: q("1")}, 59 * time.Second, 7, true},
		{"stale after ttl", Request{Path: "/a", Query: q("1")}, 2 * time.Second, 8, false},
	} {
		advance(step.advance)
		n, cached := get(step.req)
		require.Equal(t, step.wantN, n, step.name)
		require.Equal(t, step.cached, cached, step.name)
	}

	// Errors are not cached.
	before := calls.Load()
	for range 2 {
		_, err := c.Do(context.Background(), Request{Path: "/a", Query: url.Values{"fail": {"1"}}})
		require.ErrorIs(t, err, ErrBadRequest)
	}
	require.Equal(t, before+2, calls.Load())

	// A cached body is a copy: changing it does not change the next answer.
	resp, err := c.Do(context.Background(), Request{Path: "/a", Query: q("1")})
	require.NoError(t, err)
	require.True(t, resp.Cached)
	resp.Body[0] = 'X'
	again, err := c.Do(context.Background(), Request{Path: "/a", Query: q("1")})
	require.NoError(t, err)
	require.Equal(t, byte('{'), again.Body[0])
}

func TestErrorBodyClipping(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		clip       int
		want       string
	}{
		{"short kept", "  oops \n", 10, "oops"},
		{"long clipped", strings.Repeat("a", 20), 10, strings.Repeat("a", 10) + "…"},
		{"exactly at limit", strings.Repeat("b", 10), 10, strings.Repeat("b", 10)},
		{"runes not bytes", strings.Repeat("é", 12), 10, strings.Repeat("é", 10) + "…"},
		{"default 300", strings.Repeat("c", 1000), 0, strings.Repeat("c", 300) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, tc.body)
			}, Options{Clip: tc.clip})
			err := c.Get(context.Background(), "/x", nil, nil)
			var se *StatusError
			require.ErrorAs(t, err, &se)
			require.Equal(t, tc.want, se.Body)
			require.Equal(t, tc.body, string(se.Raw), "Raw keeps the whole body")
		})
	}
}

func TestRequestShapeAndPrepareHook(t *testing.T) {
	t.Parallel()
	type seen struct {
		method, path, rawPath, query, ctype, accept, agent, sig, body string
	}
	got := make(chan seen, 4)
	var n atomic.Int32
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.RawPath, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Accept"),
			r.Header.Get("User-Agent"), r.Header.Get("X-Sig"), string(b)}
		if n.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, `{"price": 12.345678901234567890}`)
	}, Options{Retries: 1, Headers: http.Header{"User-Agent": {"alice-test"}},
		Prepare: func(req *http.Request, body []byte) error {
			req.Header.Set("X-Sig", fmt.Sprintf("%s|%s|%s|%d", req.Method, req.URL.RawQuery, body, n.Load()))
			return nil
		}})
	var v struct{ Price any }
	require.NoError(t, c.JSON(context.Background(), Request{Path: "/chart/" + url.PathEscape("GC=F/x"), Query: url.Values{"a": {"1 2"}}}, &v))
	first, second := <-got, <-got
	require.Equal(t, seen{"GET", "/api/chart/GC=F/x", "/api/chart/GC=F%2Fx", "a=1+2", "", "application/json", "alice-test", "GET|a=1+2||0", ""}, first)
	require.Equal(t, "GET|a=1+2||1", second.sig, "Prepare runs again for the retry")
	require.Equal(t, "12.345678901234567890", fmt.Sprint(v.Price), "numbers stay json.Number")

	_, err := c.Do(context.Background(), Request{Path: "/o", Body: map[string]string{"qty": "1.5"}})
	require.NoError(t, err)
	post := <-got
	require.Equal(t, "POST", post.method)
	require.Equal(t, "application/json", post.ctype)
	require.JSONEq(t, `{"qty":"1.5"}`, post.body)
	require.Equal(t, `POST||{"qty":"1.5"}|2`, post.sig)

	bad := newTest(t, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "<html>") }, Options{Name: "x"})
	var de *DecodeError
	require.ErrorAs(t, bad.Get(context.Background(), "/y", nil, &v), &de)

	hookErr := newTest(t, func(w http.ResponseWriter, r *http.Request) { t.Error("must not be sent") },
		Options{Prepare: func(*http.Request, []byte) error { return errors.New("no key") }})
	require.ErrorContains(t, hookErr.Get(context.Background(), "/y", nil, nil), "no key")
}

func TestTransportErrorsNeverQuoteTheURL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers; the client times out
	}))
	defer srv.Close()
	c, err := New(Options{Name: "telegram", BaseURL: srv.URL + "/bot123:SECRET", Timeout: 20 * time.Millisecond})
	require.NoError(t, err)
	err = c.Get(context.Background(), "/getMe", url.Values{"api_key": {"KEY42"}}, nil)
	var te *TransportError
	require.ErrorAs(t, err, &te)
	require.NotContains(t, err.Error(), "SECRET")
	require.NotContains(t, err.Error(), "KEY42")
	require.Contains(t, err.Error(), "telegram GET /getMe:")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
