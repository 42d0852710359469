package config

import (
	"fmt"
	"net"
)

// AttachFile is attach.json: how terminals attach to the running core.
const AttachFile = "attach.json"

// Attach configures the relay that serves the TUI of a running core to
// the terminals that attach to it. The local unix socket (data dir,
// same user only) is always on; the SSH listener is off unless enabled.
type Attach struct {
	// MaxClients bounds terminals attached at once (0: 8).
	MaxClients int `json:"maxClients,omitempty"`
	// SSH serves the TUI to `ssh -p PORT host` with public-key auth.
	SSH AttachSSH `json:"ssh"`
}

// AttachSSH is the optional SSH listener.
type AttachSSH struct {
	Enabled bool `json:"enabled"`
	// Host defaults to loopback; another address exposes the TUI (and
	// with it trading) to that network, key auth still required.
	Host string `json:"host,omitempty"`
	// Port 0 asks the system for a free port; kept as 0 when saved.
	Port int `json:"port"`
	// AuthorizedKeys is the file of public keys allowed to log in
	// (default: authorized_keys in the config dir).
	AuthorizedKeys string `json:"authorizedKeys,omitempty"`
}

// DefaultAttach: local socket only, SSH off (port 2222 when enabled).
func DefaultAttach() Attach {
	return Attach{SSH: AttachSSH{Host: "127.0.0.1", Port: 2222}}
}

// Validate checks the bounds and the SSH address.
func (c *Attach) Validate() (string, error) {
	if c.MaxClients < 0 || c.MaxClients > 64 {
		return "maxClients", fmt.Errorf("must be 0..64, got %d", c.MaxClients)
	}
	if c.SSH.Port < 0 || c.SSH.Port > 65535 {
		return "ssh.port", fmt.Errorf("must be 0..65535, got %d", c.SSH.Port)
	}
	if c.SSH.Host != "" && net.ParseIP(c.SSH.Host) == nil && c.SSH.Host != "localhost" {
		return "ssh.host", fmt.Errorf("must be an IP address or localhost, got %q", c.SSH.Host)
	}
	return "", nil
}

// Attach loads attach.json.
func (s *Store) Attach() (Attach, error) { return Load(s, AttachFile, DefaultAttach) }
