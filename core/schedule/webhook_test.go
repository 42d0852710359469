package schedule

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
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

// recSubmitter records what the webhook submits.
type recSubmitter struct {
	mu   sync.Mutex
	got  []Request
	keys []string
}

func (r *recSubmitter) Submit(req Request, opt SubmitOptions) (Task, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, req)
	r.keys = append(r.keys, opt.Key)
	return Task{ID: "t" + string(rune('0'+len(r.got))), Key: opt.Key, State: TaskQueued, RequestedSeq: int64(len(r.got))}, false, nil
}

func TestWebhookAuthAndValidation(t *testing.T) {
	e := newEnv(t)
	sub := &recSubmitter{}
	h := NewWebhook(e.store, sub)
	good := `{"type":"task.requested","payload":{"prompt":"rebalance"}}`
	bearer := map[string]string{"Authorization": "Bearer secret-token"}
	require.Equal(t, http.StatusServiceUnavailable, post(h, http.MethodPost, bearer, good).Code, "no tokens configured")
	require.NoError(t, os.WriteFile(e.store.Path(config.WebhookFile), []byte(`{"tokens":[{"id":"a","token":"other-token-1","createdAt":1},{"id":"b","token":"secret-token","createdAt":1}]}`), 0o600))

	keyed := map[string]string{"Authorization": "Bearer secret-token", "Idempotency-Key": "order-7"}
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
		{"internal outcome type", "", bearer, `{"type":"agent.work.abandoned","payload":{}}`, 403, "internal"},
		{"unknown type", "", bearer, `{"type":"orders.place","payload":{}}`, 403, "cannot be ingested"},
		{"empty prompt", "", bearer, `{"type":"task.requested","payload":{"prompt":"  "}}`, 400, "non-empty"},
		{"no payload", "", bearer, `{"type":"agent.work.requested"}`, 400, "prompt"},
		{"unknown payload field", "", bearer, `{"type":"agent.work.requested","payload":{"prompt":"x","sudo":true}}`, 400, "sudo"},
		{"heartbeat source", "", bearer, `{"type":"agent.work.requested","payload":{"source":"heartbeat","prompt":"x"}}`, 400, "task or manual"},
		{"workspace escapes", "", bearer, `{"type":"task.requested","payload":{"prompt":"x","target":{"kind":"oneshot","workspace":"../../etc"}}}`, 400, "target.workspace"},
		{"workspace dot-dot", "", bearer, `{"type":"task.requested","payload":{"prompt":"x","target":{"kind":"session","workspace":".."}}}`, 400, "valid workspace tag"},
		{"not json", "", bearer, `not json`, 400, "JSON"},
		{"trailing data", "", bearer, good + `{}`, 400, "trailing"},
		{"too large", "", bearer, `{"type":"task.requested","payload":{"prompt":"` + strings.Repeat("x", MaxWebhookBody) + `"}}`, 413, "exceeds"},
		{"key header and field differ", "", keyed, `{"type":"task.requested","payload":{"prompt":"x","idempotencyKey":"other"}}`, 400, "differ"},
		{"key too long", "", bearer, `{"type":"task.requested","payload":{"prompt":"x","idempotencyKey":"` + strings.Repeat("k", 201) + `"}}`, 400, "longer than 200"},
		{"key with control char", "", map[string]string{"Authorization": "Bearer secret-token"}, `{"type":"task.requested","payload":{"prompt":"x","idempotencyKey":"a\u0007b"}}`, 400, "control character"},
		{"X-Alice-Token", "", map[string]string{"X-Alice-Token": "secret-token"}, good, 201, ""},
		{"lower-case bearer", "", map[string]string{"Authorization": "bearer other-token-1"}, good, 201, ""},
		{"legacy header", "", map[string]string{"X-OpenAlice-Token": "secret-token"}, `{"type":"agent.work.requested","payload":{"source":"manual","prompt":"hi","metadata":{"from":"ci"}}}`, 201, ""},
		{"key header", "", keyed, good, 201, ""},
		{"key field", "", bearer, `{"type":"task.requested","payload":{"prompt":"x","idempotencyKey":"abc"}}`, 201, ""},
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
	sub.mu.Lock()
	defer sub.mu.Unlock()
	require.Len(t, sub.got, 5, "only accepted requests reach the queue")
	require.Equal(t, []string{"", "", "", "webhook:order-7", "webhook:abc"}, sub.keys)
	require.Equal(t, SourceManual, sub.got[2].Source)
	require.Equal(t, map[string]any{"from": "ci"}, sub.got[2].Metadata)
	require.Equal(t, SourceTask, sub.got[0].Source)
}

func TestTokenMatches(t *testing.T) {
	toks := []config.WebhookToken{{Token: "alpha-token"}, {Token: "beta-token-long"}}
	cases := map[string]bool{"alpha-token": true, "beta-token-long": true, "alpha": false, "alpha-token ": false, "": false, "gamma-token": false}
	for tok, want := range cases {
		require.Equal(t, want, tokenMatches(tok, toks), tok)
	}
}
