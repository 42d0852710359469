// Package mcp runs alice's two MCP listeners over Streamable HTTP:
//
//   - the main tool server (NewMain): /mcp exposes the ToolCenter catalogue
//     minus disabled tools, /mcp/{wsId} the workspace-scoped tools with the
//     identity taken from the URL;
//   - the Ask connector (NewAsk): a separate port through which other agents
//     converse with Alice. Its tools are never in ToolCenter, so Alice's own
//     model cannot call herself.
//
// Both bind loopback by default, reject DNS-rebinding Host/Origin headers,
// accept an optional bearer token and cap request bodies.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/alice-trading/alice/config"
)

// DefaultMaxRequestBytes caps a request body when the config leaves it 0.
const DefaultMaxRequestBytes int64 = 4 << 20

// Listen is the network part shared by both listeners.
type Listen struct {
	// Host to bind; empty means 127.0.0.1.
	Host string
	// Port to bind; 0 picks a free port (see Server.Addr).
	Port int
	// Token, when set, must arrive as "Authorization: Bearer <token>".
	Token string
	// TokenSource, when set, is asked for the current token on every
	// request instead of Token, so a token generated or revoked in the
	// Settings pane (or by editing the file) applies without a restart.
	TokenSource func() string
	// MaxRequestBytes caps one request body; 0 means DefaultMaxRequestBytes.
	MaxRequestBytes int64
	// AllowedOrigins extends the loopback Origin/Host values accepted.
	AllowedOrigins []string
	// Sessions bounds client sessions and streams (0 fields: defaults).
	Sessions SessionLimits
}

// ListenFromMCP adapts mcp.json.
func ListenFromMCP(c config.MCP) Listen {
	return Listen{Host: c.Host, Port: c.Port, Token: c.Token, MaxRequestBytes: c.MaxRequestBytes, AllowedOrigins: c.AllowedOrigins, Sessions: sessionLimits(c)}
}

func sessionLimits(c config.MCP) SessionLimits {
	return SessionLimits{Idle: time.Duration(c.SessionIdleMinutes) * time.Minute, MaxStreamsPerSession: c.MaxStreamsPerSession, MaxStreams: c.MaxStreams}
}

// ListenFromAsk adapts connectors.json mcpAsk; body cap and extra origins
// come from the main MCP config so both listeners share one policy.
func ListenFromAsk(c config.MCPAsk, main config.MCP) Listen {
	return Listen{Host: c.Host, Port: c.Port, Token: c.Token, MaxRequestBytes: main.MaxRequestBytes, AllowedOrigins: main.AllowedOrigins, Sessions: sessionLimits(main)}
}

// AskEnabled reports whether the Ask connector should start. Port 0 picks
// a free port (README, the Settings form, like the main listener's port);
// "enabled": false is how it is turned off.
func AskEnabled(c config.MCPAsk) bool { return c.Enabled }

// Server is one HTTP listener carrying MCP endpoints (and, on the main
// server, extra routes such as webhook ingest).
type Server struct {
	name  string
	cfg   Listen
	log   *slog.Logger
	guard *guard
	mux   *http.ServeMux
	// sessions is the listener's session table, shared by every MCP
	// endpoint and transport on it.
	sessions *sessions

	mu      sync.Mutex
	srv     *http.Server
	addr    net.Addr
	cancel  context.CancelFunc
	done    chan struct{}
	stopped bool
}

func newServer(name string, cfg Listen, log *slog.Logger) *Server {
	if log == nil {
		log = slog.Default()
	}
	log = log.With("listener", name)
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	return &Server{name: name, cfg: cfg, log: log, guard: newGuard(cfg, log), mux: http.NewServeMux(), sessions: newSessions(name, cfg.Sessions)}
}

// mountMCP registers an MCP endpoint behind every protection.
func (s *Server) mountMCP(pattern string, h http.Handler) {
	s.mux.Handle(pattern, s.guard.protect(s.sessions.gate(s.guard.numbers(h))))
}

// Clients lists the MCP client sessions currently open on this listener,
// oldest first (expired ones are dropped first).
func (s *Server) Clients() []ClientInfo { return s.sessions.list() }

// Handle mounts an extra route (e.g. "POST /api/events/ingest") on this
// listener. It gets panic recovery, access logging and the body cap, but
// not the MCP bearer token or Host check: such routes authenticate with
// their own credentials. Call before Start.
func (s *Server) Handle(pattern string, h http.Handler) {
	s.mux.Handle(pattern, s.guard.bodyCap(h))
}

// Handler is the full middleware stack, for tests and embedding.
func (s *Server) Handler() http.Handler {
	return s.guard.recoverer(s.guard.accessLog(s.mux))
}

// Start binds the port and serves in the background until ctx ends or
// Shutdown is called. A busy port is reported as a clear error.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil || s.stopped {
		return fmt.Errorf("mcp %s: already started", s.name)
	}
	hostport := net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port))
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", hostport)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("mcp %s: port %s is already in use (another alice running? change the port in the config): %w", s.name, hostport, err)
		}
		return fmt.Errorf("mcp %s: listen on %s: %w", s.name, hostport, err)
	}
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	s.addr = ln.Addr()
	s.done = make(chan struct{})
	s.srv = &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// No WriteTimeout: an Ask turn or an SSE stream may run for minutes.
		BaseContext: func(net.Listener) context.Context { return base },
		ErrorLog:    slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	srv, done := s.srv, s.done
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("mcp: serve stopped", "err", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
			defer c()
			_ = s.Shutdown(sctx)
		case <-done:
		}
	}()
	s.log.Info("mcp: listening", "url", s.urlLocked())
	return nil
}

// Shutdown stops accepting requests, ends open streams and waits for
// in-flight requests until ctx expires.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.stopped = true
	srv, cancel, done := s.srv, s.cancel, s.done
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	cancel() // ends SSE streams, which would otherwise hold Shutdown
	err := srv.Shutdown(ctx)
	if err != nil {
		_ = srv.Close()
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
	return err
}

// Close is Shutdown with a short grace period.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return s.Shutdown(ctx)
}

// Addr is the bound host:port ("" before Start).
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.addr == nil {
		return ""
	}
	return s.addr.String()
}

// URL is the MCP endpoint local clients should use, e.g.
// http://127.0.0.1:3001/mcp ("" before Start). An unspecified bind host
// (0.0.0.0) is shown as 127.0.0.1.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.urlLocked()
}

func (s *Server) urlLocked() string {
	if s.addr == nil {
		return ""
	}
	host, port, err := net.SplitHostPort(s.addr.String())
	if err != nil {
		return ""
	}
	if isUnspecified(host) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/mcp"
}

// WorkspaceURL is the endpoint a workspace's .mcp.json points at.
func (s *Server) WorkspaceURL(wsID string) string {
	u := s.URL()
	if u == "" {
		return ""
	}
	return u + "/" + url.PathEscape(wsID)
}

// Running reports whether the listener is serving (for the status bar).
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv != nil && !s.stopped
}

// Name is "main" or "ask", for the status bar.
func (s *Server) Name() string { return s.name }
