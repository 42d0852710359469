package live

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A guard added from form values lands in accounts.json through the
// validated edit path; a refused value names its field and writes nothing.
func TestAddAccountGuardWritesAccountsJSON(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	accts, err := c.AccountSettings()
	require.NoError(t, err)
	require.NotEmpty(t, accts)
	id := accts[0].ID
	var before []map[string]any
	require.NoError(t, json.Unmarshal([]byte(accts[0].GuardsJSON), &before))
	n := len(before) // the new guard is appended after these
	path := filepath.Join(a.Paths().Config, "accounts.json")
	ctx := context.Background()

	err = c.AddAccountGuard(ctx, id, "max-order-value", map[string]string{"maxValue": "-5"})
	var fe interface{ Field() string }
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "maxValue", fe.Field())
	require.Error(t, c.AddAccountGuard(ctx, id, "max-order-valu", map[string]string{"maxValue": "5"}))

	require.NoError(t, c.AddAccountGuard(ctx, id, "max-order-value", map[string]string{"maxValue": "5000"}))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"max-order-value"`)
	assert.Contains(t, string(raw), `"maxValue": "5000"`)
	assert.NotContains(t, string(raw), `max-order-valu"`)

	require.Error(t, c.RemoveAccountGuard(ctx, id, n, "cooldown"), "a stale choice is refused")
	require.NoError(t, c.RemoveAccountGuard(ctx, id, n, "max-order-value"))
	raw, err = os.ReadFile(path)
	require.NoError(t, err)
	after, err := c.AccountSettings()
	require.NoError(t, err)
	assert.JSONEq(t, accts[0].GuardsJSON, after[0].GuardsJSON, "back to the guards it had")
}
