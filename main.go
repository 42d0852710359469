// Command alice is a terminal-first AI trading agent. This file is the
// composition root only: it parses the command line, builds the core
// (core/app) and hands it to the TUI or runs it headless.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
	_ "time/tzdata" // IANA zones for heartbeat active hours on hosts without zoneinfo

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/app"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `alice — a terminal-first AI trading agent

Usage:
  alice [flags]          start the terminal UI (MCP ports stay open while it runs)
  alice serve [flags]    run the same core headless: MCP ports, scheduling, workspaces
  alice check [flags]    validate every config file and exit (read-only: no lock, writes nothing)

Flags:
  --home DIR     keep config in DIR/config and data in DIR/data (or set ALICE_HOME)
  --debug        verbose logging to the log file
  --version      print the version and exit
  -h, --help     show this help

Files:
  config   $XDG_CONFIG_HOME/alice/*.json  (ai-provider.json, mcp.json, connectors.json, accounts.json, …)
  data     $XDG_DATA_HOME/alice/           (sessions, inbox, trading history, workspaces, event log)
  logs     $XDG_STATE_HOME/alice/logs/alice.log
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("alice", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	home := fs.String("home", "", "data and config root")
	debug := fs.Bool("debug", false, "verbose logging")
	showVersion := fs.Bool("version", false, "print version")

	cmd := "tui"
	if len(args) > 0 && (args[0] == "serve" || args[0] == "check") {
		cmd, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "alice: unknown command %q\n\n%s", fs.Arg(0), usage)
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "alice %s\n", version)
		return 0
	}

	paths, err := config.ResolvePaths(*home)
	if err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
	}
	if cmd == "check" {
		return runCheck(paths, stdout, stderr) // read-only: no lock, no writes
	}
	lock, err := lockDataDir(paths, cmd)
	if err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
	}
	defer lock.Release()
	if err := paths.Ensure(); err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	logger, logFile, err := app.OpenLog(paths.Logs, level)
	if err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
	}
	defer logFile.Close()
	slog.SetDefault(logger)

	store := config.NewStore(paths.Config)
	if err := app.Validate(store, os.Getenv); err != nil {
		printErrors(stderr, err)
		return 1
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	a, err := app.New(app.Options{Paths: paths, Store: store, Logger: logger, Version: version})
	if err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
	}
	if err := a.Start(ctx); err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		shutdown(a, logger)
		return 1
	}
	defer shutdown(a, logger)
	recordListeners(lock, a, logger)

	if cmd == "serve" {
		for _, l := range a.Listeners() {
			fmt.Fprintf(stdout, "%s listening on %s\n", l.Name, l.URL)
		}
		fmt.Fprintf(stdout, "alice %s serving (data %s); Ctrl-C or SIGTERM to stop\n", version, paths.Data)
		<-ctx.Done()
		fmt.Fprintln(stdout, "alice: shutting down")
		return 0
	}

	if err := runTUI(ctx, a); err != nil {
		fmt.Fprintf(stderr, "alice: %v\n", err)
		return 1
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
