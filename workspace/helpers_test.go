package workspace

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/core/proctree/proctreetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	waitFor = 30 * time.Second
	tick    = 20 * time.Millisecond
)

func newTestManager(t *testing.T, root string, mod func(*Options)) *Manager {
	t.Helper()
	opts := Options{
		Root:         root,
		MCPURL:       func() string { return "http://127.0.0.1:4567/mcp" },
		ShellCommand: []string{"/bin/sh"},
		ExtraEnv:     []string{"PS1=$ ", "ENV="},
		RespawnDelay: 20 * time.Millisecond,
		Logger:       slog.New(slog.DiscardHandler),
	}
	if mod != nil {
		mod(&opts)
	}
	m, err := NewManager(opts)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	return m
}

func createWS(t *testing.T, m *Manager, tag, tmpl string) Workspace {
	t.Helper()
	w, err := m.Create(context.Background(), tag, tmpl, nil)
	require.NoError(t, err)
	return w
}

func waitState(t *testing.T, s *Session, want SessionState) {
	t.Helper()
	require.Eventually(t, func() bool { st, _ := s.State(); return st == want }, waitFor, tick,
		"session never reached %s", want)
}

func waitScreen(t *testing.T, s *Session, substr string) {
	t.Helper()
	ok := assert.Eventually(t, func() bool { return strings.Contains(s.Screen(), substr) }, waitFor, tick,
		"screen never showed %q; screen:\n%s", substr, s.Screen())
	if !ok {
		r := s.Replay()
		t.Fatalf("replay tail: %q", r[max(0, len(r)-400):])
	}
}

func typeText(s *Session, text string) {
	for _, r := range text {
		s.SendKey(KeyPress{Code: r, Text: string(r)})
	}
}

// alive reports whether pid is a live (non-zombie) process.
func alive(pid int) bool { return proctreetest.Alive(pid) }
