package main

import (
	"bufio"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// event is one server-sent event: its name and its JSON body.
type event struct {
	name string
	data map[string]any
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return resp
}

// readEvents parses a text/event-stream body, requiring each event's
// name to match its JSON "type" as both APIs do.
func readEvents(t *testing.T, r io.Reader) []event {
	t.Helper()
	var out []event
	var name string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var data map[string]any
			require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &data))
			require.Equal(t, name, data["type"], "event name and type")
			out = append(out, event{name, data})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

func names(evs []event) []string {
	var out []string
	for _, e := range evs {
		if len(out) == 0 || out[len(out)-1] != e.name {
			out = append(out, e.name)
		}
	}
	return out
}

func newServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(newHandler(pacing{}, log.New(io.Discard, "", 0), t.TempDir()))
	t.Cleanup(srv.Close)
	return srv
}

func TestAnthropicStreamsTheLongAnswer(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	resp := post(t, srv.URL+"/v1/messages?beta=true", `{"model":"claude-x","stream":true,"tools":[{"name":"Bash"}],"messages":[]}`)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	evs := readEvents(t, resp.Body)
	require.Equal(t, []string{"message_start", "content_block_start", "ping", "content_block_delta",
		"content_block_stop", "message_delta", "message_stop"}, names(evs))
	var text strings.Builder
	for _, e := range evs {
		if e.name == "content_block_delta" {
			d := e.data["delta"].(map[string]any)
			require.Equal(t, "text_delta", d["type"])
			text.WriteString(d["text"].(string))
		}
	}
	require.Equal(t, longAnswer, text.String())
	require.Greater(t, len(evs), 100, "streamed word by word")
	require.Equal(t, "claude-x", evs[0].data["message"].(map[string]any)["model"])
	require.Equal(t, "end_turn", evs[len(evs)-2].data["delta"].(map[string]any)["stop_reason"])
}

func TestAnthropicTitleAndPlainMessage(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	resp := post(t, srv.URL+"/v1/messages", `{"model":"m","output_config":{"format":{"type":"json_schema"}},"messages":[]}`)
	var msg struct {
		StopReason string `json:"stop_reason"`
		Content    []struct{ Type, Text string }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&msg))
	require.Equal(t, "end_turn", msg.StopReason)
	require.Len(t, msg.Content, 1)
	var title map[string]string
	require.NoError(t, json.Unmarshal([]byte(msg.Content[0].Text), &title))
	require.Equal(t, "Moving average crossover", title["title"])

	resp = post(t, srv.URL+"/v1/messages/count_tokens", `{"model":"m","messages":[{"role":"user","content":"hello there"}]}`)
	var count map[string]int
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&count))
	require.Positive(t, count["input_tokens"])
}

func TestResponsesStreamsTheLongAnswerAndTitles(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	evs := readEvents(t, post(t, srv.URL+"/v1/responses", `{"model":"gpt-x","stream":true,"input":[]}`).Body)
	require.Equal(t, []string{"response.created", "response.in_progress", "response.output_item.added",
		"response.content_part.added", "response.output_text.delta", "response.output_text.done",
		"response.content_part.done", "response.output_item.done", "response.completed"}, names(evs))
	var text strings.Builder
	for i, e := range evs {
		require.EqualValues(t, i, e.data["sequence_number"])
		if e.name == "response.output_text.delta" {
			text.WriteString(e.data["delta"].(string))
		}
	}
	require.Equal(t, longAnswer, text.String())
	done := evs[len(evs)-1].data["response"].(map[string]any)
	require.Equal(t, "completed", done["status"])
	require.Equal(t, evs[0].data["response"].(map[string]any)["id"], done["id"])
	out := done["output"].([]any)[0].(map[string]any)["content"].([]any)[0].(map[string]any)
	require.Equal(t, longAnswer, out["text"])

	evs = readEvents(t, post(t, srv.URL+"/v1/responses", `{"model":"gpt-x","stream":true,"text":{"format":{"type":"json_schema"}}}`).Body)
	var title strings.Builder
	for _, e := range evs {
		if e.name == "response.output_text.delta" {
			title.WriteString(e.data["delta"].(string))
		}
	}
	require.JSONEq(t, titleAnswer, title.String())
}

func TestWordsRejoin(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "one", "  lead", "a b\n\nc\t", "| x |\n|---|\n"} {
		require.Equal(t, s, strings.Join(words(s), ""), "%q", s)
	}
	require.Equal(t, []string{"a ", "b\n\n", "c"}, words("a b\n\nc"))
}

func TestUnknownPathsAre404(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestListensOnLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:0", "nonsense"} {
		_, err := listenLoopback(addr)
		require.Error(t, err, addr)
	}
	ln, err := listenLoopback("127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
}
