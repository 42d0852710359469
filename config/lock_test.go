package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDataDirHasOneOwner(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	first, err := LockDataDir(dir, "alice serve")
	require.NoError(t, err)
	require.NoError(t, first.SetListeners([]LockListener{{Name: "MCP", URL: "http://127.0.0.1:4100/mcp"}, {Name: "Ask", URL: "http://127.0.0.1:4101/mcp"}}))

	// flock locks belong to open file descriptions, so a second lock in
	// the same process conflicts exactly as a second process would.
	second, err := LockDataDir(dir, "alice")
	require.Nil(t, second)
	var le *LockedError
	require.True(t, errors.As(err, &le), "%v", err)
	require.NotNil(t, le.Owner)
	require.Equal(t, os.Getpid(), le.Owner.PID)
	msg := err.Error()
	require.Contains(t, msg, dir)
	require.Contains(t, msg, "pid ")
	require.Contains(t, msg, `"alice serve"`)
	require.Contains(t, msg, "MCP http://127.0.0.1:4100/mcp")
	require.Contains(t, msg, "Ask http://127.0.0.1:4101/mcp")

	require.NoError(t, first.Release())
	_, err = os.Stat(filepath.Join(dir, LockOwnerFile))
	require.ErrorIs(t, err, os.ErrNotExist, "owner details go with the lock")
	third, err := LockDataDir(dir, "alice")
	require.NoError(t, err, "released locks can be taken again")
	o, err := ReadLockOwner(dir)
	require.NoError(t, err)
	require.Equal(t, "alice", o.Command)
	require.Empty(t, o.Listeners)
	require.NoError(t, third.Release())
	require.NoError(t, third.Release(), "release twice is harmless")
}

func TestLockedWithoutOwnerDetails(t *testing.T) {
	dir := t.TempDir()
	l, err := LockDataDir(dir, "alice")
	require.NoError(t, err)
	defer l.Release()
	require.NoError(t, os.Remove(filepath.Join(dir, LockOwnerFile)))
	_, err = LockDataDir(dir, "alice")
	require.ErrorContains(t, err, "not recorded yet")
}

func TestNoHomeIsRefused(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o600))
	abs := t.TempDir()
	cases := []struct {
		name             string
		home             string
		xdgC, xdgD, xdgS string
		wantErr          bool
	}{
		{name: "HOME unset", wantErr: true},
		{name: "HOME is /", home: "/", wantErr: true},
		{name: "HOME relative", home: "rel/dir", wantErr: true},
		{name: "HOME is a file", home: notDir, wantErr: true},
		{name: "only some XDG set", xdgC: abs + "/c", xdgD: abs + "/d", wantErr: true},
		{name: "relative XDG ignored", xdgC: "c", xdgD: "d", xdgS: "s", wantErr: true},
		{name: "all XDG set", xdgC: abs + "/c", xdgD: abs + "/d", xdgS: abs + "/s"},
		{name: "usable HOME", home: abs},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("ALICE_HOME", "")
			t.Setenv("HOME", c.home)
			t.Setenv("XDG_CONFIG_HOME", c.xdgC)
			t.Setenv("XDG_DATA_HOME", c.xdgD)
			t.Setenv("XDG_STATE_HOME", c.xdgS)
			p, err := ResolvePaths("")
			if c.wantErr {
				require.ErrorIs(t, err, ErrNoHome)
				require.Contains(t, err.Error(), "--home")
				return
			}
			require.NoError(t, err)
			for _, d := range []string{p.Config, p.Data, p.Logs} {
				require.True(t, filepath.IsAbs(d))
				require.NotEqual(t, "/", filepath.Dir(filepath.Dir(d)), "never directly under /: %s", d)
			}
		})
	}
	t.Setenv("HOME", "")
	p, err := ResolvePaths(abs) // an explicit home needs no HOME
	require.NoError(t, err)
	require.Equal(t, filepath.Join(abs, "data"), p.Data)
}
