package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/proctree"
)

// setup resolves the paths, takes the data dir's lock, opens the log and
// validates the config: the steps every command that runs the core shares.
type setup struct {
	paths  config.Paths
	store  *config.Store
	logger *slog.Logger
	lock   *config.DataLock
	closer io.Closer
}

func (s *setup) Close() {
	if s.closer != nil {
		_ = s.closer.Close()
	}
	_ = s.lock.Release()
}

// open runs the shared start-up; on failure it has printed the error.
// The data dir lock comes first, before anything in the home is opened.
func (e *env) open(command string) (*setup, bool) {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	lock, err := config.LockDataDir(paths.Data, command)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	s := &setup{paths: paths, store: config.NewStore(paths.Config), lock: lock}
	if err := paths.Ensure(); err != nil {
		s.Close()
		e.errorf("%v", err)
		return nil, false
	}
	level := slog.LevelInfo
	if e.debug {
		level = slog.LevelDebug
	}
	logger, closer, err := app.OpenLog(paths.Logs, level)
	if err != nil {
		s.Close()
		e.errorf("%v", err)
		return nil, false
	}
	slog.SetDefault(logger)
	s.logger, s.closer = logger, closer
	if err := app.Validate(s.store, os.Getenv); err != nil {
		s.Close()
		printErrors(e.stderr, err)
		return nil, false
	}
	return s, true
}

// runCheck is `alice check`: exactly the validation start-up runs
// (app.Validate), on a read-only store. It takes no lock and writes
// nothing (missing files are checked as their defaults), so it can run
// beside the alice that owns the data dir.
func runCheck(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := app.NewSettings(config.NewReadOnlyStore(paths.Config), os.Getenv).Validate(); err != nil {
		printErrors(e.stderr, err)
		return 1
	}
	fmt.Fprintf(e.stdout, "config OK: %s\ndata: %s\n", paths.Config, paths.Data)
	return 0
}

func runServe(e *env, _ []string) int { return runCore(e, false) }

// runCore builds and starts the core, then runs the TUI over it or, for
// serve, waits for a signal.
func runCore(e *env, tui bool) int {
	command := "alice serve"
	if tui {
		command = "alice"
	}
	s, ok := e.open(command)
	if !ok {
		return 1
	}
	defer s.Close()
	// Processes that sessions, runs and CLI providers leave behind are
	// reparented to the core and ended after the App has shut down
	// (deferred before shutdown, so it runs after it).
	reaper := proctree.StartReaper(s.logger)
	defer reaper.Close(strayGrace)
	// The attach client reads the log back to this line (logStartMsg).
	s.logger.Info(logStartMsg, "pid", os.Getpid(), "command", command)
	if err := s.store.WriteSchemas(); err != nil { // editors complete and validate the files
		s.logger.Warn("Writing config schemas failed", "err", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if !tui {
		// A background core has no terminal: a client's hang-up is not ours.
		signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	}

	v := buildVersion()
	a, err := app.New(app.Options{Paths: s.paths, Store: s.store, Logger: s.logger, Version: v.Version})
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := a.Start(ctx); err != nil {
		e.errorf("%v", err)
		shutdown(a, s.logger)
		return 1
	}
	defer shutdown(a, s.logger)
	relay, err := serveAttach(ctx, s, a, stop)
	if err != nil {
		e.errorf("%v", err)
		return 1
	}
	defer relay.Close()
	recordListeners(s.lock, a, relay, s.logger)

	if !tui {
		if e.flag("quiet") == "true" {
			<-ctx.Done()
			return 0
		}
		for _, l := range coreListeners(a, relay) {
			fmt.Fprintf(e.stdout, "%s listening on %s\n", l.Name, l.URL)
		}
		for _, c := range a.ConnectorLines() {
			fmt.Fprintf(e.stdout, "connector %s\n", c)
		}
		fmt.Fprintf(e.stdout, "alice %s serving (data %s); Ctrl-C or SIGTERM to stop\n", v.Version, s.paths.Data)
		<-ctx.Done()
		fmt.Fprintln(e.stdout, "alice: shutting down")
		return 0
	}
	ws, err := s.store.Workspaces()
	if err != nil {
		return e.errorf("%v", err)
	}
	if err := runTUI(ctx, a, ws); err != nil {
		return e.errorf("%v", err)
	}
	return 0
}

// strayGrace is how long processes left behind at shutdown get between
// SIGTERM and SIGKILL.
const strayGrace = 2 * time.Second

func shutdown(a *app.App, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		logger.Error("Shutdown", "err", err)
	}
}
