package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/alice-trading/alice/config"
)

// `alice service install|uninstall|status`: start the core on login with
// the platform's user service manager (a systemd user unit on Linux, a
// launchd agent on macOS). alice writes the file and says the one command
// that enables it; it never runs the service manager itself.

// serviceFile is where a user service for alice lives, and its body.
type serviceFile struct {
	Path   string
	Body   string
	Enable string // the command that enables and starts it
	Remove string // the command that stops and disables it
}

// serviceFor builds the unit/agent for exe on goos. home is the --home
// given (empty: the XDG dirs, resolved by the service at its start).
// xdgConfig is $XDG_CONFIG_HOME: systemd looks for user units in
// $XDG_CONFIG_HOME/systemd/user, ~/.config/systemd/user when it is unset
// (or relative, which the XDG spec says to ignore).
func serviceFor(goos, userHome, xdgConfig, exe, home string) (serviceFile, error) {
	args := []string{exe, "serve", "--quiet"}
	if home != "" {
		args = append(args, "--home", home)
	}
	switch goos {
	case "linux":
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = systemdQuote(a)
		}
		return serviceFile{
			Path: config.SystemdUserUnit(userHome, xdgConfig),
			Body: "# Written by `alice service install`.\n[Unit]\nDescription=alice core (trading agent: MCP ports, schedules, workspaces)\nAfter=network-online.target\n\n" +
				"[Service]\nType=simple\nExecStart=" + strings.Join(quoted, " ") + "\nExecStop=" + systemdQuote(exe) + " stop" + homeArg(home) +
				"\nRestart=on-failure\nRestartSec=5\n\n[Install]\nWantedBy=default.target\n",
			Enable: "systemctl --user daemon-reload && systemctl --user enable --now alice.service",
			Remove: "systemctl --user disable --now alice.service",
		}, nil
	case "darwin":
		var b strings.Builder
		for _, a := range args {
			fmt.Fprintf(&b, "\t\t<string>%s</string>\n", xmlEscape(a))
		}
		path := filepath.Join(userHome, "Library", "LaunchAgents", "dev.alice.serve.plist")
		return serviceFile{
			Path: path,
			Body: `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- Written by alice service install. -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>dev.alice.serve</string>
	<key>ProgramArguments</key>
	<array>
` + b.String() + `	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
</dict>
</plist>
`,
			Enable: "launchctl load -w " + path,
			Remove: "launchctl unload -w " + path,
		}, nil
	}
	return serviceFile{}, fmt.Errorf("alice service supports Linux (systemd) and macOS (launchd), not %s", goos)
}

func homeArg(home string) string {
	if home == "" {
		return ""
	}
	return " --home " + systemdQuote(home)
}

// systemdQuote quotes one ExecStart word (systemd.syntax: double quotes,
// backslash escapes; % is a specifier and is doubled).
func systemdQuote(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	if !strings.ContainsAny(s, " \t\"'\\$;") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", "$$")
	return `"` + r.Replace(s) + `"`
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// serviceExe is this binary's resolved path, as units name it.
func serviceExe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}

// currentService is the service file for this binary and home.
func currentService(e *env) (serviceFile, error) {
	exe, err := serviceExe()
	if err != nil {
		return serviceFile{}, err
	}
	userHome, err := os.UserHomeDir()
	if err != nil {
		return serviceFile{}, err
	}
	home := e.home
	if home != "" {
		if abs, err := filepath.Abs(home); err == nil {
			home = abs
		}
	}
	return serviceFor(runtime.GOOS, userHome, os.Getenv("XDG_CONFIG_HOME"), exe, home)
}

func runService(e *env, args []string) int {
	if len(args) == 0 {
		return e.errorf("alice service install|uninstall|status")
	}
	if _, err := config.ResolvePaths(e.home); err != nil {
		return e.errorf("%v", err)
	}
	svc, err := currentService(e)
	if err != nil {
		return e.errorf("%v", err)
	}
	switch args[0] {
	case "install":
		if err := os.MkdirAll(filepath.Dir(svc.Path), 0o755); err != nil {
			return e.errorf("%v", err)
		}
		if err := config.WriteFileAtomic(svc.Path, []byte(svc.Body), 0o644); err != nil {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "wrote %s\nenable and start it with:\n  %s\n", svc.Path, svc.Enable)
	case "uninstall":
		if err := os.Remove(svc.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return e.errorf("%v", err)
		}
		fmt.Fprintf(e.stdout, "removed %s (if it was running: %s)\n", svc.Path, svc.Remove)
	case "status":
		state, detail := serviceState(svc)
		fmt.Fprintf(e.stdout, "%s: %s\n", state, detail)
	}
	return 0
}

// serviceState says whether the service file is installed and current.
func serviceState(svc serviceFile) (installed string, detail string) {
	b, err := os.ReadFile(svc.Path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "not installed", "alice does not start on login (`alice service install` writes " + svc.Path + ")"
	case err != nil:
		return "unreadable", err.Error()
	case string(b) != svc.Body:
		return "stale", svc.Path + " starts another binary or home than this one; `alice service install` rewrites it"
	}
	return "installed", svc.Path + " (" + svc.Enable + " if not enabled yet)"
}
