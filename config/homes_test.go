package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every core registers its home; every sandbox hides the others'. Homes
// that are gone drop out of the list. Not parallel: TMPDIR and HOME.
func TestOtherHomesAreTheRegisteredOnes(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "ALICE_HOME"} {
		t.Setenv(v, "")
	}
	mk := func() Paths {
		h := t.TempDir()
		p := Paths{Config: filepath.Join(h, "config"), Data: filepath.Join(h, "data"), Logs: filepath.Join(h, "data", "logs")}
		for _, d := range []string{p.Config, p.Logs} {
			require.NoError(t, os.MkdirAll(d, 0o700))
		}
		return p
	}
	a, b := mk(), mk()
	require.NoError(t, RegisterHome(a))
	fi, err := os.Stat(SocketFallbackDir())
	require.NoError(t, err, "the sockets' fallback dir exists before any session")
	require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	require.NoError(t, RegisterHome(b))
	require.NoError(t, RegisterHome(a), "idempotent")
	got := OtherHomes()
	for _, d := range []string{a.Config, a.Data, a.Logs, b.Config, b.Data, b.Logs} {
		require.Contains(t, got, d)
	}
	require.Len(t, readHomes(filepath.Join(SocketFallbackDir(), homesFile)), 6, "no duplicates")

	// the default home counts when it exists
	def := filepath.Join(os.Getenv("HOME"), ".config", "alice")
	require.NotContains(t, OtherHomes(), def)
	require.NoError(t, os.MkdirAll(def, 0o700))
	require.Contains(t, OtherHomes(), def)

	// a home removed is dropped from the list at the next registration
	require.NoError(t, os.RemoveAll(filepath.Dir(b.Config)))
	require.NotContains(t, OtherHomes(), b.Config)
	require.NoError(t, RegisterHome(a))
	require.Len(t, readHomes(filepath.Join(SocketFallbackDir(), homesFile)), 3)
}
