//go:build !unix

package config

import "os"

// PrivateDir creates dir 0700 (ownership is not checked here).
func PrivateDir(dir string, _ int) error { return os.MkdirAll(dir, 0o700) }
