package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
)

func TestProbeReportsReplyAndLatency(t *testing.T) {
	srv, got := captureServer(t, "/chat/completions", func(w http.ResponseWriter) {
		oaChunk(w, map[string]any{"role": "assistant", "content": "pong"}, nil)
		oaChunk(w, map[string]any{}, "stop")
		_, _ = w.Write([]byte("data: [DONE]\n\n"))
	})
	store := config.NewStore(t.TempDir())
	require.NoError(t, config.Save(store, config.AIProviderFile, config.AIProvider{ActiveProfile: "a",
		Profiles: map[string]config.Profile{"a": {Backend: config.BackendOpenAI, BaseURL: srv.URL, Model: "m"}, "b": {Backend: config.BackendOpenAI, BaseURL: srv.URL, Model: "probe-model"}}}))
	r := NewRouter(store, func() string { return "" }).WithGetenv(func(string) string { return "" })
	res, err := r.Probe(context.Background(), "b", "tui")
	require.NoError(t, err)
	assert.Equal(t, "pong", res.Reply)
	assert.Equal(t, "b", res.Profile)
	assert.Positive(t, res.Latency)
	body, _ := got()
	assert.Equal(t, "probe-model", body["model"])
}

func TestProbeReturnsTheExactError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"invalid api key sk-xx"}}`, http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	store := config.NewStore(t.TempDir())
	require.NoError(t, config.Save(store, config.AIProviderFile, config.AIProvider{
		Profiles: map[string]config.Profile{"bad": {Backend: config.BackendOpenAI, BaseURL: srv.URL}}}))
	r := NewRouter(store, func() string { return "" }).WithGetenv(func(string) string { return "" })
	_, err := r.Probe(context.Background(), "bad", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid api key")

	_, err = r.Probe(context.Background(), "missing", "")
	require.ErrorContains(t, err, "no such profile")
}
