package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"sort"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Session defaults, used when SessionLimits leaves a field 0.
const (
	DefaultSessionIdle          = 30 * time.Minute
	DefaultMaxStreamsPerSession = 2
	DefaultMaxStreams           = 64
	DefaultMaxSessions          = 4096
)

// SessionLimits bound what MCP clients can hold open on one listener.
type SessionLimits struct {
	// Idle expires a session with no request and no open stream for this
	// long; its id then answers 404 so the client re-initializes.
	Idle time.Duration
	// MaxStreamsPerSession and MaxStreams cap open GET (SSE) streams.
	MaxStreamsPerSession int
	MaxStreams           int
	// MaxSessions caps live sessions; past it the least recently used
	// session without a stream is dropped.
	MaxSessions int
}

func (l SessionLimits) withDefaults() SessionLimits {
	if l.Idle <= 0 {
		l.Idle = DefaultSessionIdle
	}
	if l.MaxStreamsPerSession <= 0 {
		l.MaxStreamsPerSession = DefaultMaxStreamsPerSession
	}
	if l.MaxStreams <= 0 {
		l.MaxStreams = DefaultMaxStreams
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	return l
}

// ClientInfo describes one connected MCP client session, for the TUI's
// MCP page.
type ClientInfo struct {
	// SessionID is the Mcp-Session-Id; clients of the session-less
	// 2026-07-28 protocol get a synthetic "stateless …" key instead.
	SessionID string
	// Listener is "main" or "ask".
	Listener string
	// Endpoint is the path the session was opened on: "/mcp",
	// "/mcp/{wsId}" (with the real id) or, on the Ask listener, "/mcp".
	Endpoint string
	// Name and Version come from initialize's clientInfo.
	Name, Version string
	Connected     time.Time
	// LastCall is the last tools/call (zero if none); LastSeen the last
	// request of any kind.
	LastCall, LastSeen time.Time
	// Calls counts tools/call per tool name.
	Calls map[string]int
	// Streams is the number of open GET (SSE) streams.
	Streams int
}

type sessionState struct {
	info ClientInfo
	// stateless entries track 2026-07-28 clients, which have no session:
	// they are listed but their key is never accepted as a session id.
	stateless bool
	cancels   map[int]context.CancelFunc // open streams, ended on DELETE
	nextID    int
}

// sessions is one listener's session table. It is the single authority
// on which Mcp-Session-Id values are live: the gate answers 400/404 from
// it before mcp-go sees the request, and it is mcp-go's SessionIdManager
// for every transport the listener's catalogues create.
type sessions struct {
	listener string
	limits   SessionLimits
	now      func() time.Time

	mu      sync.Mutex
	live    map[string]*sessionState
	streams int
}

func newSessions(listener string, l SessionLimits) *sessions {
	return &sessions{listener: listener, limits: l.withDefaults(), now: time.Now, live: map[string]*sessionState{}}
}

// initKey carries the initialize request's endpoint and clientInfo to
// Generate, which mcp-go calls without them.
type initKey struct{}

type initInfo struct{ endpoint, name, version string }

// ResolveSessionIdManager implements server.SessionIdManagerResolver.
func (s *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	var in initInfo
	if r != nil {
		in, _ = r.Context().Value(initKey{}).(initInfo)
	}
	return sessionManager{s: s, init: in}
}

type sessionManager struct {
	s    *sessions
	init initInfo
}

func (m sessionManager) Generate() string { return m.s.create(m.init) }

func (m sessionManager) Validate(id string) (bool, error) {
	if !m.s.touch(id, "", "") {
		return false, errors.New("session not found")
	}
	return false, nil
}

func (m sessionManager) Terminate(id string) (bool, error) {
	m.s.remove(id)
	return false, nil
}

func (s *sessions) create(in initInfo) string {
	id := "mcp-session-" + rand.Text()
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	for len(s.live) >= s.limits.MaxSessions && s.evictOneLocked(false) {
	}
	s.live[id] = &sessionState{info: ClientInfo{
		SessionID: id, Listener: s.listener, Endpoint: in.endpoint,
		Name: in.name, Version: in.version, Connected: now, LastSeen: now,
		Calls: map[string]int{},
	}}
	return id
}

// sweepLocked drops idle sessions. It runs when a session is created or
// listed, so expired sessions cost nothing without a background goroutine:
// memory only grows through new sessions, which pay for the sweep.
func (s *sessions) sweepLocked(now time.Time) {
	for id, st := range s.live {
		if len(st.cancels) == 0 && now.Sub(st.info.LastSeen) >= s.limits.Idle {
			delete(s.live, id)
		}
	}
}

// evictOneLocked drops the least recently seen entry without streams,
// session-less entries first (they are only listed, so dropping one costs
// no client anything). statelessOnly leaves real sessions alone.
func (s *sessions) evictOneLocked(statelessOnly bool) bool {
	oldest := func(stateless bool) string {
		id := ""
		for k, st := range s.live {
			if st.stateless == stateless && len(st.cancels) == 0 && (id == "" || st.info.LastSeen.Before(s.live[id].info.LastSeen)) {
				id = k
			}
		}
		return id
	}
	victim := oldest(true)
	if victim == "" && !statelessOnly {
		victim = oldest(false)
	}
	if victim == "" {
		return false
	}
	delete(s.live, victim)
	return true
}

// touch reports whether id is live (and, when endpoint is given, opened on
// that endpoint), recording the request and a tools/call of tool.
func (s *sessions) touch(id, endpoint, tool string) bool {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.live[id]
	if !ok || st.stateless {
		return false
	}
	if len(st.cancels) == 0 && now.Sub(st.info.LastSeen) >= s.limits.Idle {
		delete(s.live, id)
		return false
	}
	if endpoint != "" && st.info.Endpoint != "" && st.info.Endpoint != endpoint {
		return false
	}
	st.info.LastSeen = now
	if tool != "" {
		st.info.LastCall = now
		st.info.Calls[tool]++
	}
	return true
}

func (s *sessions) remove(id string) {
	s.mu.Lock()
	st, ok := s.live[id]
	delete(s.live, id)
	s.mu.Unlock()
	if ok {
		for _, cancel := range st.cancels {
			cancel()
		}
	}
}

var (
	errStreamsPerSession = errors.New("too many open streams for this session")
	errStreamsTotal      = errors.New("too many open streams on this server")
)

// openStream reserves a stream slot; release frees it. The returned
// context ends when the session is deleted.
func (s *sessions) openStream(ctx context.Context, id string) (context.Context, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.live[id]
	if !ok {
		return nil, nil, errors.New("session not found")
	}
	if len(st.cancels) >= s.limits.MaxStreamsPerSession {
		return nil, nil, errStreamsPerSession
	}
	if s.streams >= s.limits.MaxStreams {
		return nil, nil, errStreamsTotal
	}
	ctx, cancel := context.WithCancel(ctx)
	if st.cancels == nil {
		st.cancels = map[int]context.CancelFunc{}
	}
	n := st.nextID
	st.nextID++
	st.cancels[n] = cancel
	st.info.LastSeen = s.now()
	s.streams++
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			cancel()
			s.mu.Lock()
			defer s.mu.Unlock()
			s.streams--
			if cur, ok := s.live[id]; ok && cur == st {
				delete(st.cancels, n)
				st.info.LastSeen = s.now()
			}
		})
	}, nil
}

// statelessPrefix marks the keys of session-less (2026-07-28) clients;
// it contains a space, which no generated session id does.
const statelessPrefix = "stateless "

// noteStateless records a request of a session-less client under a key
// made of its endpoint and declared identity, so it shows in Clients
// and expires like a session. Its entry never displaces a real session.
func (s *sessions) noteStateless(endpoint string, p rpcPeek) {
	name, version := p.Params.Meta.ClientInfo.Name, p.Params.Meta.ClientInfo.Version
	key := statelessPrefix + endpoint + " " + name + "/" + version
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.live[key]
	if !ok {
		s.sweepLocked(now)
		for len(s.live) >= s.limits.MaxSessions && s.evictOneLocked(true) {
		}
		if len(s.live) >= s.limits.MaxSessions {
			return // the table is full of real sessions: never evict one for a listing
		}
		st = &sessionState{stateless: true, info: ClientInfo{
			SessionID: key, Listener: s.listener, Endpoint: endpoint,
			Name: name, Version: version, Connected: now, Calls: map[string]int{},
		}}
		s.live[key] = st
	}
	st.info.LastSeen = now
	if p.Method == string(mcpgo.MethodToolsCall) {
		st.info.LastCall = now
		st.info.Calls[p.Params.Name]++
	}
}

// clientRef is the MCP client behind a request: its session id (none in
// the session-less protocol) and the clientInfo name it gave.
type clientRef struct{ session, name string }

type clientKey struct{}

func withClient(ctx context.Context, c clientRef) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

func clientFrom(ctx context.Context) clientRef {
	c, _ := ctx.Value(clientKey{}).(clientRef)
	return c
}

// clientName is the clientInfo name a live session gave at initialize.
func (s *sessions) clientName(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.live[id]; ok {
		return st.info.Name
	}
	return ""
}

// list returns the live sessions, oldest first.
func (s *sessions) list() []ClientInfo {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked(now)
	out := make([]ClientInfo, 0, len(s.live))
	for _, st := range s.live {
		ci := st.info
		ci.Calls = maps.Clone(st.info.Calls)
		ci.Streams = len(st.cancels)
		out = append(out, ci)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Connected.Equal(out[j].Connected) {
			return out[i].Connected.Before(out[j].Connected)
		}
		return out[i].SessionID < out[j].SessionID
	})
	return out
}

// rpcPeek is the part of a JSON-RPC body the gate needs.
type rpcPeek struct {
	Method string `json:"method"`
	Params struct {
		Name       string `json:"name"`
		ClientInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clientInfo"`
		Meta struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
			ClientInfo      struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"io.modelcontextprotocol/clientInfo"`
		} `json:"_meta"`
	} `json:"params"`
}

// gate enforces the session rules of the Streamable HTTP transport before
// mcp-go sees a request: a missing Mcp-Session-Id on anything but
// initialize is 400, an unknown or expired one (or one opened on another
// endpoint) is 404, and GET streams are capped. Requests in the
// session-less 2026-07-28 protocol era pass through untouched.
func (s *sessions) gate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		endpoint := r.URL.Path
		modern := mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion))
		id := r.Header.Get(server.HeaderKeySessionID)
		switch r.Method {
		case http.MethodPost:
			var body []byte
			if br, ok := r.Body.(*bodyReader); ok { // bodyCap read it already
				body = br.b
			} else {
				var err error
				if body, err = io.ReadAll(r.Body); err != nil {
					httpError(w, http.StatusBadRequest, "reading request body: "+err.Error())
					return
				}
			}
			r.Body = &bodyReader{Reader: bytes.NewReader(body), b: body}
			var peek rpcPeek
			if json.Unmarshal(body, &peek) != nil {
				break // mcp-go answers with a JSON-RPC parse error
			}
			if modern || mcpgo.IsModernProtocol(peek.Params.Meta.ProtocolVersion) {
				s.noteStateless(endpoint, peek)
				r = r.WithContext(withClient(r.Context(), clientRef{name: peek.Params.Meta.ClientInfo.Name}))
				break
			}
			if peek.Method == string(mcpgo.MethodInitialize) {
				in := initInfo{endpoint: endpoint, name: peek.Params.ClientInfo.Name, version: peek.Params.ClientInfo.Version}
				r = r.WithContext(context.WithValue(r.Context(), initKey{}, in))
				break
			}
			tool := ""
			if peek.Method == string(mcpgo.MethodToolsCall) {
				tool = peek.Params.Name
				if tool == "" {
					tool = "(unnamed)"
				}
			}
			if !s.check(w, id, endpoint, tool) {
				return
			}
			r = r.WithContext(withClient(r.Context(), clientRef{session: id, name: s.clientName(id)}))
		case http.MethodGet:
			if modern {
				break
			}
			if !s.check(w, id, endpoint, "") {
				return
			}
			ctx, release, err := s.openStream(r.Context(), id)
			if err != nil {
				if errors.Is(err, errStreamsTotal) {
					w.Header().Set("Retry-After", "30")
					rpcHTTPError(w, http.StatusServiceUnavailable, err.Error())
				} else if errors.Is(err, errStreamsPerSession) {
					rpcHTTPError(w, http.StatusConflict, err.Error())
				} else {
					rpcHTTPError(w, http.StatusNotFound, "Session not found: initialize a new session")
				}
				return
			}
			defer release()
			r = r.WithContext(ctx)
		case http.MethodDelete:
			if modern {
				break
			}
			if !s.check(w, id, endpoint, "") {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// check answers 400 for a missing session id and 404 for an unknown one.
func (s *sessions) check(w http.ResponseWriter, id, endpoint, tool string) bool {
	if id == "" {
		rpcHTTPError(w, http.StatusBadRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)")
		return false
	}
	if !s.touch(id, endpoint, tool) {
		rpcHTTPError(w, http.StatusNotFound, "Session not found or expired: initialize a new session")
		return false
	}
	return true
}

// rpcHTTPError writes a JSON-RPC error body with an HTTP status, the shape
// MCP SDK clients parse for transport errors.
func rpcHTTPError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0", "id": nil,
		"error": map[string]any{"code": -32000, "message": msg},
	})
}
