package uta

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/trading/simmarket"

	"github.com/stretchr/testify/require"
)

// errLines splits joined errors into sorted lines for set comparisons.
func errLines(err error) []string {
	if err == nil {
		return nil
	}
	l := strings.Split(err.Error(), "\n")
	sort.Strings(l)
	return l
}

// TestCheckRaisesEveryErrorServeRaises writes accounts.json variants and
// compares what the check path (ValidateStore) reports with what starting
// the accounts (Manager.Start, what `alice serve` does) reports: every
// error serve raises, check raises too, naming file and key.
func TestCheckRaisesEveryErrorServeRaises(t *testing.T) {
	getenv := func(k string) string {
		return map[string]string{"MY_KEY": "k", "MY_SECRET": "s"}[k]
	}
	// Alpaca accounts point at a closed local port so nothing leaves the
	// machine; Init failing only marks an account offline, it is no error.
	dead := `"baseUrl":"http://127.0.0.1:1","dataUrl":"http://127.0.0.1:1"`
	cases := []struct {
		name    string
		json    string
		wantKey []string // keys check must name; empty = valid
	}{
		{"default simulator", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"cash":"1000"}}]`, nil},
		{"unknown preset", `[{"id":"a","presetId":"longbridge","guards":[]}]`, []string{`"[0].presetId"`}},
		{"ibkr bad port", `[{"id":"a","presetId":"ibkr-tws","guards":[],"presetConfig":{"host":"127.0.0.1","port":99999}}]`, []string{`"[0].presetConfig.port"`}},
		{"ibkr misspelt key", `[{"id":"a","presetId":"ibkr-tws","guards":[],"presetConfig":{"clientID":1}}]`, []string{`"[0].presetConfig.clientID"`}},
		{"ibkr on a closed port is offline, not a config error", `[{"id":"a","presetId":"ibkr-tws","guards":[],"presetConfig":{"host":"127.0.0.1","port":1,"clientId":0,"timeoutSec":1}}]`, nil},
		{"simulator bad cash", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"cash":"lots"}}]`, []string{`"[0].presetConfig.cash"`}},
		{"simulator unknown key", `[{"id":"a","presetId":"mock-simulator","guards":[],"presetConfig":{"cahs":1}}]`, []string{`"[0].presetConfig.cahs"`}},
		{"simulator typo names the nearest key", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"seeed":1}}]`, []string{`"[0].presetConfig.seeed": unknown key "seeed" (did you mean "seed"?); known: `}},
		{"alpaca without keys", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"mode":"paper","apiKeyEnv":"NOPE"}}]`, []string{`"[0].presetConfig.apiKey"`}},
		{"alpaca bad mode", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"mode":"demo","apiKey":"k","apiSecret":"s"}}]`, []string{`"[0].presetConfig.mode"`}},
		{"alpaca mode contradicts paper", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"mode":"live","paper":true,"apiKey":"k","apiSecret":"s"}}]`, []string{`"[0].presetConfig.paper"`}},
		{"alpaca bad url", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"apiKey":"k","apiSecret":"s","baseUrl":"nope"}}]`, []string{`"[0].presetConfig.baseUrl"`}},
		{"alpaca unknown key", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"apiKey":"k","apiSecret":"s","secret":"x"}}]`, []string{`"[0].presetConfig.secret"`}},
		{"simulator key in another case", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"Cash":"5"}}]`, []string{`"[0].presetConfig.Cash": unknown key "Cash" (did you mean "cash"?)`}},
		{"simulator case twin does not win", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"seed":1,"SEED":2}}]`, []string{`"[0].presetConfig.SEED": unknown key "SEED" (did you mean "seed"?)`}},
		{"simulator fractional seed", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"seed":4.5}}]`, []string{`"[0].presetConfig.seed": expected a whole number, got 4.5`}},
		{"alpaca key in another case", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"APIKEY":"k","apiSecret":"s"}}]`, []string{`"[0].presetConfig.APIKEY": unknown key "APIKEY" (did you mean "apiKey"?)`}},
		{"alpaca bad env var name", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"apiKeyEnv":"bad env","apiSecret":"s"}}]`, []string{`"[0].presetConfig.apiKeyEnv": must be the NAME of an environment variable`}},
		{"alpaca data url without scheme", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"apiKey":"k","apiSecret":"s","dataUrl":"data.alpaca.markets"}}]`, []string{`"[0].presetConfig.dataUrl": must be an absolute http(s) URL`}},
		{"bybit fractional recv window", `[{"id":"a","presetId":"bybit","guards":[],"presetConfig":{"apiKey":"k","secret":"s","recvWindowMs":5000.5}}]`, []string{`"[0].presetConfig.recvWindowMs": expected a whole number, got 5000.5`}},
		{"binance secret env var", `[{"id":"a","presetId":"binance","guards":[],"presetConfig":{"apiKey":"k","secretEnv":"9LIVES"}}]`, []string{`"[0].presetConfig.secretEnv": must be the NAME of an environment variable`}},
		{"bad guard option", `[{"id":"a","presetId":"simulator","guards":[{"type":"max-order-value","options":{"maxValue":"lots"}}]}]`, []string{`"[0].guards[0].options"`}},
		{"alpaca paper via env", `[{"id":"a","presetId":"alpaca","guards":[],"presetConfig":{"mode":"paper","apiKeyEnv":"MY_KEY","apiSecretEnv":"MY_SECRET",` + dead + `}}]`, nil},
		{"disabled broken account is not started, so not an error", `[{"id":"a","presetId":"nope","enabled":false,"guards":[]}]`, nil},
		{"two broken accounts, both named", `[{"id":"a","presetId":"simulator","guards":[],"presetConfig":{"cash":"-1"}},{"id":"b","presetId":"alpaca","guards":[],"presetConfig":{"mode":"x"}}]`,
			[]string{`"[0].presetConfig.cash"`, `"[1].presetConfig.mode"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			require.NoError(t, os.MkdirAll(e.paths.Config, 0o700))
			file := e.store.Path(config.AccountsFile)
			require.NoError(t, os.WriteFile(file, []byte(c.json), 0o600))

			checkErr := ValidateStore(e.store, getenv)
			m := NewManager(e.store, e.paths, simmarket.New(42), e.sink, nil, WithClock(e.clock), WithGetenv(getenv), WithSimTick(time.Hour))
			serveErr := m.Start(context.Background())
			_ = m.Close()

			if len(c.wantKey) == 0 {
				require.NoError(t, checkErr)
				require.NoError(t, serveErr)
				return
			}
			require.Error(t, checkErr)
			require.Error(t, serveErr, "the case must be one serve refuses")
			for _, k := range c.wantKey {
				require.Contains(t, checkErr.Error(), "key "+k)
			}
			require.Contains(t, checkErr.Error(), file)
			require.Subset(t, errLines(checkErr), errLines(serveErr), "serve raised something check did not")
		})
	}
}

// TestOpenAliceAccountsLoadUnchanged feeds an accounts.json written by
// OpenAlice (mock-simulator with a numeric cash and an _instanceId,
// Alpaca with presetConfig.mode, ephemeral) to the check path and starts
// the simulator account.
func TestOpenAliceAccountsLoadUnchanged(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, os.MkdirAll(e.paths.Config, 0o700))
	oa := `[
  {"id": "mock-simulator-3f9a1c2e", "label": "Sim", "presetId": "mock-simulator", "enabled": true, "ephemeral": true,
   "guards": [], "presetConfig": {"cash": 100000, "_instanceId": "3f9a1c2e"}},
  {"id": "alpaca-5d1e2f3a", "presetId": "alpaca", "enabled": false,
   "guards": [{"type": "max-position-size", "options": {}}], "presetConfig": {"mode": "paper", "apiKey": "PK123", "apiSecret": "sec"}}
]`
	require.NoError(t, os.WriteFile(filepath.Join(e.paths.Config, config.AccountsFile), []byte(oa), 0o600))
	require.NoError(t, ValidateStore(e.store, func(string) string { return "" }))
	accts, err := e.store.Accounts()
	require.NoError(t, err)
	accts[1].Enabled = true // validate the Alpaca one too, without starting it
	require.NoError(t, ValidateAccounts("accounts.json", accts, func(string) string { return "" }))

	m := e.start(t)
	list := m.Accounts()
	require.Len(t, list, 2)
	require.Equal(t, "mock-simulator-3f9a1c2e", list[0].ID)
	require.Equal(t, Healthy, list[0].Health)
	require.False(t, list[1].Enabled)
}
