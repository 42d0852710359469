package cli

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeLog(t *testing.T, home string, n int) string {
	t.Helper()
	dir := filepath.Join(home, "data", "logs")
	logger, c, err := app.OpenLog(dir, slog.LevelDebug)
	require.NoError(t, err)
	for i := range n {
		lvl := slog.LevelInfo
		if i%10 == 9 {
			lvl = slog.LevelWarn
		}
		logger.Log(context.Background(), lvl, "tick", "i", i, "note", "two words")
	}
	require.NoError(t, c.Close())
	return filepath.Join(dir, app.LogName)
}

func TestLogsTailPretty(t *testing.T) {
	home := t.TempDir()
	writeLog(t, home, 5000)
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"logs", "--home", home, "--lines", "3"}, &out, &errb), errb.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3)
	assert.Contains(t, lines[2], "WARN  tick")
	assert.Contains(t, lines[2], "i=4999")
	assert.Contains(t, lines[2], `note="two words"`)
	assert.Contains(t, lines[0], "i=4997")

	out.Reset()
	require.Equal(t, 0, run([]string{"logs", "--home", home, "--lines", "2", "--level", "warn"}, &out, &errb))
	assert.Contains(t, out.String(), "i=4989")
	assert.NotContains(t, out.String(), "i=4998")

	require.Equal(t, 2, run([]string{"logs", "--home", home, "--lines", "x"}, &out, &errb))
	require.Equal(t, 1, run([]string{"logs", "--home", t.TempDir()}, &out, &errb))
	assert.Contains(t, errb.String(), "alice config path")
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestFollowSurvivesRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "alice.log")
	w, err := app.OpenRotating(path, 1, 2)
	require.NoError(t, err)
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuf{}
	done := make(chan error, 1)
	go func() { done <- followLog(ctx, path, slog.LevelDebug, out, 5*time.Millisecond) }()
	line := func(i int) {
		fmt.Fprintf(w, `{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"m","i":%d}`+"\n", i)
	}
	// The follower starts at the end of the file: write line 0 until it
	// shows up, so the follower is known to be running.
	require.Eventually(t, func() bool { line(0); return strings.Contains(out.String(), "i=0") }, 30*time.Second, 20*time.Millisecond)
	for i := 1; i < 20; i++ {
		line(i)
		if i == 10 {
			// Wait until the follower has read up to here, then rotate.
			require.Eventually(t, func() bool { return strings.Contains(out.String(), "i=10") }, 30*time.Second, 5*time.Millisecond)
			require.NoError(t, w.Rotate())
		}
	}
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "i=19") }, 30*time.Second, 10*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	for i := 1; i < 20; i++ {
		require.Equal(t, 1, strings.Count(out.String(), fmt.Sprintf(" i=%d\n", i)), "line %d exactly once:\n%s", i, out.String())
	}
	old, _ := filepath.Glob(filepath.Join(dir, "alice-*.log"))
	require.Len(t, old, 1, "the log did rotate while followed")
}
