package uta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/alpaca"
	"github.com/alice-trading/alice/trading/binance"
	"github.com/alice-trading/alice/trading/broker"
	"github.com/alice-trading/alice/trading/bybit"
	"github.com/alice-trading/alice/trading/git"
	"github.com/alice-trading/alice/trading/guard"
	"github.com/alice-trading/alice/trading/ibkr"
	"github.com/alice-trading/alice/trading/sim"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/snapshot"
)

// BrokerFactory builds a broker for a preset. It returns the broker, the
// simulated god-view (nil for real brokers), and on a presetConfig problem
// the offending key relative to presetConfig.
type BrokerFactory func(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error)

// BuildEnv is what factories may use.
type BuildEnv struct {
	Dir    string // <data>/trading/<accountId>
	Market *simmarket.Market
	Now    func() time.Time
	Logger *slog.Logger
	OnFill func(sim.Fill)
	Getenv func(string) string
	// Prices is the real price feed for simulator accounts with
	// prices: "real" (nil: they stay on simulated prices).
	Prices PriceFeed
}

// DefaultFactories are the built-in presets.
func DefaultFactories() map[string]BrokerFactory {
	fs := map[string]BrokerFactory{
		"simulator":      simulatorFactory,
		"mock-simulator": simulatorFactory, // OpenAlice's id for the simulator
		"alpaca":         alpacaFactory,
		"bybit":          bybitFactory,
		"binance":        binanceFactory,
		"ibkr-tws":       ibkrFactory,
	}
	for id, f := range taggedFactories() { // -tags ccxt: okx, bitget, hyperliquid, ccxt-custom
		fs[id] = f
	}
	return fs
}

func ibkrFactory(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
	cfg, key, err := ibkr.ParseConfig(acct.PresetConfig)
	if err != nil {
		return nil, nil, key, err
	}
	return ibkr.New(acct.ID, cfg, env.Logger), nil, "", nil
}

func bybitFactory(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
	cfg, key, err := bybit.ParseConfig(acct.PresetConfig, env.Getenv)
	if err != nil {
		return nil, nil, key, err
	}
	return bybit.New(acct.ID, cfg, env.Logger), nil, "", nil
}

func binanceFactory(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
	cfg, key, err := binance.ParseConfig(acct.PresetConfig, env.Getenv)
	if err != nil {
		return nil, nil, key, err
	}
	return binance.New(acct.ID, cfg, env.Logger), nil, "", nil
}

func simulatorFactory(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
	cfg, key, err := sim.ParseConfig(acct.PresetConfig)
	if err != nil {
		return nil, nil, key, err
	}
	market := env.Market
	if cfg.Seed != 0 && (market == nil || cfg.Seed != market.Seed()) {
		market = simmarket.New(cfg.Seed)
	}
	b, err := sim.New(sim.Options{AccountID: acct.ID, Market: market, Cash: cfg.Cash, Leverage: cfg.Leverage, Now: env.Now, Logger: env.Logger,
		StatePath: env.Dir + string(os.PathSeparator) + "sim-state.json", OnFill: env.OnFill})
	if err != nil {
		return nil, nil, "", err
	}
	if cfg.Prices == "real" && env.Prices != nil {
		log := env.Logger
		if log == nil {
			log = slog.Default()
		}
		return &realPriced{Broker: b, sim: b, feed: env.Prices, log: log}, b, "", nil
	}
	return b, b, "", nil
}

func alpacaFactory(acct config.Account, env BuildEnv) (broker.Broker, *sim.Broker, string, error) {
	cfg, key, err := alpaca.ParseConfig(acct.PresetConfig, env.Getenv)
	if err != nil {
		return nil, nil, key, err
	}
	return alpaca.New(acct.ID, cfg, env.Logger), nil, "", nil
}

// presetNames lists the registered presets, sorted.
func (m *Manager) presetNames() []string {
	names := make([]string, 0, len(m.factories))
	for n := range m.factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// build assembles one UTA: broker, guards, git history and snapshots.
// Config problems come back as *config.Error naming accounts.json keys.
func (m *Manager) build(ctx context.Context, idx int, acct config.Account) (*UTA, error) {
	file := m.store.Path(config.AccountsFile)
	cfgErr := func(key string, err error) error {
		return &config.Error{File: file, Key: fmt.Sprintf("[%d]%s", idx, key), Msg: err.Error()}
	}
	// The same validation `alice check` runs (ValidateAccount), so a config
	// check passes never fails here for a config reason. Presets added
	// with WithFactory (tests, embedding) validate in their factory.
	f, ok := m.factories[acct.Preset]
	if _, builtin := PresetChecks()[acct.Preset]; builtin || !ok {
		if err := ValidateAccount(file, idx, acct, m.getenv); err != nil {
			return nil, err
		}
	}
	if !ok {
		return nil, cfgErr(".presetId", fmt.Errorf("unknown preset %q (known: %s)", acct.Preset, strings.Join(m.presetNames(), ", ")))
	}
	dir := m.paths.DataPath("trading", acct.ID) // the id is validated by config.Accounts
	u := &UTA{cfg: acct, now: m.now, logger: m.logger.With("account", acct.ID), health: Healthy, gate: m.stageGate}
	u.onBadData = func(err error) {
		u.logger.Warn("trading: venue answer did not parse", "err", err)
		m.publish(trading.Event{Type: trading.EventVenueData, AccountID: acct.ID, Time: m.now(), Data: map[string]any{"error": err.Error()}}, false)
	}
	env := BuildEnv{Dir: dir, Market: m.market, Now: m.simNow(acct.ID), Logger: u.logger, Getenv: m.getenv, Prices: m.prices,
		OnFill: func(f sim.Fill) { m.onFill(acct.ID, f) }}
	b, god, key, err := f(acct, env)
	if err != nil {
		if key != "" {
			return nil, cfgErr(".presetConfig."+key, err)
		}
		return nil, cfgErr(".presetConfig", err)
	}
	u.broker, u.sim = b, god
	pipe, gi, err := guard.NewPipeline(guard.DefaultRegistry(), acct.Guards, u.logger)
	if err != nil {
		b.Close()
		var ut *guard.UnknownTypeError
		if errors.As(err, &ut) {
			return nil, cfgErr(fmt.Sprintf(".guards[%d].type", gi), err)
		}
		return nil, cfgErr(fmt.Sprintf(".guards[%d].options", gi), err)
	}
	u.guards = pipe
	// The guards' memory (cooldown times, the day's starting equity) is
	// on disk beside the history, so a restart or a reload keeps it.
	st, err := guard.OpenState(dir + string(os.PathSeparator) + guard.StateFile)
	if err != nil {
		b.Close()
		return nil, err
	}
	pipe.UseState(st)
	if u.snaps, err = snapshot.Open(dir + string(os.PathSeparator) + "snapshots"); err != nil {
		b.Close()
		return nil, err
	}
	u.git, err = git.Open(dir+string(os.PathSeparator)+"commit.json", git.Deps{
		Dispatch: u.dispatch, State: u.state, Reconcile: u.reconcile, Now: m.now, Logger: u.logger,
		Order: func(ctx context.Context, id string) (*trading.OpenOrder, error) { return u.broker.Order(ctx, id) },
	})
	if err != nil {
		b.Close()
		return nil, err
	}
	if err := b.Init(ctx); err != nil {
		u.observe(err)
		u.mu.Lock()
		u.health, u.lastErr = Offline, err.Error()
		u.mu.Unlock()
		m.logger.Warn("trading: account offline at start", "account", acct.ID, "err", err)
	}
	return u, nil
}

func sameConfig(a, b config.Account) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
