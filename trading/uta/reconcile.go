package uta

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alice-trading/alice/config"
)

// Live account management: accounts.json is the source of truth, and the
// Manager reconciles running accounts with it whenever it changes — from
// the Settings pane (AddAccount, UpdateAccount) or from a text editor
// (WatchConfig) — so adding, changing or removing an account never needs
// a restart.

// WatchConfig reloads accounts whenever accounts.json changes on disk (the
// OS tells; interval is the polling period where it cannot), until ctx
// ends or the manager closes. It runs on
// the manager's wait group so Close waits for it.
func (m *Manager) WatchConfig(ctx context.Context, interval time.Duration) {
	since, _ := m.store.FileVersion(config.AccountsFile)
	m.mu.Lock()
	run := m.runCtx
	m.mu.Unlock()
	if run == nil {
		run = ctx
	}
	wctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(run, cancel) // stop with the manager too
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cancel()
		defer stop()
		m.store.Watch(wctx, config.AccountsFile, since, interval, func(config.Version) {
			if err := m.Reload(wctx); err != nil {
				m.logger.Warn("trading: accounts.json changed; some accounts did not start", "err", err)
			} else {
				m.logger.Info("trading: accounts.json changed; accounts reconciled")
			}
		})
	}()
}

// NewAccount is what a person fills in to add an account.
type NewAccount struct {
	ID          string
	Label       string
	PresetID    string            // a Presets() id
	Values      map[string]string // presetConfig form values by field key
	Guards      []config.Guard
	AutoApprove bool
}

// AddAccount validates the new account, appends it to accounts.json (an
// atomic, merge-preserving write) and starts it. A broker that cannot
// connect still starts (offline, shown in its health); a config problem
// is refused before anything is written.
func (m *Manager) AddAccount(ctx context.Context, na NewAccount) error {
	p, ok := PresetByID(na.PresetID)
	if !ok {
		return fmt.Errorf("unknown preset %q", na.PresetID)
	}
	raw, key, err := p.BuildPresetConfig(na.Values)
	if err != nil {
		return &config.Error{File: m.store.Path(config.AccountsFile), Key: "presetConfig." + key, Msg: err.Error()}
	}
	acct := config.Account{ID: na.ID, Label: na.Label, Preset: brokerFor(p.ID), Enabled: true,
		AutoApprove: na.AutoApprove, Guards: na.Guards, PresetConfig: raw}
	if acct.Guards == nil {
		acct.Guards = []config.Guard{}
	}
	_, _, err = config.Edit(m.store, config.AccountsFile, "", config.DefaultAccounts, func(a *config.Accounts) error {
		for _, x := range *a {
			if x.ID == acct.ID {
				return fmt.Errorf("an account with id %q already exists", acct.ID)
			}
		}
		*a = append(*a, acct)
		return m.checkAccount(len(*a)-1, acct)
	})
	if err != nil {
		return err
	}
	return m.reloadFor(ctx, acct.ID)
}

// UpdateAccount edits one account in accounts.json and applies the change
// live (the account is rebuilt when its config differs; disabling stops
// it). base is the accounts.json version the editor showed; a file changed
// since is refused with config.ErrConflict ("" skips the check).
func (m *Manager) UpdateAccount(ctx context.Context, id string, base config.Version, fn func(*config.Account) error) error {
	_, _, err := config.Edit(m.store, config.AccountsFile, base, config.DefaultAccounts, func(a *config.Accounts) error {
		for i := range *a {
			if (*a)[i].ID == id {
				if err := fn(&(*a)[i]); err != nil {
					return err
				}
				if (*a)[i].ID != id {
					return errors.New("an account's id cannot be changed (it names its history directory)")
				}
				return m.checkAccount(i, (*a)[i])
			}
		}
		return fmt.Errorf("no account %q in %s", id, m.store.Path(config.AccountsFile))
	})
	if err != nil {
		return err
	}
	return m.reloadFor(ctx, id)
}

// RemoveAccount deletes an account from accounts.json and stops it; its
// history directory stays on disk.
func (m *Manager) RemoveAccount(ctx context.Context, id string) error {
	_, _, err := config.Edit(m.store, config.AccountsFile, "", config.DefaultAccounts, func(a *config.Accounts) error {
		for i := range *a {
			if (*a)[i].ID == id {
				*a = append((*a)[:i], (*a)[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("no account %q in %s", id, m.store.Path(config.AccountsFile))
	})
	if err != nil {
		return err
	}
	return m.Reload(ctx)
}

// AccountsVersion is the version of accounts.json for conflict checks.
func (m *Manager) AccountsVersion() (config.Version, error) {
	return m.store.FileVersion(config.AccountsFile)
}

// AccountConfig returns one account's stored configuration.
func (m *Manager) AccountConfig(id string) (config.Account, error) {
	accts, err := m.store.Accounts()
	if err != nil {
		return config.Account{}, err
	}
	for _, a := range accts {
		if a.ID == id {
			return a, nil
		}
	}
	return config.Account{}, fmt.Errorf("no account %q", id)
}

// reloadFor reconciles and reports only the given account's problem, so
// one broken neighbour does not make an unrelated edit look failed.
func (m *Manager) reloadFor(ctx context.Context, id string) error {
	_ = m.Reload(ctx)
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err, bad := m.broken[id]; bad {
		return fmt.Errorf("saved, but account %q did not start: %w", id, err)
	}
	return nil
}

// checkAccount validates an account before anything is written, with the
// one validation `alice check` and start-up use (ValidateAccount: preset,
// presetConfig including API keys from the environment, guard options).
// A disabled account is checked too: the form is saying "this is right".
func (m *Manager) checkAccount(idx int, a config.Account) error {
	if _, ok := m.factories[a.Preset]; !ok {
		return &config.Error{File: m.store.Path(config.AccountsFile), Key: fmt.Sprintf("[%d].presetId", idx), Msg: fmt.Sprintf("unknown preset %q", a.Preset)}
	}
	return ValidateAccount(m.store.Path(config.AccountsFile), idx, a, m.getenv)
}
