// Package app assembles Alice: it builds every component from config, in
// the order the architecture describes, and owns their lifecycle. Both the
// TUI and `alice serve` run the same App; only the surface differs.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/alice-trading/alice/app/settings"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
	"github.com/alice-trading/alice/core/agent"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/core/connector"
	"github.com/alice-trading/alice/core/connector/telegram"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/core/inbox"
	"github.com/alice-trading/alice/core/provider"
	"github.com/alice-trading/alice/core/pubsub"
	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/core/session"
	"github.com/alice-trading/alice/mcp"
	"github.com/alice-trading/alice/trading/news"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/uta"
	"github.com/alice-trading/alice/trading/watchlist"
	"github.com/alice-trading/alice/workspace"
)

// coreIdentity shortens the workspace identity type in wiring code.
type coreIdentity = core.WorkspaceIdentity

// Options are the inputs main resolves before building the App.
type Options struct {
	Paths   config.Paths
	Store   *config.Store
	Logger  *slog.Logger
	Version string
	// Homes is the register of this user's alice homes (nil: the user's,
	// config.OpenHomes; tests keep theirs out of the user's).
	Homes *config.Homes
}

// Listener describes one open network endpoint, for the status bar and the
// `alice serve` banner.
type Listener struct {
	Name string
	URL  string
}

// App holds every long-lived component and keeps them to itself: surfaces
// reach the use cases through the methods in services.go.
type App struct {
	realPrices *realPriceFeed // simulator accounts' real prices (research.go)
	creds      credentialEnv  // env names credentials come from (credential_env.go)
	homes      config.Homes   // this user's alice homes, hidden from sessions
	opts       Options
	log        *slog.Logger
	events     *eventlog.Log
	tools      *core.ToolCenter
	wsTools    *core.WorkspaceToolCenter
	market     *simmarket.Market
	trading    *uta.Manager
	inbox      *inbox.Store
	workspaces *workspace.Manager
	mcp        *mcp.Server
	ask        *mcp.Server
	sessions   *session.Store
	router     *provider.Router
	agent      *agent.Center
	connectors *connector.Center
	cron       *schedule.Engine

	settings   *settings.Service
	channels   *channel.Service
	watchlist  *watchlist.Store
	notes      *pubsub.Broker[connector.Notification]
	worker     *schedule.Worker
	heartbeat  *schedule.Heartbeat
	automation *schedule.Automation
	news       *news.Collector
	telegram   *telegram.Bot // nil unless connectors.json enables it

	problems []string

	mu        sync.Mutex
	closers   []namedCloser
	listeners []Listener
	cancel    context.CancelFunc
	runCtx    context.Context // Start's context: ends at Shutdown
	wg        sync.WaitGroup
}

type namedCloser struct {
	name string
	fn   func(context.Context) error
}

// New builds the components that need no network or background work.
func New(opts Options) (*App, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	a := &App{opts: opts, log: opts.Logger}
	if opts.Homes != nil {
		a.homes = *opts.Homes
	} else {
		a.homes = config.OpenHomes()
	}
	a.buildSettings()
	ev, err := eventlog.Open(opts.Paths.DataPath("event-log", "events.jsonl"))
	if err != nil {
		return nil, err
	}
	a.events = ev
	if rep := ev.Healed(); rep.Healed() {
		a.log.Warn("Healed a torn event log tail", "cutBytes", rep.Cut, "keptIn", rep.TornPath, "salvaged", rep.Salvaged)
	}
	a.onClose("event log", func(context.Context) error { return ev.Close() })

	disabled := func() []string {
		t, err := opts.Store.Tools()
		if err != nil {
			a.log.Warn("Reading tools.json failed; no tools disabled", "err", err)
			return nil
		}
		return t.Disabled
	}
	a.tools = core.NewToolCenter(disabled)
	a.wsTools = core.NewWorkspaceToolCenter(disabled)

	md, err := opts.Store.MarketData()
	if err != nil {
		return nil, err
	}
	a.market = simmarket.New(md.Seed)

	if err := a.build(); err != nil {
		_ = a.Shutdown(context.Background())
		return nil, err
	}
	return a, nil
}

// onClose registers cleanup run in reverse order by Shutdown.
func (a *App) onClose(name string, fn func(context.Context) error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closers = append(a.closers, namedCloser{name, fn})
}

// go runs a background loop tracked for shutdown.
func (a *App) goLoop(name string, fn func()) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				a.log.Error("Background loop panicked", "loop", name, "panic", fmt.Sprint(r))
			}
		}()
		fn()
	}()
}

func (a *App) addListener(name, url string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.listeners = append(a.listeners, Listener{Name: name, URL: url})
}

// Listeners lists the open endpoints.
func (a *App) Listeners() []Listener {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Listener(nil), a.listeners...)
}

// Start opens listeners and starts background work. ctx bounds the
// background loops; Shutdown stops them too.
func (a *App) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	a.mu.Lock()
	a.cancel, a.runCtx = cancel, ctx
	a.mu.Unlock()
	return a.start(ctx)
}

// RunContext ends when the core shuts down (Background before Start):
// work a client started that must outlive the client, like a chat turn
// after a detach, runs on it.
func (a *App) RunContext() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runCtx == nil {
		return context.Background()
	}
	return a.runCtx
}

// Shutdown stops background loops and closes components in reverse order
// of creation, bounded by ctx.
func (a *App) Shutdown(ctx context.Context) error {
	if a.cancel != nil {
		a.cancel()
	}
	a.mu.Lock()
	closers := a.closers
	a.closers = nil
	a.mu.Unlock()
	var errs []error
	for i := len(closers) - 1; i >= 0; i-- {
		if err := closers[i].fn(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", closers[i].name, err))
		}
	}
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, errors.New("background loops did not stop in time"))
	}
	return errors.Join(errs...)
}

// reportStartupProblem records a non-fatal start-up problem for the UI.
func (a *App) reportStartupProblem(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.problems = append(a.problems, err.Error())
}

// Problems lists non-fatal start-up problems (broken accounts, ports in
// use) so the surfaces can show them.
func (a *App) Problems() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.problems...)
}
