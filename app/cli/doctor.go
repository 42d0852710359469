package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/workspace/sandbox"
)

// `alice doctor` checks, one line each, everything a user needs in order:
// data dir and its lock, config, ports, AI provider, external programs,
// MCP endpoints and broker accounts. Every failure carries its fix. The
// checks never write into the home (accounts are probed on a scratch
// data dir) so doctor can run beside a live alice.

type checkState int

const (
	checkOK checkState = iota
	checkFail
	checkSkip // not applicable or optional and absent
)

func (s checkState) mark() string {
	switch s {
	case checkOK:
		return "✓"
	case checkFail:
		return "✗"
	}
	return "–"
}

type checkResult struct {
	Name   string
	State  checkState
	Detail string
	Fix    string
}

// doctorDeps is what the checks touch outside the process; tests replace
// each piece to break one item at a time.
type doctorDeps struct {
	getenv   func(string) string
	lookPath func(string) (string, error)
	// version runs `path flag` (--version) and returns its first line.
	version func(ctx context.Context, path, flag string) (string, error)
	// ping sends one tiny request to the active AI provider.
	ping func(ctx context.Context, store *config.Store, mcpURL string) (label string, latency time.Duration, err error)
	// accounts reports broker accounts' health (from the running alice
	// when there is one, else by starting them on a scratch data dir).
	accounts func(ctx context.Context, d *doctorRun) ([]accountHealth, error)
	timeout  time.Duration
	// sandboxProbe reports whether workspace sessions can be sandboxed
	// (sandbox.Probe); nil: not checked.
	sandboxProbe func() error
	// home is the --home the command was given (absolute; "" for XDG):
	// the service check compares the installed unit with it.
	home string
}

func defaultDoctorDeps() doctorDeps {
	return doctorDeps{
		getenv:   os.Getenv,
		lookPath: exec.LookPath,
		version:  commandVersion,
		ping:     pingProvider,
		accounts: accountsHealth,
		timeout:  30 * time.Second,
		// The probe re-executes alice: the sandbox package's init takes
		// that process over.
		sandboxProbe: sandbox.Probe,
	}
}

// doctorRun carries what earlier checks learnt to later ones.
type doctorRun struct {
	deps  doctorDeps
	paths config.Paths
	store *config.Store
	// dataOK is false when the data dir is unusable.
	dataOK bool
	// configOK is false when a config file is broken: checks that read
	// config then skip instead of repeating the error.
	configOK bool
	// owner is the running alice holding the data dir (nil if none).
	owner *lockOwner
}

func runDoctor(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		fmt.Fprintf(e.stdout, "✗ home         %v\n               fix: pass --home DIR or set ALICE_HOME (or HOME/XDG_*_HOME)\n", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	deps := defaultDoctorDeps()
	if e.home != "" {
		deps.home, _ = filepath.Abs(e.home)
	}
	results := doctorChecks(ctx, paths, deps)
	return printDoctor(e.stdout, paths, results)
}

func printDoctor(w io.Writer, paths config.Paths, results []checkResult) int {
	fmt.Fprintf(w, "alice doctor  %s\nconfig %s\ndata   %s\n\n", buildVersion(), paths.Config, paths.Data)
	failed := 0
	for _, r := range results {
		fmt.Fprintf(w, "%s %-17s %s\n", r.State.mark(), r.Name, r.Detail)
		if r.Fix != "" && r.State != checkOK {
			fmt.Fprintf(w, "  %-17s fix: %s\n", "", r.Fix)
		}
		if r.State == checkFail {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "\n%d problem(s) found\n", failed)
		return 1
	}
	fmt.Fprintln(w, "\nall good")
	return 0
}

// doctorChecks runs every check in order.
func doctorChecks(ctx context.Context, paths config.Paths, deps doctorDeps) []checkResult {
	d := &doctorRun{deps: deps, paths: paths, store: config.NewStore(paths.Config)}
	var out []checkResult
	out = append(out, d.checkDataDir())
	out = append(out, d.checkLock())
	out = append(out, d.checkConfig())
	out = append(out, d.checkPorts()...)
	out = append(out, d.checkProvider(ctx))
	out = append(out, d.checkPrograms(ctx)...)
	out = append(out, d.checkSandbox())
	out = append(out, d.checkMCP(ctx)...)
	out = append(out, d.checkTelegram(ctx))
	out = append(out, d.checkAccounts(ctx)...)
	out = append(out, d.checkService())
	return out
}

// commandVersion runs `path flag` with a short timeout.
func commandVersion(ctx context.Context, path, flag string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, flag).CombinedOutput()
	line := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	if err != nil {
		return line, fmt.Errorf("%s %s: %w", path, flag, err)
	}
	return line, nil
}

// checkService reports whether the core starts on login. Not installed is
// fine (optional); a unit that starts another binary or home is a problem.
func (d *doctorRun) checkService() checkResult {
	exe, err := serviceExe()
	if err != nil {
		return checkResult{Name: "service", State: checkSkip, Detail: err.Error()}
	}
	home := d.deps.getenv("HOME")
	svc, err := serviceFor(runtime.GOOS, home, d.deps.getenv("XDG_CONFIG_HOME"), exe, d.deps.home)
	if err != nil {
		return checkResult{Name: "service", State: checkSkip, Detail: err.Error()}
	}
	state, detail := serviceState(svc)
	switch state {
	case "installed":
		return checkResult{Name: "service", State: checkOK, Detail: detail}
	case "not installed":
		return checkResult{Name: "service", State: checkSkip, Detail: detail}
	}
	return checkResult{Name: "service", State: checkFail, Detail: state + ": " + detail, Fix: "alice service install"}
}
