package attach

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// ensureHostKey creates an ed25519 host key at path (0600) and its public
// half at path+".pub" when missing, so clients can pin the server's key.
func ensureHostKey(path string) error {
	if path == "" {
		return errors.New("attach: HostKeyPath is required")
	}
	if _, err := os.Stat(path); err == nil {
		if _, err := os.Stat(path + ".pub"); err == nil {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("attach: %w", err)
		}
		signer, err := gossh.ParsePrivateKey(b)
		if err != nil {
			return fmt.Errorf("attach: host key %s: %w", path, err)
		}
		return os.WriteFile(path+".pub", gossh.MarshalAuthorizedKey(signer.PublicKey()), 0o644)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "alice host key")
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	return os.WriteFile(path+".pub", gossh.MarshalAuthorizedKey(sshPub), 0o644)
}

// HostPublicKey reads the public half ensureHostKey wrote.
func HostPublicKey(hostKeyPath string) (gossh.PublicKey, error) {
	b, err := os.ReadFile(hostKeyPath + ".pub")
	if err != nil {
		return nil, fmt.Errorf("attach: the core's host key: %w", err)
	}
	k, _, _, _, err := gossh.ParseAuthorizedKey(b)
	if err != nil {
		return nil, fmt.Errorf("attach: the core's host key %s.pub: %w", hostKeyPath, err)
	}
	return k, nil
}
