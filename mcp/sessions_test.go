package mcp

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const listBody = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`

// do sends one raw request with the given method and headers.
func do(t *testing.T, method, url, body string, hdr map[string]string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// rawSession initializes over plain HTTP and returns the session id.
func rawSession(t *testing.T, url string) string {
	t.Helper()
	resp := do(t, http.MethodPost, url, initBody, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	return id
}

func TestSessionHeaderStatusCodes(t *testing.T) {
	f := newMainFixture(t, Listen{})
	url := f.srv.URL()
	live := rawSession(t, url)
	tests := []struct {
		name, method, url, body, session string
		want                             int
	}{
		{"POST without session", http.MethodPost, url, listBody, "", http.StatusBadRequest},
		{"POST unknown session", http.MethodPost, url, listBody, "mcp-session-nope", http.StatusNotFound},
		{"POST odd session", http.MethodPost, url, listBody, ".", http.StatusNotFound},
		{"POST live session", http.MethodPost, url, listBody, live, http.StatusOK},
		{"GET without session", http.MethodGet, url, "", "", http.StatusBadRequest},
		{"GET unknown session", http.MethodGet, url, "", "mcp-session-nope", http.StatusNotFound},
		{"DELETE without session", http.MethodDelete, url, "", "", http.StatusBadRequest},
		{"DELETE unknown session", http.MethodDelete, url, "", "mcp-session-nope", http.StatusNotFound},
		{"session bound to its endpoint", http.MethodPost, url + "/ws-1", listBody, live, http.StatusNotFound},
		{"workspace POST without session", http.MethodPost, url + "/ws-1", listBody, "", http.StatusBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
			if tc.session != "" {
				hdr["Mcp-Session-Id"] = tc.session
			}
			resp := do(t, tc.method, tc.url, tc.body, hdr)
			assert.Equal(t, tc.want, resp.StatusCode, readBody(resp))
		})
	}
	// DELETE ends the session: afterwards its id is 404.
	hdr := map[string]string{"Mcp-Session-Id": live}
	require.Equal(t, http.StatusOK, do(t, http.MethodDelete, url, "", hdr).StatusCode)
	require.Equal(t, http.StatusNotFound, do(t, http.MethodPost, url, listBody, hdr).StatusCode)
}

// TestSessionlessGETsOpenNoStreams: a thousand GETs without a session are
// answered at once and leave no goroutine or session behind.
func TestSessionlessGETsOpenNoStreams(t *testing.T) {
	f := newMainFixture(t, Listen{})
	before := runtime.NumGoroutine()
	for range 1000 {
		resp := do(t, http.MethodGet, f.srv.URL(), "", nil)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		_ = resp.Body.Close()
	}
	http.DefaultClient.CloseIdleConnections()
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+5 }, 30*time.Second, 20*time.Millisecond)
	assert.Empty(t, f.srv.Clients())
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	f := newMainFixture(t, Listen{Token: "tok"})
	for _, h := range []string{"bearer tok", "BEARER tok", "Bearer  tok "} {
		resp := post(t, f.srv.URL(), initBody, map[string]string{"Authorization": h})
		assert.Equal(t, http.StatusOK, resp.StatusCode, h)
	}
	for _, h := range []string{"bearertok", "Bearer", "Basic tok", "bearer tok2"} {
		resp := post(t, f.srv.URL(), initBody, map[string]string{"Authorization": h})
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, h)
	}
	c := connect(t, f.srv.URL(), map[string]string{"Authorization": "bearer tok"})
	assert.Contains(t, toolNames(t, c), "echo")
}

// fakeClock is a settable clock for expiry tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// connectLegacy opens an mcp-go client speaking the last protocol with
// sessions (2025-11-25); the default client speaks the session-less one.
func connectLegacy(t *testing.T, url, name string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url)
	require.NoError(t, err)
	c := client.NewClient(tr)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.Start(context.Background()))
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: name, Version: "2.1.0"}
	_, err = c.Initialize(context.Background(), init)
	require.NoError(t, err)
	return c
}

func TestIdleSessionsExpire(t *testing.T) {
	f := newMainFixture(t, Listen{Sessions: SessionLimits{Idle: 10 * time.Minute}})
	clock := &fakeClock{t: time.Now()}
	f.srv.sessions.now = clock.Now

	c := connectLegacy(t, f.srv.URL(), "legacy")
	for range 3 {
		clock.Add(9 * time.Minute) // activity keeps it alive
		callTool(t, c, "echo", map[string]any{"message": "hi"})
	}
	require.Len(t, f.srv.Clients(), 1)

	// A thousand clients that never say goodbye are reclaimed.
	for range 1000 {
		rawSession(t, f.srv.URL())
	}
	require.Len(t, f.srv.Clients(), 1001)
	clock.Add(11 * time.Minute)
	assert.Empty(t, f.srv.Clients(), "idle sessions dropped")

	req := mcpgo.CallToolRequest{}
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"message": "late"}
	_, err := c.CallTool(context.Background(), req)
	require.Error(t, err, "an expired session is refused")
	assert.Contains(t, err.Error(), "404")
}

func TestMaxSessionsEvictsLeastRecentlyUsed(t *testing.T) {
	f := newMainFixture(t, Listen{Sessions: SessionLimits{MaxSessions: 3}})
	clock := &fakeClock{t: time.Now()}
	f.srv.sessions.now = clock.Now
	var ids []string
	for range 3 {
		clock.Add(time.Second)
		ids = append(ids, rawSession(t, f.srv.URL()))
	}
	clock.Add(time.Second)
	resp := do(t, http.MethodPost, f.srv.URL(), listBody, map[string]string{"Mcp-Session-Id": ids[0]})
	require.Equal(t, http.StatusOK, resp.StatusCode) // ids[0] is now the most recent
	clock.Add(time.Second)
	rawSession(t, f.srv.URL())
	got := map[string]bool{}
	for _, c := range f.srv.Clients() {
		got[c.SessionID] = true
	}
	assert.Len(t, got, 3)
	assert.True(t, got[ids[0]])
	assert.False(t, got[ids[1]], "least recently used dropped")
}

// openStream starts a GET stream and returns its status and a closer.
func openStream(t *testing.T, url, session string) (int, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	return resp.StatusCode, func() { cancel(); _ = resp.Body.Close() }
}

func TestStreamCaps(t *testing.T) {
	f := newMainFixture(t, Listen{Sessions: SessionLimits{MaxStreamsPerSession: 1, MaxStreams: 2}})
	url := f.srv.URL()
	a, b, c := rawSession(t, url), rawSession(t, url), rawSession(t, url)

	st, closeA := openStream(t, url, a)
	require.Equal(t, http.StatusOK, st)
	st, closeA2 := openStream(t, url, a)
	closeA2()
	assert.Equal(t, http.StatusConflict, st, "per-session cap")
	st, closeB := openStream(t, url, b)
	defer closeB()
	require.Equal(t, http.StatusOK, st)
	st, closeC := openStream(t, url, c)
	closeC()
	assert.Equal(t, http.StatusServiceUnavailable, st, "total cap")

	streams := func(id string) int {
		for _, ci := range f.srv.Clients() {
			if ci.SessionID == id {
				return ci.Streams
			}
		}
		return -1
	}
	assert.Equal(t, 1, streams(a))
	closeA()
	require.Eventually(t, func() bool { return streams(a) == 0 }, 30*time.Second, 10*time.Millisecond)
	st, closeC = openStream(t, url, c)
	defer closeC()
	assert.Equal(t, http.StatusOK, st, "slot freed when a stream closes")
}

func TestDeleteEndsOpenStream(t *testing.T) {
	f := newMainFixture(t, Listen{})
	url := f.srv.URL()
	id := rawSession(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	ended := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
		close(ended)
	}()
	require.Equal(t, http.StatusOK, do(t, http.MethodDelete, url, "", map[string]string{"Mcp-Session-Id": id}).StatusCode)
	select {
	case <-ended:
	case <-ctx.Done():
		t.Fatal("stream still open after DELETE")
	}
	assert.Empty(t, f.srv.Clients())
}

func TestClientsReportsNameEndpointAndCalls(t *testing.T) {
	f := newMainFixture(t, Listen{})
	start := time.Now()
	c := connect(t, f.srv.URL(), nil)
	callTool(t, c, "echo", map[string]any{"message": "a"})
	callTool(t, c, "echo", map[string]any{"message": "b"})
	callTool(t, c, "boom", map[string]any{})

	ws := connectLegacy(t, f.srv.WorkspaceURL("ws-2"), "claude-code")
	callTool(t, ws, "whoami", map[string]any{})

	got := f.srv.Clients()
	require.Len(t, got, 2)
	byName := map[string]ClientInfo{}
	for _, ci := range got {
		byName[ci.Name] = ci
	}
	main := byName["alice-test"]
	assert.Equal(t, "/mcp", main.Endpoint)
	assert.Equal(t, "main", main.Listener)
	assert.Equal(t, "0", main.Version)
	assert.Equal(t, map[string]int{"echo": 2, "boom": 1}, main.Calls)
	assert.False(t, main.Connected.Before(start.Add(-time.Second)))
	assert.False(t, main.LastCall.Before(main.Connected))
	wsc := byName["claude-code"]
	assert.Equal(t, "/mcp/ws-2", wsc.Endpoint)
	assert.Equal(t, "2.1.0", wsc.Version)
	assert.Equal(t, map[string]int{"whoami": 1}, wsc.Calls)

	// The snapshot is a copy: mutating it changes nothing.
	main.Calls["echo"] = 99
	for _, ci := range f.srv.Clients() {
		if ci.Name == "alice-test" {
			assert.Equal(t, 2, ci.Calls["echo"])
		}
	}
	assert.True(t, strings.HasPrefix(main.SessionID, "stateless "), "the default mcp-go client is session-less")
	assert.True(t, strings.HasPrefix(wsc.SessionID, "mcp-session-"))
	require.NoError(t, ws.Close())
	require.Eventually(t, func() bool { return len(f.srv.Clients()) == 1 }, 30*time.Second, 10*time.Millisecond, "Close sends DELETE")
}
