package app

import (
	"context"

	tradetools "alice/trading/tools"
	"alice/trading/uta"
)

// build creates the domain components in the architecture's order.
func (a *App) build() error {
	o := a.Opts
	// Trading: accounts, brokers, TradingGit, guards, snapshots.
	a.Trading = uta.NewManager(o.Store, o.Paths, a.Market, a.Events, a.Log.With("component", "trading"))
	tradetools.Register(a.Tools, a.Trading)
	return nil
}

// start opens listeners and background loops.
func (a *App) start(ctx context.Context) error {
	if err := a.Trading.Start(ctx); err != nil {
		// A broken account is reported but the others keep running.
		a.Log.Error("Some trading accounts failed to start", "err", err)
		a.reportStartupProblem(err)
	}
	a.onClose("trading", func(context.Context) error { return a.Trading.Close() })
	return nil
}
