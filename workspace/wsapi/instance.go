package wsapi

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"github.com/alice-trading/alice/config"
)

// InstanceFile is where a running alice records its main listener, under
// the data dir, so the CLI finds it even when the port was picked at
// random.
const InstanceFile = "run/api.json"

// Instance is the content of InstanceFile.
type Instance struct {
	PID int    `json:"pid"`
	URL string `json:"url"` // the main MCP endpoint (…/mcp)
}

// WriteInstance records the running instance (0600: the URL is local
// information; the token is never written here).
func WriteInstance(path string, in Instance) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// RemoveInstance deletes the record if it is still ours.
func RemoveInstance(path string, pid int) {
	raw, err := os.ReadFile(path)
	var in Instance
	if err == nil && json.Unmarshal(raw, &in) == nil && in.PID == pid {
		_ = os.Remove(path)
	}
}

// ReadInstance returns the record when it exists and its process is alive.
func ReadInstance(path string) (Instance, bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Instance{}, false
	}
	var in Instance
	if json.Unmarshal(raw, &in) != nil || in.PID <= 0 || in.URL == "" {
		return Instance{}, false
	}
	if err := syscall.Kill(in.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return Instance{}, false
	}
	return in, true
}
