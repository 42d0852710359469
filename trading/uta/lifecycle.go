package uta

import (
	"context"
	"fmt"

	"github.com/alice-trading/alice/config"
)

// Reconnect re-initialises an account's broker (after a network outage or
// a key fix) and resets its health on success.
func (m *Manager) Reconnect(ctx context.Context, id string) error {
	u, err := m.Get(id)
	if err != nil {
		return err
	}
	err = u.broker.Init(ctx)
	u.observe(err)
	return err
}

// SetEnabled flips an account's enabled flag in accounts.json and applies
// it (history and simulator state on disk are kept).
func (m *Manager) SetEnabled(ctx context.Context, id string, enabled bool) error {
	return m.editAccounts(ctx, id, func(accts config.Accounts, i int) config.Accounts {
		accts[i].Enabled = enabled
		return accts
	})
}

// SetAutoApprove flips an account's autoApprove flag in accounts.json.
func (m *Manager) SetAutoApprove(ctx context.Context, id string, on bool) error {
	return m.editAccounts(ctx, id, func(accts config.Accounts, i int) config.Accounts {
		accts[i].AutoApprove = on
		return accts
	})
}

// Remove deletes an account from accounts.json and stops it. Its data
// directory is left in place so nothing is lost by accident.
func (m *Manager) Remove(ctx context.Context, id string) error {
	return m.editAccounts(ctx, id, func(accts config.Accounts, i int) config.Accounts {
		return append(accts[:i], accts[i+1:]...)
	})
}

func (m *Manager) editAccounts(ctx context.Context, id string, edit func(config.Accounts, int) config.Accounts) error {
	accts, err := m.store.Accounts()
	if err != nil {
		return err
	}
	idx := -1
	for i, a := range accts {
		if a.ID == id {
			idx = i
		}
	}
	if idx < 0 {
		return fmt.Errorf("no account %q in %s", id, m.store.Path(config.AccountsFile))
	}
	if err := config.Save(m.store, config.AccountsFile, edit(accts, idx)); err != nil {
		return err
	}
	return m.Reload(ctx)
}
