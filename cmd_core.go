package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/app"
)

// setup resolves the paths, opens the log and validates every config
// file: the steps every command that touches the home shares.
type setup struct {
	paths  config.Paths
	store  *config.Store
	logger *slog.Logger
	closer io.Closer
}

func (s *setup) Close() {
	if s.closer != nil {
		_ = s.closer.Close()
	}
}

// open runs the shared start-up; on failure it has printed the error.
func (e *env) open() (*setup, bool) {
	paths, err := config.ResolvePaths(e.home)
	if err == nil {
		err = paths.Ensure()
	}
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	level := slog.LevelInfo
	if e.debug {
		level = slog.LevelDebug
	}
	logger, closer, err := app.OpenLog(paths.Logs, level)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	slog.SetDefault(logger)
	s := &setup{paths: paths, store: config.NewStore(paths.Config), logger: logger, closer: closer}
	if err := s.store.CheckAll(); err != nil {
		s.Close()
		e.errorf("%v", err)
		return nil, false
	}
	return s, true
}

func runCheck(e *env, _ []string) int {
	s, ok := e.open()
	if !ok {
		return 1
	}
	defer s.Close()
	fmt.Fprintf(e.stdout, "config OK: %s\ndata: %s\n", s.paths.Config, s.paths.Data)
	return 0
}

func runServe(e *env, _ []string) int      { return runCore(e, false) }
func runTUICommand(e *env, _ []string) int { return runCore(e, true) }

// runCore builds and starts the core, then runs the TUI over it or, for
// serve, waits for a signal.
func runCore(e *env, tui bool) int {
	s, ok := e.open()
	if !ok {
		return 1
	}
	defer s.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

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

	if !tui {
		for _, l := range a.Listeners() {
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
	if err := runTUI(ctx, a); err != nil {
		return e.errorf("%v", err)
	}
	return 0
}

func shutdown(a *app.App, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		logger.Error("Shutdown", "err", err)
	}
}
