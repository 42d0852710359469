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
	hs := OpenHomes()
	require.NoError(t, hs.Register(a))
	fi, err := os.Stat(SocketFallbackDir())
	require.NoError(t, err, "the sockets' fallback dir exists before any session")
	require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	require.NoError(t, hs.Register(b))
	require.NoError(t, hs.Register(a), "idempotent")
	got := hs.Others()
	for _, d := range []string{a.Config, a.Data, a.Logs, b.Config, b.Data, b.Logs} {
		require.Contains(t, got, d)
	}
	require.Len(t, readHomes(filepath.Join(hs.dir, homesFile)), 6, "no duplicates")

	// the default home exists once a core registered (so it is hidden and
	// a session cannot seed a config there for a later plain alice), and
	// the register's own directory is hidden too
	def := filepath.Join(os.Getenv("HOME"), ".config", "alice")
	fi, err = os.Stat(def)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	require.Contains(t, hs.Others(), def)
	require.Contains(t, hs.Others(), filepath.Join(os.Getenv("HOME"), ".local", "state", "alice"))

	// a home removed is dropped from the list at the next registration
	require.NoError(t, os.RemoveAll(filepath.Dir(b.Config)))
	require.NotContains(t, hs.Others(), b.Config)
	require.NoError(t, hs.Register(a))
	require.Len(t, readHomes(filepath.Join(hs.dir, homesFile)), 3)
}

// Cores starting together all register (the register is rewritten under a
// lock; black-box N4 lost one of six). Not parallel: TMPDIR and HOME.
func TestHomesRegisterTogether(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "ALICE_HOME"} {
		t.Setenv(v, "")
	}
	const n = 12
	homes := make([]Paths, n)
	for i := range homes {
		h := t.TempDir()
		homes[i] = Paths{Config: filepath.Join(h, "config"), Data: filepath.Join(h, "data"), Logs: filepath.Join(h, "data", "logs")}
		require.NoError(t, os.MkdirAll(homes[i].Logs, 0o700))
		require.NoError(t, os.MkdirAll(homes[i].Config, 0o700))
	}
	hs := OpenHomes()
	errs := make(chan error, n)
	for _, p := range homes {
		go func() { errs <- hs.Register(p) }()
	}
	for range n {
		require.NoError(t, <-errs)
	}
	got := hs.Others()
	for _, p := range homes {
		require.Contains(t, got, p.Data)
	}
}

// A register directory someone else owns is refused, not trusted.
func TestHomesRegisterMustBeOurs(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "ALICE_HOME"} {
		t.Setenv(v, "")
	}
	state := filepath.Join(home, ".local", "state")
	require.NoError(t, os.MkdirAll(state, 0o755))
	other := t.TempDir()
	require.NoError(t, os.Symlink(other, filepath.Join(state, "alice")))
	err := OpenHomes().Register(Paths{Config: filepath.Join(home, "c"), Data: filepath.Join(home, "d"), Logs: filepath.Join(home, "d", "l")})
	require.ErrorContains(t, err, "not a directory")
}

// Cores opening the register together (tests start many at once) do not
// race on the XDG library's globals.
func TestOpenHomesConcurrently(t *testing.T) {
	t.Parallel()
	done := make(chan Homes, 8)
	for range 8 {
		go func() { done <- OpenHomes() }()
	}
	first := <-done
	for range 7 {
		require.Equal(t, first.dir, (<-done).dir)
	}
}
