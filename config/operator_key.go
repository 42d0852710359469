package config

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// OperatorKeyFile names the per-core secret in the data dir that proves a
// kill-switch request comes from the person's alice CLI on this machine
// (it reads the file; the file is 0600, so only the same user can).
//
// Limit, stated honestly: workspace agents run as the same user, so an
// agent with a shell could read it too. The key is never handed to MCP
// tools or agents, and every reader of the file outside alice itself is
// reading a person's private data dir; it stops any local process that
// merely knows the port and the MCP token.
const OperatorKeyFile = "operator.key"

// OperatorKeyHeader carries the key on the main listener's kill-switch routes.
const OperatorKeyHeader = "X-Alice-Operator-Key"

// NewOperatorKey writes a fresh random key to dataDir/operator.key (0600,
// replaced atomically) and returns it. The running alice calls it once
// at start, so a key from an earlier run stops working.
func NewOperatorKey(dataDir string) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	key := hex.EncodeToString(b[:])
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dataDir, OperatorKeyFile+".*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", err
	}
	if _, err := tmp.WriteString(key + "\n"); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dataDir, OperatorKeyFile)); err != nil {
		return "", err
	}
	return key, nil
}

// ReadOperatorKey reads the key the running alice wrote. It refuses a key
// file other users could read.
func ReadOperatorKey(dataDir string) (string, error) {
	p := filepath.Join(dataDir, OperatorKeyFile)
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("operator key: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("operator key %s is readable by other users (mode %v); refusing it", p, st.Mode().Perm())
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("operator key: %w", err)
	}
	key := strings.TrimSpace(string(b))
	if key == "" {
		return "", errors.New("operator key " + p + " is empty")
	}
	return key, nil
}

// OperatorKeyMatches compares a presented key with the expected one in
// constant time; an empty expected key matches nothing.
func OperatorKeyMatches(want, got string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}
