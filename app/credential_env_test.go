package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// A workspace run's environment has no broker key of alice's: with it an
// agent could trade at the broker directly, around every guard and
// approval. Other variables still reach it. Not parallel: t.Setenv.
func TestWorkspaceRunsDoNotGetBrokerKeys(t *testing.T) {
	broker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"message":"forbidden"}`, http.StatusForbidden)
	}))
	defer broker.Close()
	t.Setenv("MYBROKER_KEY_T", "key-not-for-agents")
	t.Setenv("MYBROKER_SECRET_T", "secret-not-for-agents")
	t.Setenv("APCA_API_KEY_ID", "default-name-key")
	t.Setenv("HARMLESS_VAR_T", "visible")
	accounts := fmt.Sprintf(`[{"id":"alp","presetId":"alpaca","guards":[],"presetConfig":{"apiKeyEnv":"MYBROKER_KEY_T","apiSecretEnv":"MYBROKER_SECRET_T","baseUrl":%q,"dataUrl":%q}},
		{"id":"alp2","presetId":"alpaca","guards":[],"presetConfig":{"apiSecretEnv":"MYBROKER_SECRET_T","baseUrl":%q,"dataUrl":%q}}]`,
		broker.URL, broker.URL, broker.URL, broker.URL)
	a := apptest.Start(t, map[string]string{config.AccountsFile: accounts})
	got := runOneShot(t, a, "env", "env | grep -E 'MYBROKER|APCA|HARMLESS' | sort")
	require.Contains(t, got, "HARMLESS_VAR_T=visible")
	for _, secret := range []string{"key-not-for-agents", "secret-not-for-agents", "default-name-key"} {
		require.NotContains(t, got, secret)
	}
}

// Without a core (alice workspace offline), the same names come from the
// config: the accounts' keys (named or default), the bot token's.
func TestCredentialEnvNamesFromConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, config.AccountsFile),
		[]byte(`[{"id":"alp","presetId":"alpaca","guards":[],"presetConfig":{"apiKeyEnv":"MYBROKER_KEY_T"}}]`), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, config.ConnectorsFile),
		[]byte(`{"telegram":{"enabled":false,"botTokenEnv":"MY_BOT_TOKEN_T"}}`), 0o600))
	names := app.CredentialEnvNames(config.NewStore(dir))
	for _, want := range []string{"MYBROKER_KEY_T", "APCA_API_SECRET_KEY", "MY_BOT_TOKEN_T", "APCA_API_KEY_ID", "BINANCE_API_SECRET", "BYBIT_API_KEY"} {
		require.Contains(t, names, want)
	}
	require.NotContains(t, names, "PATH")
}
