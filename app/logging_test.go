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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRotatingFileRotatesBySizeAndKeepsN(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "alice.log")
	w, err := OpenRotating(path, 1000, 2)
	require.NoError(t, err)
	line := strings.Repeat("x", 99) + "\n" // 100 bytes
	for i := range 55 {
		_, err := w.Write([]byte(fmt.Sprintf("%02d", i) + line[2:]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	for _, name := range []string{"alice.log", "alice.log.1", "alice.log.2"} {
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err, name)
		assert.LessOrEqual(t, info.Size(), int64(1000), name)
	}
	assert.NoFileExists(t, filepath.Join(dir, "alice.log.3"), "only keep=2 generations")
	cur, _ := os.ReadFile(path)
	assert.True(t, strings.HasPrefix(string(cur), "50"), "current file has the newest lines")
	prev, _ := os.ReadFile(path + ".1")
	assert.True(t, strings.HasPrefix(string(prev), "40"))
	assert.Equal(t, 10, strings.Count(string(prev), "\n"), "no record split across files")
}

func TestRotatingFileAppendsAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alice.log")
	for range 2 {
		w, err := OpenRotating(path, 1<<20, 3)
		require.NoError(t, err)
		_, _ = w.Write([]byte("line\n"))
		require.NoError(t, w.Close())
	}
	b, _ := os.ReadFile(path)
	assert.Equal(t, "line\nline\n", string(b))
	_, err := (&RotatingFile{}).Write([]byte("x"))
	require.ErrorIs(t, err, os.ErrClosed)
}

func TestOpenLogConcurrentWritersProduceWholeJSONLines(t *testing.T) {
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
