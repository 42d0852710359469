package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
)

// pacing is how the long answer streams: think before the first word,
// word between words.
type pacing struct{ think, word time.Duration }

// longAnswer is what the agent "says": long enough to scroll a 30-row
// pane, with the markdown a CLI renders specially.
const longAnswer = "## Moving average crossover\n\n" +
	"A crossover strategy buys when a **fast** moving average rises above a **slow** one " +
	"and sells when it falls back below. It is simple, easy to test, and a good first " +
	"baseline before anything cleverer.\n\n" +
	"### Steps\n\n" +
	"1. Load daily closes for the symbol, oldest first.\n" +
	"2. Compute the 20-day and the 50-day simple moving averages.\n" +
	"3. Signal a buy on the day the fast average crosses above the slow one.\n" +
	"4. Signal a sell on the day it crosses back below.\n" +
	"5. Size each position so that one loss costs at most 1% of the account.\n\n" +
	"### Code\n\n" +
	"```go\n" +
	"func sma(closes []float64, n int) []float64 {\n" +
	"\tout := make([]float64, len(closes))\n" +
	"\tsum := 0.0\n" +
	"\tfor i, c := range closes {\n" +
	"\t\tsum += c\n" +
	"\t\tif i >= n {\n" +
	"\t\t\tsum -= closes[i-n]\n" +
	"\t\t}\n" +
	"\t\tout[i] = sum / float64(min(i+1, n))\n" +
	"\t}\n" +
	"\treturn out\n" +
	"}\n" +
	"```\n\n" +
	"### Backtest summary\n\n" +
	"| Symbol | Trades | Win rate | Return |\n" +
	"|--------|-------:|---------:|-------:|\n" +
	"| AAPL   |     14 |      57% |  18.2% |\n" +
	"| MSFT   |     11 |      55% |  12.9% |\n" +
	"| NVDA   |     17 |      47% |  31.4% |\n\n" +
	"Costs matter: with a few basis points per trade the edge shrinks, so test with " +
	"realistic fees and slippage before you trust any of these numbers.\n"

// titleAnswer answers the CLIs' session-title requests, which ask for
// JSON output with one "title" field.
const titleAnswer = `{"title":"Moving average crossover"}`

// words splits s after each run of white space, so that joining the
// pieces gives s back.
func words(s string) []string {
	var out []string
	start, inSpace := 0, false
	for i, r := range s {
		if unicode.IsSpace(r) {
			inSpace = true
			continue
		}
		if inSpace {
			out = append(out, s[start:i])
			start, inSpace = i, false
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// agentRequest is what both APIs share that the mock looks at: the
// structured-output format, which claude puts in output_config and codex
// in text.
type agentRequest struct {
	Model        string       `json:"model"`
	Stream       bool         `json:"stream"`
	OutputConfig outputConfig `json:"output_config"`
	Text         outputConfig `json:"text"`
}

type outputConfig struct {
	Format struct {
		Type string `json:"type"`
	} `json:"format"`
}

// reply picks the answer: JSON for a request that asks for structured
// output (both CLIs title the session that way, beside the turn), the
// long answer for everything else (the agent's own turn).
func (r agentRequest) reply() (text string, long bool) {
	if r.OutputConfig.Format.Type == "json_schema" || r.Text.Format.Type == "json_schema" {
		return titleAnswer, false
	}
	return longAnswer, true
}

// wait sleeps d, or less when the client went away; it reports whether
// the client is still there.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// sse writes server-sent events with an event name and a JSON body.
type sse struct {
	w  io.Writer
	fl http.Flusher
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	fl, _ := w.(http.Flusher)
	return sse{w: w, fl: fl}
}

func (s sse) send(event string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", event, b)
	if s.fl != nil {
		s.fl.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// mock is one server's state: its pacing and the counter its message ids
// come from.
type mock struct {
	pace pacing
	ids  atomic.Int64
}

// newHandler serves both APIs, logging every request to logger (and its
// body to a file in dump, unless dump is empty).
func newHandler(p pacing, logger *log.Logger, dump string) http.Handler {
	m := &mock{pace: p}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		var req agentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		m.anthropicMessage(w, r, req)
	})
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		writeJSON(w, map[string]any{"input_tokens": 1 + len(b)/4})
	})
	mux.HandleFunc("POST /v1/responses", func(w http.ResponseWriter, r *http.Request) {
		var req agentRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		m.openaiResponse(w, r, req)
	})
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock", "object": "model", "type": "model", "display_name": "Mock"}}})
	})
	return logRequests(mux, logger, dump)
}

// logRequests logs each request's method, path and the start of its body,
// and with dump set writes each whole body to dump/N.json.
func logRequests(next http.Handler, logger *log.Logger, dump string) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		head := strings.ToValidUTF8(string(body[:min(len(body), 300)]), "?")
		logger.Printf("%s %s (%d bytes) %s", r.Method, r.URL, len(body), head)
		if dump != "" {
			name := filepath.Join(dump, fmt.Sprintf("%03d.json", n.Add(1)))
			if err := os.WriteFile(name, body, 0o644); err != nil {
				logger.Printf("dump: %v", err)
			}
		}
		next.ServeHTTP(w, r)
	})
}
