package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotatingLogRotatesBySizeAndKeepsN(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "alice.log")
	w, err := OpenRotating(path, 1, 2)
	require.NoError(t, err)
	line := strings.Repeat("x", 100<<10-1) + "\n" // 100 KiB: ten fit in 1 MB
	for i := range 45 {
		_, err := w.Write([]byte(fmt.Sprintf("%02d", i) + line[2:]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	cur, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(cur), "40"), "current file has the newest lines")
	assert.Equal(t, 5, strings.Count(string(cur), "\n"))
	// Old files are deleted in lumberjack's background pass: wait for it.
	var backups []string
	require.Eventually(t, func() bool {
		backups, _ = filepath.Glob(filepath.Join(dir, "alice-*.log"))
		return len(backups) == 2
	}, 30*time.Second, 10*time.Millisecond, "only keep=2 old files")
	for _, b := range append(backups, path) {
		data, err := os.ReadFile(b)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(data), 1<<20, b)
		assert.True(t, strings.HasSuffix(string(data), "\n"), "no record split across files: %s", b)
		assert.Zero(t, len(data)%(100<<10), "whole records only: %s", b)
	}
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

func TestRotatingLogAppendsAcrossRestarts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "logs", "alice.log")
	for range 2 {
		w, err := OpenRotating(path, 1, 3)
		require.NoError(t, err)
		_, _ = w.Write([]byte("line\n"))
		require.NoError(t, w.Close())
	}
	b, _ := os.ReadFile(path)
	assert.Equal(t, "line\nline\n", string(b))
	info, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())
}

func TestOpenLogConcurrentWritersProduceWholeJSONLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logger, c, err := OpenLog(dir, slog.LevelInfo)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				logger.Info("event", "g", g, "i", i)
			}
		}()
	}
	wg.Wait()
	require.NoError(t, c.Close())
	f, err := os.Open(filepath.Join(dir, LogName))
	require.NoError(t, err)
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m))
		n++
	}
	assert.Equal(t, 800, n)
}
