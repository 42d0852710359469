package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCoreLostMessage(t *testing.T) {
	t.Parallel()
	start := `{"level":"INFO","msg":"Core starting","pid":1}`
	info := `{"level":"INFO","msg":"mcp: listening"}`
	warn := `{"level":"WARN","msg":"Telegram unreachable"}`
	errl := `{"level":"ERROR","msg":"Shutdown"}`
	for name, tc := range map[string]struct {
		lines []string
		want  string
	}{
		"no log":                     {nil, ""},
		"nothing after start":        {[]string{warn, start, info}, ""},
		"warnings of an earlier run": {[]string{errl, warn, start}, ""},
		"problems after start":       {[]string{start, info, warn, errl}, "`alice logs` shows 2 warning(s) or error(s)"},
		"no start record":            {[]string{warn}, ""},
	} {
		path := filepath.Join(t.TempDir(), "alice.log")
		if tc.lines != nil {
			require.NoError(t, os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o600))
		}
		got := coreLostMessage(path)
		require.True(t, strings.HasPrefix(got, "the core stopped unexpectedly (killed?)"), name)
		require.NotContains(t, got, "exit status", name)
		if tc.want == "" {
			require.NotContains(t, got, "alice logs", name)
		} else {
			require.Contains(t, got, tc.want, name)
		}
	}
}
