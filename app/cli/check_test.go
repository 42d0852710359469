package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// `alice check` validates an ibkr-tws account: OpenAlice's shape passes,
// a bad port is reported with file and key.
func TestCheckValidatesIBKRAccount(t *testing.T) {
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	accts := filepath.Join(home, "config", "accounts.json")
	var out, errb bytes.Buffer

	require.NoError(t, os.WriteFile(accts, []byte(`[{"id":"ibkr","label":"IB paper","presetId":"ibkr-tws","guards":[],
  "presetConfig":{"host":"127.0.0.1","port":4002,"clientId":0,"accountId":"DU1234567"}}]`), 0o600))
	require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), errb.String())

	require.NoError(t, os.WriteFile(accts, []byte(`[{"id":"ibkr","presetId":"ibkr-tws","guards":[],"presetConfig":{"port":"74970"}}]`), 0o600))
	errb.Reset()
	require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
	require.Contains(t, errb.String(), accts)
	require.Contains(t, errb.String(), `"[0].presetConfig.port"`)
	require.Contains(t, errb.String(), "TCP port")
}

// `alice check` accepts the OpenBB market data backend (base URL, token
// env, provider choice) and still rejects an unknown key, naming it.
func TestCheckValidatesOpenBBMarketData(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	md := filepath.Join(home, "config", "market-data.json")
	var out, errb bytes.Buffer
	for _, ok := range []string{
		`{"backend":"openbb","baseUrl":"http://127.0.0.1:6900","apiKeyEnv":"OPENBB_API_TOKEN","provider":"yfinance"}`,
		`{"backend":"openbb"}`,
		`{"backend":"auto","seed":7}`,
	} {
		require.NoError(t, os.WriteFile(md, []byte(ok), 0o600))
		errb.Reset()
		require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), "%s: %s", ok, errb.String())
	}
	for _, c := range []struct{ body, want string }{
		{`{"backend":"openbb","token":"x"}`, `token`},
		{`{"backend":"yahoo","provider":"fmp"}`, `provider`},
		{`{"backend":"openbb","provider":"../x"}`, `invalid OpenBB provider`},
		{`{"backend":"bloomberg"}`, `want auto, simulated, yahoo, alpaca or openbb`},
	} {
		require.NoError(t, os.WriteFile(md, []byte(c.body), 0o600))
		errb.Reset()
		require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb), c.body)
		require.Contains(t, errb.String(), md)
		require.Contains(t, errb.String(), c.want)
	}
}

// `alice check` refuses what would protect nothing or be ignored: an
// unknown guard type and an unknown account key, naming file, account,
// key and the nearest known name.
func TestCheckRefusesUnknownGuardTypeAndAccountKey(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, accounts string
		want           []string
	}{
		{"misspelt guard", `[{"id":"paper","presetId":"simulator","guards":[{"type":"max-order-valu","options":{"maxValue":5000}}]}]`,
			[]string{`"[0].guards[0].type"`, `unknown guard type "max-order-valu" (did you mean "max-order-value"?)`}},
		{"unknown account key", `[{"id":"ok","presetId":"simulator","guards":[]},{"id":"paper","presetId":"simulator","readOnly":true,"zzzJunk":1,"guards":[]}]`,
			[]string{`"[1].zzzJunk"`, `unknown key "zzzJunk"`, `(account "paper")`}},
		{"misspelt readOnly", `[{"id":"paper","presetId":"simulator","readonly":true,"guards":[]}]`,
			[]string{`"[0].readonly"`, `did you mean "readOnly"?`}},
		{"unknown guard key", `[{"id":"paper","presetId":"simulator","guards":[{"type":"cooldown","option":{}}]}]`,
			[]string{`"[0].guards[0].option"`, `did you mean "options"?`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
			accts := filepath.Join(home, "config", "accounts.json")
			require.NoError(t, os.WriteFile(accts, []byte(c.accounts), 0o600))
			var out, errb bytes.Buffer
			require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
			require.Contains(t, errb.String(), accts)
			for _, w := range c.want {
				require.Contains(t, errb.String(), w)
			}
		})
	}
}

// `alice halt` asks for confirmation, then freezes staging; only `alice
// resume` lifts it (here without a running alice: it works on the data
// dir under the lock).
func TestHaltAndResumeOffline(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	var out, errb bytes.Buffer
	e := func(in string) int {
		out.Reset()
		errb.Reset()
		return runWithInput([]string{"halt", "--home", home, "--reason", "drill"}, strings.NewReader(in), &out, &errb)
	}
	e2 := func(in string, args ...string) int {
		out.Reset()
		errb.Reset()
		return runWithInput(append([]string{"halt", "--home", home}, args...), strings.NewReader(in), &out, &errb)
	}
	require.Equal(t, 1, e("no\n"))
	require.Contains(t, errb.String(), "not confirmed; nothing was done")
	_, err := os.Stat(filepath.Join(home, "data", "trading", "halt.json"))
	require.True(t, os.IsNotExist(err))

	require.Equal(t, 0, e("yes\n"), errb.String())
	require.Contains(t, out.String(), "Trading halted since")
	require.Contains(t, out.String(), "sim-paper: 0 resting order(s) cancelled")
	require.FileExists(t, filepath.Join(home, "data", "trading", "halt.json"))
	log, err := os.ReadFile(filepath.Join(home, "data", "event-log", "events.jsonl"))
	require.NoError(t, err)
	require.Contains(t, string(log), `"trade.halt"`)

	// resume asks like halt: no terminal (EOF) or "no" leaves it halted.
	resume := func(in string, args ...string) int {
		out.Reset()
		errb.Reset()
		return runWithInput(append([]string{"resume", "--home", home}, args...), strings.NewReader(in), &out, &errb)
	}
	require.Equal(t, 1, resume(""))
	require.Contains(t, errb.String(), "alice resume: not confirmed; nothing was done")
	require.Equal(t, 1, resume("no\n"))
	require.FileExists(t, filepath.Join(home, "data", "trading", "halt.json"))
	require.Equal(t, 0, resume("yes\n"), errb.String())
	require.Contains(t, out.String(), "Trading resumed")
	require.Equal(t, 1, resume("", "--yes"))
	require.Contains(t, errb.String(), "not halted")
	// both take --yes
	require.Equal(t, 0, e2("", "--yes"), errb.String())
	require.Equal(t, 0, resume("", "--yes"), errb.String())
}

// `alice check` accepts a native Binance account in OpenAlice's preset
// shape ({mode, apiKey, secret}) plus alice's market choice, and names a
// bad key.
func TestCheckValidatesBinanceAccount(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "config"), 0o700))
	accts := filepath.Join(home, "config", "accounts.json")
	var out, errb bytes.Buffer
	for _, ok := range []string{
		`[{"id":"binance-main","presetId":"binance","guards":[],"presetConfig":{"mode":"demo","apiKey":"k","secret":"s"}}]`,
		`[{"id":"bn-perp","presetId":"binance","guards":[],"presetConfig":{"mode":"testnet","market":"futures","apiKeyEnv":"BN_K","secretEnv":"BN_S","apiKey":"k","secret":"s"}}]`,
	} {
		require.NoError(t, os.WriteFile(accts, []byte(ok), 0o600))
		errb.Reset()
		require.Equal(t, 0, run([]string{"check", "--home", home}, &out, &errb), "%s: %s", ok, errb.String())
	}
	require.NoError(t, os.WriteFile(accts, []byte(`[{"id":"bn","presetId":"binance","guards":[],"presetConfig":{"mode":"demo","market":"coin-m","apiKey":"k","secret":"s"}}]`), 0o600))
	errb.Reset()
	require.Equal(t, 1, run([]string{"check", "--home", home}, &out, &errb))
	require.Contains(t, errb.String(), `"[0].presetConfig.market"`)
}
