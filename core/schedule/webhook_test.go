package schedule

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/eventlog"
)

func post(h http.Handler, method string, headers map[string]string, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "/api/events/ingest", strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestWebhookAuthAndValidation(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	var got []Request
	h := NewWebhook(e.store, e.log, func(_ context.Context, r Request) { mu.Lock(); got = append(got, r); mu.Unlock() })
	good := `{"type":"task.requested","payload":{"prompt":"rebalance"}}`
	bearer := map[string]string{"Authorization": "Bearer secret-token"}
	require.Equal(t, http.StatusServiceUnavailable, post(h, http.MethodPost, bearer, good).Code, "no tokens configured")
	require.NoError(t, os.WriteFile(e.store.Path(config.WebhookFile), []byte(`{"tokens":[{"id":"a","token":"other-token-1","createdAt":1},{"id":"b","token":"secret-token","createdAt":1}]}`), 0o600))

	cases := []struct {
		name    string
		method  string
		headers map[string]string
		body    string
		want    int
		errHas  string
	}{
		{"missing token", "", nil, good, 401, "missing token"},
		{"wrong token", "", map[string]string{"Authorization": "Bearer wrong-token"}, good, 403, "invalid token"},
		{"prefix of a token", "", map[string]string{"Authorization": "Bearer secret"}, good, 403, "invalid token"},
		{"GET", http.MethodGet, bearer, good, 405, "POST"},
		{"internal type", "", bearer, `{"type":"cron.fire","payload":{}}`, 403, "internal"},
		{"unknown type", "", bearer, `{"type":"orders.place","payload":{}}`, 403, "cannot be ingested"},
		{"empty prompt", "", bearer, `{"type":"task.requested","payload":{"prompt":"  "}}`, 400, "non-empty"},
		{"no payload", "", bearer, `{"type":"agent.work.requested"}`, 400, "prompt"},
		{"unknown payload field", "", bearer, `{"type":"agent.work.requested","payload":{"prompt":"x","sudo":true}}`, 400, "sudo"},
		{"heartbeat source", "", bearer, `{"type":"agent.work.requested","payload":{"source":"heartbeat","prompt":"x"}}`, 400, "task or manual"},
		{"not json", "", bearer, `not json`, 400, "JSON"},
		{"trailing data", "", bearer, good + `{}`, 400, "trailing"},
		{"too large", "", bearer, `{"type":"task.requested","payload":{"prompt":"` + strings.Repeat("x", MaxWebhookBody) + `"}}`, 413, "exceeds"},
		{"X-Alice-Token", "", map[string]string{"X-Alice-Token": "secret-token"}, good, 201, ""},
		{"lower-case bearer", "", map[string]string{"Authorization": "bearer other-token-1"}, good, 201, ""},
		{"legacy header", "", map[string]string{"X-OpenAlice-Token": "secret-token"}, `{"type":"agent.work.requested","payload":{"source":"manual","prompt":"hi","metadata":{"from":"ci"}}}`, 201, ""},
	}
	for _, tc := range cases {
		method := tc.method
		if method == "" {
			method = http.MethodPost
		}
		rec := post(h, method, tc.headers, tc.body)
		require.Equal(t, tc.want, rec.Code, "%s: %s", tc.name, rec.Body.String())
		if tc.errHas != "" {
			require.Contains(t, rec.Body.String(), tc.errHas, tc.name)
		}
	}
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 3 }, 5*time.Second, 5*time.Millisecond)

	// Each accepted request is recorded once as agent.work.requested and
	// handed over with that event's seq, so the worker records no second one.
	var reqs []eventlog.Entry
	for _, en := range e.log.Recent() {
		if en.Type == "agent.work.requested" {
			reqs = append(reqs, en)
		}
	}
	require.Len(t, reqs, 3)
	mu.Lock()
	defer mu.Unlock()
	seqs := map[int64]Request{}
	for _, r := range got {
		seqs[r.Seq] = r
	}
	for _, en := range reqs {
		r, ok := seqs[en.Seq]
		require.True(t, ok, "request %d handed to run", en.Seq)
		var p requestPayload
		require.NoError(t, json.Unmarshal(en.Payload, &p))
		require.False(t, p.Queued, "run handles it; the listener must not")
		require.Equal(t, p.Source, r.Source)
	}
	var manual []Request
	for _, r := range got {
		if r.Source == SourceManual {
			manual = append(manual, r)
		}
	}
	require.Len(t, manual, 1)
	require.Equal(t, map[string]any{"from": "ci"}, manual[0].Metadata)
}

func TestWebhookResponseIsTheRecordedEvent(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, os.WriteFile(e.store.Path(config.WebhookFile), []byte(`{"tokens":[{"id":"a","token":"secret-token","createdAt":1}]}`), 0o600))
	h := NewWebhook(e.store, e.log, nil)
	rec := post(h, http.MethodPost, map[string]string{"Authorization": "Bearer secret-token"}, `{"type":"task.requested","payload":{"prompt":"rebalance"}}`)
	require.Equal(t, http.StatusCreated, rec.Code)
	var en eventlog.Entry
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &en))
	require.Equal(t, "agent.work.requested", en.Type)
	require.JSONEq(t, `{"source":"task","prompt":"rebalance","queued":true}`, string(en.Payload))
	require.Equal(t, e.log.LastSeq(), en.Seq)
}

func TestTokenMatches(t *testing.T) {
	toks := []config.WebhookToken{{Token: "alpha-token"}, {Token: "beta-token-long"}}
	cases := map[string]bool{"alpha-token": true, "beta-token-long": true, "alpha": false, "alpha-token ": false, "": false, "gamma-token": false}
	for tok, want := range cases {
		require.Equal(t, want, tokenMatches(tok, toks), tok)
	}
}
