package mcp

import "net/http"

// HandleProtected mounts an extra route behind the same protections as the
// MCP endpoints — Host/Origin (DNS rebinding) checks, the bearer token when
// one is configured, the body cap — for alice's own loopback API (e.g.
// /api/workspaces). Call before Start.
func (s *Server) HandleProtected(pattern string, h http.Handler) {
	s.mux.Handle(pattern, s.guard.protect(h))
}
