package mcp

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// guard holds the HTTP-level protections shared by both listeners. They run
// before any MCP parsing so a hostile request never reaches a tool.
type guard struct {
	token        func() string
	maxBytes     int64
	allowOrigins map[string]bool // "scheme://host[:port]", lower-cased
	allowHosts   map[string]bool // host names taken from allowOrigins and the bind host
	log          *slog.Logger
}

func newGuard(l Listen, log *slog.Logger) *guard {
	token := l.TokenSource
	if token == nil {
		fixed := l.Token
		token = func() string { return fixed }
	}
	g := &guard{
		token:        token,
		maxBytes:     l.MaxRequestBytes,
		allowOrigins: map[string]bool{},
		allowHosts:   map[string]bool{},
		log:          log,
	}
	if g.maxBytes <= 0 {
		g.maxBytes = DefaultMaxRequestBytes
	}
	for _, o := range l.AllowedOrigins {
		o = strings.TrimRight(strings.ToLower(strings.TrimSpace(o)), "/")
		if o == "" {
			continue
		}
		g.allowOrigins[o] = true
		if u, err := url.Parse(o); err == nil && u.Hostname() != "" {
			g.allowHosts[u.Hostname()] = true
		}
	}
	if h := strings.ToLower(strings.Trim(l.Host, "[]")); h != "" && !isUnspecified(h) {
		g.allowHosts[h] = true
	}
	return g
}

// httpError writes a small JSON body; MCP clients show the message.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// recoverer turns a panic anywhere below into a 500 instead of killing the
// connection goroutine silently.
func (g *guard) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				g.log.Error("mcp: handler panic", "path", r.URL.Path, "panic", fmt.Sprint(v))
				httpError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush keeps SSE streaming working through the wrapper.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// accessLog records one line per request: rejections at Warn (they are
// what an operator needs to see), the rest at Debug.
func (g *guard) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		level := slog.LevelDebug
		if sw.status >= 400 {
			level = slog.LevelWarn
		}
		if g.log.Enabled(r.Context(), level) {
			g.log.Log(r.Context(), level, "mcp: http",
				"method", r.Method, "path", r.URL.Path, "status", sw.status,
				"remote", r.RemoteAddr, "dur", time.Since(start))
		}
	})
}

// rebinding rejects requests whose Host or Origin could come from a DNS
// rebinding attack: a web page whose domain resolves to 127.0.0.1 would
// otherwise drive the victim's browser against these trading tools.
func (g *guard) rebinding(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !g.originAllowed(origin) {
			httpError(w, http.StatusForbidden, fmt.Sprintf("forbidden: origin %q is not allowed (add it to allowedOrigins)", origin))
			return
		}
		if arrivedOnLoopback(r) && !g.hostAllowed(r.Host) {
			httpError(w, http.StatusForbidden, fmt.Sprintf("forbidden: invalid Host header %q", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g *guard) originAllowed(origin string) bool {
	o := strings.TrimRight(strings.ToLower(origin), "/")
	if g.allowOrigins[o] || g.allowOrigins["*"] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopbackName(u.Hostname())
}

func (g *guard) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return isLoopbackName(host) || g.allowHosts[host]
}

// arrivedOnLoopback: DNS rebinding only targets servers reachable on
// loopback, and a LAN bind legitimately sees LAN Host headers.
func arrivedOnLoopback(r *http.Request) bool {
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || la == nil {
		return true // unknown (e.g. httptest without a listener): be strict
	}
	host, _, err := net.SplitHostPort(la.String())
	if err != nil {
		host = la.String()
	}
	return isLoopbackName(host)
}

func isLoopbackName(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

func isUnspecified(host string) bool {
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsUnspecified()
}

// bearer enforces the optional token. Preflight OPTIONS pass so browsers
// can learn CORS rules before sending the credential.
func (g *guard) bearer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		want := g.token()
		if want != "" && r.Method != http.MethodOptions {
			got, ok := bearerToken(r.Header.Get("Authorization"))
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="alice"`)
				httpError(w, http.StatusUnauthorized, "unauthorized: missing or wrong bearer token")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bearerToken extracts the credential of an "Authorization: Bearer x"
// header. The scheme is case-insensitive (RFC 9110 §11.1), so "bearer x"
// and "BEARER x" are accepted too.
func bearerToken(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// bodyCap reads the body up to the limit so an oversized request is
// answered with 413 before the MCP layer sees it (the transport reads the
// whole body anyway, so buffering here costs no extra pass).
func (g *guard) bodyCap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > g.maxBytes {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", g.maxBytes))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", g.maxBytes))
				return
			}
			httpError(w, http.StatusBadRequest, "reading request body: "+err.Error())
			return
		}
		r.Body = &bodyReader{Reader: bytes.NewReader(body), b: body}
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// protect wraps an MCP endpoint with every check; extra routes mounted by
// Handle own their authentication and skip the MCP token and Host checks.
func (g *guard) protect(h http.Handler) http.Handler {
	return g.rebinding(g.bearer(g.bodyCap(h)))
}
