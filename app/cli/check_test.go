package cli

import (
	"bytes"
	"os"
	"path/filepath"
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
