package schedule

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/alice-trading/alice/config"
)

// Webhook ingests external events on POST /api/events/ingest: body
// {type, payload} with "Authorization: Bearer <token>" or
// "X-Alice-Token: <token>". Tokens come from webhook.json, read on every
// request so adding or revoking one needs no restart.
//
// An accepted request becomes a task of the durable queue (Worker.Submit):
// it is on disk before the caller hears 201 {queued:true, taskId, key,
// seq}. A caller that may resend sends an idempotency key (the
// Idempotency-Key header or payload.idempotencyKey); a key the queue
// already holds is answered 200 {duplicate:true, taskId, state} and not run
// again. A full queue answers 429 with Retry-After.
type Webhook struct {
	store *config.Store
	queue Submitter
}

// Submitter is the queue the webhook feeds (*Worker).
type Submitter interface {
	Submit(req Request, opt SubmitOptions) (Task, bool, error)
}

// NewWebhook builds the handler.
func NewWebhook(store *config.Store, queue Submitter) *Webhook {
	return &Webhook{store: store, queue: queue}
}

// MaxWebhookBody caps one ingest body.
const MaxWebhookBody = 64 << 10

// maxPromptRunes caps an ingested prompt.
const maxPromptRunes = 16000

// internalTypes are event types that exist but only Alice may record.
var internalTypes = map[string]bool{
	"cron.fire": true, "message.received": true, "message.sent": true, "agent.work.started": true,
	"agent.work.done": true, "agent.work.skip": true, "agent.work.error": true, "agent.work.abandoned": true,
}

// retryAfterSeconds is what a 429 asks the caller to wait.
const retryAfterSeconds = 5

func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	cfg, err := h.store.Webhook()
	if err != nil {
		httpError(w, http.StatusInternalServerError, "webhook.json: "+err.Error())
		return
	}
	if len(cfg.Tokens) == 0 {
		httpError(w, http.StatusServiceUnavailable, "webhook ingest is disabled: add a token to webhook.json")
		return
	}
	tok := presentedToken(r)
	if tok == "" {
		httpError(w, http.StatusUnauthorized, "missing token: send Authorization: Bearer <token> or X-Alice-Token")
		return
	}
	if !tokenMatches(tok, cfg.Tokens) {
		httpError(w, http.StatusForbidden, "invalid token")
		return
	}

	raw, err := io.ReadAll(io.LimitReader(r.Body, MaxWebhookBody+1))
	if err != nil {
		httpError(w, http.StatusBadRequest, "reading body: "+err.Error())
		return
	}
	if len(raw) > MaxWebhookBody {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body exceeds %d bytes", MaxWebhookBody))
		return
	}
	var body struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := strictJSON(raw, &body); err != nil {
		httpError(w, http.StatusBadRequest, "body must be JSON {type, payload}: "+err.Error())
		return
	}
	switch {
	case body.Type == "agent.work.requested" || body.Type == "task.requested":
	case internalTypes[body.Type]:
		httpError(w, http.StatusForbidden, "event type "+body.Type+" is internal and cannot be ingested (allowed: agent.work.requested, task.requested)")
		return
	default:
		httpError(w, http.StatusForbidden, fmt.Sprintf("event type %q cannot be ingested (allowed: agent.work.requested, task.requested)", body.Type))
		return
	}
	req, key, err := parseWorkPayload(body.Type, body.Payload)
	if err != nil {
		httpError(w, http.StatusBadRequest, "payload: "+err.Error())
		return
	}
	if hk := strings.TrimSpace(r.Header.Get("Idempotency-Key")); hk != "" {
		if key != "" && key != hk {
			httpError(w, http.StatusBadRequest, "the Idempotency-Key header and payload.idempotencyKey differ; send one")
			return
		}
		key = hk
	}
	if err := ValidKey(key); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	if key != "" {
		key = "webhook:" + key
	}
	task, dup, err := h.queue.Submit(req, SubmitOptions{Key: key})
	var full QueueFullError
	switch {
	case errors.As(err, &full):
		w.Header().Set("Retry-After", fmt.Sprint(retryAfterSeconds))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": full.Error(), "waiting": full.Waiting, "limit": full.Limit, "retryAfterSeconds": retryAfterSeconds})
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	code := http.StatusCreated
	if dup {
		code = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"queued": !dup, "duplicate": dup, "taskId": task.ID, "key": task.Key,
		"state": task.State, "seq": task.RequestedSeq, "type": "agent.work.requested"})
}

// presentedToken reads the bearer token or the X-Alice-Token header
// (X-OpenAlice-Token is accepted for scripts written for OpenAlice).
func presentedToken(r *http.Request) string {
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	if t := r.Header.Get("X-Alice-Token"); t != "" {
		return strings.TrimSpace(t)
	}
	return strings.TrimSpace(r.Header.Get("X-OpenAlice-Token"))
}

// tokenMatches compares against every token in constant time: digests
// make the comparison independent of length, and no early exit reveals
// which token (if any) matched.
func tokenMatches(tok string, tokens []config.WebhookToken) bool {
	got := sha256.Sum256([]byte(tok))
	match := 0
	for _, t := range tokens {
		want := sha256.Sum256([]byte(t.Token))
		match |= subtle.ConstantTimeCompare(got[:], want[:])
	}
	return match == 1
}

// parseWorkPayload validates {source?, prompt, metadata?,
// idempotencyKey?, target?}. External callers may only request task or manual work:
// heartbeat and cron runs have their own gates.
func parseWorkPayload(typ string, raw json.RawMessage) (Request, string, error) {
	var p struct {
		Source   Source         `json:"source"`
		Prompt   string         `json:"prompt"`
		Metadata map[string]any `json:"metadata"`
		Key      string         `json:"idempotencyKey"`
		Target   *Target        `json:"target"`
	}
	if len(raw) == 0 || string(raw) == "null" {
		return Request{}, "", errors.New("required: {prompt, source?, metadata?, idempotencyKey?}")
	}
	if err := strictJSON(raw, &p); err != nil {
		return Request{}, "", err
	}
	if typ == "task.requested" || p.Source == "" {
		p.Source = SourceTask
	}
	if p.Source != SourceTask && p.Source != SourceManual {
		return Request{}, "", fmt.Errorf("source must be task or manual, got %q", p.Source)
	}
	p.Prompt = strings.TrimSpace(p.Prompt)
	if p.Prompt == "" {
		return Request{}, "", errors.New("prompt must be a non-empty string")
	}
	if n := len([]rune(p.Prompt)); n > maxPromptRunes {
		return Request{}, "", fmt.Errorf("prompt is %d characters, the limit is %d", n, maxPromptRunes)
	}
	if err := p.Target.Validate(); err != nil {
		return Request{}, "", err
	}
	return Request{Source: p.Source, Prompt: p.Prompt, Metadata: p.Metadata, Target: p.Target}, strings.TrimSpace(p.Key), nil
}

// strictJSON decodes one JSON value, rejecting unknown fields and
// trailing data.
func strictJSON(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
