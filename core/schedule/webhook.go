package schedule

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"

	"alice/config"
)

// Webhook ingests external events: POST {type, payload} with
// "Authorization: Bearer <token>" or "X-Alice-Token: <token>". Tokens come
// from webhook.json, read on every request.
type Webhook struct {
	store  *config.Store
	events EventLog
	run    func(ctx context.Context, req Request)
}

// NewWebhook builds the handler; run receives accepted work requests
// (asynchronously — the HTTP caller gets 201 at once).
func NewWebhook(store *config.Store, events EventLog, run func(ctx context.Context, req Request)) *Webhook {
	return &Webhook{store: store, events: events, run: run}
}

// maxWebhookBody caps one ingest body.
const maxWebhookBody = 256 << 10

func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cfg, err := h.store.Webhook()
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if len(cfg.Tokens) == 0 {
		httpError(w, http.StatusServiceUnavailable, "webhook ingest is disabled: add a token to webhook.json")
		return
	}
	tok := r.Header.Get("X-Alice-Token")
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		tok = strings.TrimPrefix(a, "Bearer ")
	}
	if tok == "" {
		httpError(w, http.StatusUnauthorized, "missing token")
		return
	}
	ok := false
	for _, t := range cfg.Tokens {
		if subtle.ConstantTimeCompare([]byte(tok), []byte(t.Token)) == 1 {
			ok = true
		}
	}
	if !ok {
		httpError(w, http.StatusForbidden, "invalid token")
		return
	}
	var body struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err := dec.Decode(&body); err != nil {
		httpError(w, http.StatusBadRequest, "body must be JSON {type, payload}: "+err.Error())
		return
	}
	var p struct {
		Source   string         `json:"source"`
		Prompt   string         `json:"prompt"`
		Metadata map[string]any `json:"metadata"`
	}
	switch body.Type {
	case "agent.work.requested", "task.requested":
		if err := json.Unmarshal(body.Payload, &p); err != nil || strings.TrimSpace(p.Prompt) == "" {
			httpError(w, http.StatusBadRequest, "payload needs a non-empty prompt")
			return
		}
	default:
		httpError(w, http.StatusForbidden, "event type "+body.Type+" cannot be ingested (allowed: agent.work.requested, task.requested)")
		return
	}
	entry, err := h.events.Append("webhook.ingest", map[string]any{"type": body.Type, "prompt": p.Prompt})
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	go h.run(context.WithoutCancel(r.Context()), Request{Source: SourceTask, Prompt: p.Prompt, Metadata: p.Metadata, CausedBy: entry.Seq})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(entry)
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
