package uta

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/eventlog"
	"github.com/alice-trading/alice/core/pubsub"
	"github.com/alice-trading/alice/trading"
	"github.com/alice-trading/alice/trading/sim"
	"github.com/alice-trading/alice/trading/simmarket"
	"github.com/alice-trading/alice/trading/snapshot"
)

// EventSink is the persistent event log (eventlog.Log satisfies it).
type EventSink interface {
	Append(typ string, payload any) (eventlog.Entry, error)
}

// Option customises a Manager (tests, embedding).
type Option func(*Manager)

// WithClock sets the clock used by brokers, git and snapshots.
func WithClock(now func() time.Time) Option { return func(m *Manager) { m.now = now } }

// WithSimTick sets how often simulated brokers match resting orders (default 1s).
func WithSimTick(d time.Duration) Option { return func(m *Manager) { m.simTick = d } }

// WithFactory adds or replaces the broker factory for a preset.
func WithFactory(preset string, f BrokerFactory) Option {
	return func(m *Manager) { m.factories[preset] = f }
}

// WithGetenv replaces os.Getenv for API key lookups.
func WithGetenv(f func(string) string) Option { return func(m *Manager) { m.getenv = f } }

type entry struct {
	uta    *UTA
	cancel context.CancelFunc
	done   chan struct{}
}

// Manager owns every account's lifecycle. Safe for concurrent use.
type Manager struct {
	store     *config.Store
	paths     config.Paths
	market    *simmarket.Market
	events    EventSink
	logger    *slog.Logger
	bus       *pubsub.Broker[trading.Event]
	factories map[string]BrokerFactory
	now       func() time.Time
	getenv    func(string) string
	simTick   time.Duration
	clocks    simClocks // simulator accounts' clock offsets (simclock.go)

	prices       PriceFeed     // real prices for simulator accounts (realprices.go)
	syncEvery    time.Duration // order poll lanes (poll.go); ≤ 0 is off
	observeEvery time.Duration

	mu       sync.RWMutex
	accounts map[string]*entry
	order    []config.Account // accounts.json order, including disabled
	broken   map[string]error
	runCtx   context.Context
	stop     context.CancelFunc
	wg       sync.WaitGroup
}

// NewManager wires the trading domain. events may be nil; market is the
// shared simulated market used by simulator accounts.
func NewManager(store *config.Store, paths config.Paths, market *simmarket.Market, events EventSink, logger *slog.Logger, opts ...Option) *Manager {
	if logger == nil {
		logger = slog.Default()
	}
	m := &Manager{store: store, paths: paths, market: market, events: events, logger: logger,
		bus: pubsub.New[trading.Event](), factories: DefaultFactories(), now: time.Now, getenv: os.Getenv,
		simTick: time.Second, accounts: map[string]*entry{}, broken: map[string]error{},
		syncEvery: DefaultSyncEvery, observeEvery: DefaultObserveEvery}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Start loads accounts.json, starts simulated market ticks and the
// snapshot scheduler. Accounts that fail to build are reported (joined
// *config.Error values) but the others run.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	if m.runCtx != nil {
		m.mu.Unlock()
		return errors.New("trading manager already started")
	}
	m.runCtx, m.stop = context.WithCancel(ctx)
	m.mu.Unlock()
	err := m.Reload(ctx)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.snapshotLoop(m.runCtx)
	}()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		m.pollLoop(m.runCtx)
	}()
	return err
}

// Close stops background work and closes every broker and subscription.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.stop != nil {
		m.stop()
	}
	ents := m.accounts
	m.accounts = map[string]*entry{}
	m.mu.Unlock()
	var errs []error
	for _, e := range ents {
		errs = append(errs, m.shutdown(e))
	}
	m.wg.Wait()
	m.bus.Close()
	return errors.Join(errs...)
}

func (m *Manager) shutdown(e *entry) error {
	// Wait for a push in progress and stop the old history taking writes
	// before anything rebuilds the account over the same files.
	e.uta.git.Close()
	if e.cancel != nil {
		e.cancel()
		<-e.done
	}
	return e.uta.broker.Close()
}

// Reload re-reads accounts.json: new or changed accounts are (re)built,
// disabled or removed ones are closed. History on disk is kept.
func (m *Manager) Reload(ctx context.Context) error {
	accts, err := m.store.Accounts()
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []error
	want := map[string]bool{}
	broken := map[string]error{}
	for i, a := range accts {
		if !a.Enabled {
			continue
		}
		want[a.ID] = true
		if e, ok := m.accounts[a.ID]; ok && sameConfig(e.uta.cfg, a) {
			continue
		}
		if e, ok := m.accounts[a.ID]; ok {
			_ = m.shutdown(e)
			delete(m.accounts, a.ID)
		}
		u, err := m.build(ctx, i, a)
		if err != nil {
			broken[a.ID] = err
			errs = append(errs, err)
			m.logger.Error("trading: account not started", "account", a.ID, "err", err)
			continue
		}
		m.accounts[a.ID] = m.launch(u)
	}
	for id, e := range m.accounts {
		if !want[id] {
			_ = m.shutdown(e)
			delete(m.accounts, id)
		}
	}
	m.order, m.broken = accts, broken
	m.publish(trading.Event{Type: trading.EventAccountsChanged, Time: m.now()}, false)
	return errors.Join(errs...)
}

// launch starts the simulator's tick loop when the manager is running.
func (m *Manager) launch(u *UTA) *entry {
	e := &entry{uta: u}
	if u.sim != nil && m.runCtx != nil {
		ctx, cancel := context.WithCancel(m.runCtx)
		e.cancel, e.done = cancel, make(chan struct{})
		go func() {
			defer close(e.done)
			u.sim.Start(ctx, m.simTick)
		}()
	}
	return e
}

// Summary is one row of Accounts().
type Summary struct {
	ID           string                `json:"id"`
	Label        string                `json:"label"`
	Preset       string                `json:"provider"`
	Enabled      bool                  `json:"enabled"`
	AutoApprove  bool                  `json:"autoApprove"`
	Health       Health                `json:"health"`
	Error        string                `json:"error,omitempty"`
	Capabilities *trading.Capabilities `json:"capabilities,omitempty"`
	Head         string                `json:"head,omitempty"`
	PendingHash  string                `json:"pendingHash,omitempty"`
	Staged       int                   `json:"staged"`
	// ReadOnly (accounts.json): the account never stages anything.
	ReadOnly bool `json:"readOnly"`
	// AITrading is agent.json's switch (the same on every account): off,
	// tools called by an agent stage nothing; people still trade.
	AITrading bool `json:"aiTrading"`
	// Halted: the kill switch is on; nothing stages on any account.
	Halted bool `json:"halted"`
	// AgentsMayStage sums the three up for this account (it must also be
	// running); StagingNote says why not.
	AgentsMayStage bool   `json:"agentsMayStage"`
	StagingNote    string `json:"stagingNote,omitempty"`
}

// Accounts lists every configured account in accounts.json order.
func (m *Manager) Accounts() []Summary {
	halt, _ := m.Halted()
	aiTrading, aiNote := true, ""
	if ag, err := m.store.Agent(); err != nil {
		aiTrading, aiNote = false, "agent.json cannot be read, so agents may not stage orders"
	} else if !ag.AITrading {
		aiTrading, aiNote = false, "AI trading is off (agent.json aiTrading: false): agents cannot stage; a person can"
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Summary, 0, len(m.order))
	for _, a := range m.order {
		s := Summary{ID: a.ID, Label: a.Label, Preset: a.Preset, Enabled: a.Enabled, AutoApprove: a.AutoApprove, Health: Disabled,
			ReadOnly: a.ReadOnly, AITrading: aiTrading, Halted: halt.Halted}
		if s.Label == "" {
			s.Label = a.ID
		}
		if e, ok := m.accounts[a.ID]; ok {
			h, msg := e.uta.Health()
			caps := e.uta.broker.Capabilities()
			st := e.uta.git.Status()
			s.Health, s.Error, s.Capabilities, s.Head, s.PendingHash, s.Staged = h, msg, &caps, st.Head, st.PendingHash, len(st.Staged)
		} else if err, bad := m.broken[a.ID]; bad {
			s.Health, s.Error = Offline, err.Error()
		}
		switch _, running := m.accounts[a.ID]; {
		case a.ReadOnly:
			s.StagingNote = "read-only (readOnly: true in accounts.json): nothing is ever staged here"
		case halt.Halted:
			s.StagingNote = "trading is halted (kill switch): nothing stages until a person resumes"
		case !aiTrading:
			s.StagingNote = aiNote
		case !running:
			s.StagingNote = "the account is not running (" + string(s.Health) + ")"
		default:
			s.AgentsMayStage = true
		}
		out = append(out, s)
	}
	return out
}

// Get returns a running account.
func (m *Manager) Get(id string) (*UTA, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if e, ok := m.accounts[id]; ok {
		return e.uta, nil
	}
	if err, ok := m.broken[id]; ok {
		return nil, fmt.Errorf("account %q failed to start: %w", id, err)
	}
	return nil, fmt.Errorf("unknown or disabled account %q (see listUTAs)", id)
}

// Resolve maps a tool's source ("" = all, an account id, or a preset) to
// running accounts in config order.
func (m *Manager) Resolve(source string) ([]*UTA, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []*UTA
	for _, a := range m.order {
		if e, ok := m.accounts[a.ID]; ok && e.uta.matches(source) {
			out = append(out, e.uta)
		}
	}
	if len(out) == 0 {
		if source == "" {
			return nil, errors.New("no trading accounts are enabled (see accounts.json)")
		}
		return nil, fmt.Errorf("no enabled account matches source %q (use an account id from listUTAs or a provider such as \"simulator\")", source)
	}
	return out, nil
}

// Subscribe streams trading events until ctx ends.
func (m *Manager) Subscribe(ctx context.Context) <-chan trading.Event { return m.bus.Subscribe(ctx) }

// publish fans an event out and appends it to the event log.
func (m *Manager) publish(ev trading.Event, important bool) {
	// The event log first: a subscriber woken by the bus may read the
	// log at once and must find the entry there (persisted, then told).
	if m.events != nil && ev.Type != trading.EventAccountsChanged {
		payload := map[string]any{"accountId": ev.AccountID}
		if ev.Hash != "" {
			payload["hash"] = ev.Hash
		}
		if ev.Data != nil {
			payload["data"] = ev.Data
		}
		if _, err := m.events.Append(string(ev.Type), payload); err != nil {
			m.logger.Warn("trading: event log append", "type", ev.Type, "err", err)
		}
	}
	if important {
		m.bus.PublishMustDeliver(ev)
	} else {
		m.bus.Publish(ev)
	}
}

func (m *Manager) onFill(accountID string, f sim.Fill) {
	m.publish(trading.Event{Type: trading.EventOrderFilled, AccountID: accountID, Time: f.Time, Data: f}, true)
}

// snapshotLoop takes scheduled snapshots, re-reading snapshot.json each
// cycle so edits apply without a restart.
func (m *Manager) snapshotLoop(ctx context.Context) {
	for {
		every := 15 * time.Minute
		cfg, err := m.store.Snapshot()
		if err != nil {
			m.logger.Warn("trading: snapshot config", "err", err)
		} else if d, err := config.ParseEvery(cfg.Every); err == nil {
			every = d
		}
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if err == nil && cfg.Enabled {
			m.SnapshotAll(ctx, snapshot.Scheduled)
		}
	}
}

// SnapshotAll snapshots every running account.
func (m *Manager) SnapshotAll(ctx context.Context, trigger snapshot.Trigger) {
	all, err := m.Resolve("")
	if err != nil {
		return
	}
	for _, u := range all {
		m.snapshot(ctx, u, trigger)
	}
}

// TakeSnapshot snapshots one account now (trigger "manual" for the UI).
func (m *Manager) TakeSnapshot(ctx context.Context, id string, trigger snapshot.Trigger) (snapshot.Snapshot, error) {
	u, err := m.Get(id)
	if err != nil {
		return snapshot.Snapshot{}, err
	}
	return m.snapshot(ctx, u, trigger)
}

func (m *Manager) snapshot(ctx context.Context, u *UTA, trigger snapshot.Trigger) (snapshot.Snapshot, error) {
	sn, err := u.Snapshot(ctx, trigger)
	if err != nil {
		m.publish(trading.Event{Type: trading.EventSnapshotError, AccountID: u.ID(), Time: m.now(),
			Data: map[string]any{"trigger": trigger, "error": err.Error()}}, false)
		return sn, err
	}
	m.publish(trading.Event{Type: trading.EventSnapshotTaken, AccountID: u.ID(), Time: sn.Timestamp,
		Data: map[string]any{"trigger": trigger, "timestamp": sn.Timestamp, "netLiquidation": sn.Account.NetLiquidation}}, false)
	return sn, nil
}

// EquityCurve is one account's net liquidation over time.
func (m *Manager) EquityCurve(id string, since time.Time) ([]snapshot.Point, error) {
	u, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	return u.EquityCurve(since)
}

// Snapshots lists one account's snapshots (newest limit, oldest first).
func (m *Manager) Snapshots(id string, since time.Time, limit int) ([]snapshot.Snapshot, error) {
	u, err := m.Get(id)
	if err != nil {
		return nil, err
	}
	return u.Snapshots(since, limit)
}

// sortByTime orders merged log entries newest first.
func sortByTime(es []AccountLogEntry) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Timestamp.After(es[j].Timestamp) })
}
