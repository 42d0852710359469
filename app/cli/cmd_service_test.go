package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestServiceFiles(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, goos, exe, home string
		xdgConfig             string
		path                  string
		want                  []string
		err                   string
	}{
		{name: "systemd, XDG", goos: "linux", exe: "/usr/local/bin/alice",
			path: "/h/.config/systemd/user/alice.service",
			want: []string{"ExecStart=/usr/local/bin/alice serve --quiet\n", "ExecStop=/usr/local/bin/alice stop\n", "Restart=on-failure", "WantedBy=default.target"}},
		{name: "systemd, XDG_CONFIG_HOME elsewhere", goos: "linux", exe: "/usr/local/bin/alice", xdgConfig: "/cfg",
			path: "/cfg/systemd/user/alice.service", want: []string{"ExecStart=/usr/local/bin/alice serve --quiet\n"}},
		{name: "systemd, relative XDG_CONFIG_HOME is ignored", goos: "linux", exe: "/usr/local/bin/alice", xdgConfig: "cfg",
			path: "/h/.config/systemd/user/alice.service", want: []string{"ExecStart=/usr/local/bin/alice serve --quiet\n"}},
		{name: "launchd ignores XDG_CONFIG_HOME", goos: "darwin", exe: "/Users/x/bin/alice", xdgConfig: "/cfg",
			path: "/h/Library/LaunchAgents/dev.alice.serve.plist", want: []string{"<key>RunAtLoad</key>"}},
		{name: "systemd, home with a space and a percent", goos: "linux", exe: "/opt/my apps/alice", home: "/data/a 100%",
			path: "/h/.config/systemd/user/alice.service",
			want: []string{`ExecStart="/opt/my apps/alice" serve --quiet --home "/data/a 100%%"` + "\n", `ExecStop="/opt/my apps/alice" stop --home "/data/a 100%%"`}},
		{name: "launchd", goos: "darwin", exe: "/Users/x/bin/alice", home: "/Users/x/a&b",
			path: "/h/Library/LaunchAgents/dev.alice.serve.plist",
			want: []string{"<string>/Users/x/bin/alice</string>", "<string>serve</string>", "<string>--home</string>", "<string>/Users/x/a&amp;b</string>", "<key>RunAtLoad</key>"}},
		{name: "unsupported", goos: "windows", exe: `C:\alice.exe`, err: "Linux (systemd) and macOS (launchd)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, err := serviceFor(c.goos, "/h", c.xdgConfig, c.exe, c.home)
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.path, svc.Path)
			for _, w := range c.want {
				require.Contains(t, svc.Body, w)
			}
		})
	}
}

// install → status installed → doctor ✓; a unit for another home is
// stale (doctor fails with the fix); uninstall removes it.
func TestServiceInstallStatusUninstall(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no user service manager")
	}
	user := t.TempDir()
	t.Setenv("HOME", user)
	// systemd reads user units from $XDG_CONFIG_HOME/systemd/user.
	xdg := filepath.Join(user, "xdg-config")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	home := t.TempDir()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"service", "status", "--home", home}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "not installed")

	out.Reset()
	require.Equal(t, 0, run([]string{"service", "install", "--home", home}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "enable and start it with")
	svc, err := currentService(&env{home: home})
	require.NoError(t, err)
	b, err := os.ReadFile(svc.Path)
	require.NoError(t, err)
	require.Contains(t, string(b), "--home "+systemdQuote(home))
	require.True(t, strings.HasPrefix(svc.Path, user))
	if runtime.GOOS == "linux" {
		require.Equal(t, filepath.Join(xdg, "systemd", "user", "alice.service"), svc.Path)
	}

	out.Reset()
	require.Equal(t, 0, run([]string{"service", "status", "--home", home}, &out, &errb))
	require.Contains(t, out.String(), "installed:")

	other := t.TempDir()
	out.Reset()
	require.Equal(t, 0, run([]string{"service", "status", "--home", other}, &out, &errb))
	require.Contains(t, out.String(), "stale")
	d := &doctorRun{deps: doctorDeps{getenv: os.Getenv, home: other}}
	r := d.checkService()
	require.Equal(t, checkFail, r.State)
	require.Equal(t, "alice service install", r.Fix)
	d.deps.home = home
	require.Equal(t, checkOK, d.checkService().State)

	out.Reset()
	require.Equal(t, 0, run([]string{"service", "uninstall", "--home", home}, &out, &errb))
	_, err = os.Stat(filepath.Clean(svc.Path))
	require.True(t, os.IsNotExist(err))
	require.Equal(t, checkSkip, d.checkService().State)
}
