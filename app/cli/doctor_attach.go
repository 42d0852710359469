package cli

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// isMCPListener reports whether a listener the running alice recorded is
// an MCP endpoint (http[s]://…); the attach listeners (unix://…, ssh://…)
// speak SSH, not MCP.
func isMCPListener(rawURL string) bool {
	return strings.HasPrefix(rawURL, "http://") || strings.HasPrefix(rawURL, "https://")
}

// checkAttachListener checks that an attach listener of the running alice
// (the local unix socket or the SSH port) accepts connections. It only
// connects and closes: the handshake and the key check are the client's.
func checkAttachListener(ctx context.Context, name, rawURL string) checkResult {
	r := checkResult{Name: name}
	network, addr := "", ""
	if u, err := url.Parse(rawURL); err == nil {
		switch u.Scheme {
		case "unix":
			network, addr = "unix", u.Path
		case "ssh":
			network, addr = "tcp", u.Host
		}
	}
	if network == "" || addr == "" {
		r.State, r.Detail = checkFail, fmt.Sprintf("%s: not a unix:// or ssh:// address", rawURL)
		r.Fix = "restart alice (alice stop, then alice or alice serve); its owner file lists what it serves"
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		r.State, r.Detail = checkFail, fmt.Sprintf("%s: %v", addr, err)
		r.Fix = "alice logs --level warn shows why; restart alice if the listener died (alice stop, then alice)"
		return r
	}
	_ = c.Close()
	how := "alice attach"
	if _, port, err := net.SplitHostPort(addr); err == nil && network == "tcp" {
		how = "ssh -p " + port
	}
	r.Detail = fmt.Sprintf("%s accepts connections (%s)", addr, how)
	return r
}
