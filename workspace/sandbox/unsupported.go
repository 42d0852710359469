//go:build !linux

package sandbox

import "os/exec"

// Wrap reports ErrUnsupported: the sandbox needs Linux namespaces.
func Wrap(cmd *exec.Cmd, p Policy) error { return ErrUnsupported }

// Probe reports ErrUnsupported: the sandbox needs Linux namespaces.
func Probe() error { return ErrUnsupported }
