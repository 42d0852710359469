// Package apptest starts the whole core for tests: a temp home, the config
// files a test names, app.New, Start, and Shutdown when the test ends. It
// is imported only by _test.go files; keeping it in one place means every
// test app gets the same safe defaults — MCP on a free port, the Ask
// connector off (never its fixed default port) and news off — so parallel
// test binaries never fight over a port or reach the network.
package apptest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/freeport"
)

// defaults are the config files every test home gets unless the test
// names its own: a free MCP port, no Ask connector, no news feeds, and
// the offline simulated market (the default "auto" backend would ask
// Yahoo; tests never touch the network).
func defaults() map[string]string {
	return map[string]string{
		config.MarketDataFile: `{"backend":"simulated","seed":42}`,
		config.MCPFile:        `{"port":0}`,
		config.ConnectorsFile: `{"mcpAsk":{"enabled":false}}`,
		config.NewsFile:       `{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}`,
	}
}

// Home makes a temp home holding files (config file name → body) in its
// config folder, plus the defaults for the files not named, and returns
// the home folder (what --home takes).
func Home(t testing.TB, files map[string]string) string {
	t.Helper()
	home := t.TempDir()
	paths := Paths(t, home)
	require.NoError(t, paths.Ensure())
	for name, body := range defaults() {
		if _, ok := files[name]; !ok {
			require.NoError(t, os.WriteFile(filepath.Join(paths.Config, name), []byte(body), 0o600))
		}
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(paths.Config, name), []byte(body), 0o600))
	}
	return home
}

// Paths resolves home's config/data/log folders.
func Paths(t testing.TB, home string) config.Paths {
	t.Helper()
	paths, err := config.ResolvePaths(home)
	require.NoError(t, err)
	return paths
}

// shutdownWithin bounds a test core's Shutdown. It is generous: a loaded
// machine (CI on 2 cores) must not fail a test whose core stops slowly;
// a Shutdown that hangs still fails it.
const shutdownWithin = 30 * time.Second

// Run builds and starts the core on home's config, which must validate,
// and shuts it down (without error) when the test ends. Cleanups the test
// registered before Run therefore run after Shutdown.
func Run(t testing.TB, home string) *app.App {
	t.Helper()
	a, err := run(t, home)
	require.NoError(t, err)
	return a
}

// run is Run returning Start's error (after shutting the core down).
func run(t testing.TB, home string) (*app.App, error) {
	t.Helper()
	paths := Paths(t, home)
	store := config.NewStore(paths.Config)
	require.NoError(t, store.CheckAll())
	// The test cores' register of homes, shared by every test process of
	// this user, kept out of the user's own.
	homes := config.HomesAt(filepath.Join(os.TempDir(), fmt.Sprintf("alice-apptest-%d", os.Getuid())))
	a, err := app.New(app.Options{Paths: paths, Store: store, Version: "test", Homes: &homes})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Start(ctx); err != nil {
		cancel()
		_ = a.Shutdown(context.Background())
		return nil, err
	}
	t.Cleanup(func() {
		cancel()
		sctx, c2 := context.WithTimeout(context.Background(), shutdownWithin)
		defer c2()
		require.NoError(t, a.Shutdown(sctx))
	})
	return a, nil
}

// Start is Run on a fresh Home(files).
func Start(t testing.TB, files map[string]string) *app.App {
	t.Helper()
	return Run(t, Home(t, files))
}

// StartWithAsk is Start with the Ask connector listening on a port of its
// own: files(port) names the config files. The test needs to know the
// port before the core starts, so a free port is found and released
// first, and another test may bind it before this core does; then the core
// starts again on another port (bounded), never fails the test for it.
func StartWithAsk(t testing.TB, files func(askPort int) map[string]string) *app.App {
	t.Helper()
	for attempt := 1; ; attempt++ {
		a, err := run(t, Home(t, files(FreePort(t))))
		if err == nil {
			return a
		}
		if !errors.Is(err, syscall.EADDRINUSE) || attempt == 5 {
			require.NoError(t, err)
		}
	}
}

// FreePort is a loopback port nothing listened on a moment ago, drawn
// where other tests' port-0 listeners and connections cannot take it
// (core/freeport).
func FreePort(t testing.TB) int {
	t.Helper()
	p, err := freeport.Port()
	require.NoError(t, err)
	return p
}
