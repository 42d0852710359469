package agent

import (
	_ "embed"
	"os"
	"strings"
)

// DefaultPersona is the system prompt used when the user has not written
// <data>/brain/persona.md.
//
//go:embed persona.md
var DefaultPersona string

// PersonaFile returns a Persona func that re-reads path on every request
// (so edits apply to the next message) and falls back to DefaultPersona
// when the file is missing or blank.
func PersonaFile(path string) func() string {
	return func() string {
		b, err := os.ReadFile(path)
		if err != nil || strings.TrimSpace(string(b)) == "" {
			return DefaultPersona
		}
		return string(b)
	}
}
