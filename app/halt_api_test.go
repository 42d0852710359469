package app_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/config"
)

// Only the person's CLI lifts the kill switch over HTTP: a resume without
// the operator key (0600 in the data dir) is refused, the caller cannot
// name who acted, and a halt without the key is recorded as anonymous.
func TestResumeOverHTTPNeedsTheOperatorKey(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	base := strings.TrimSuffix(a.MCPURL(), "/mcp")
	post := func(route, body, key string) (int, string) {
		_, path, _ := strings.Cut(route, " ")
		req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set(config.OperatorKeyHeader, key)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	keyFile := filepath.Join(a.Paths().Data, config.OperatorKeyFile)
	st, err := os.Stat(keyFile)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	key, err := config.ReadOperatorKey(a.Paths().Data)
	require.NoError(t, err)

	code, _ := post(app.HaltRoute, `{"reason":"drill"}`, "")
	require.Equal(t, http.StatusOK, code)
	h, err := a.Trading().Halted()
	require.NoError(t, err)
	require.True(t, h.Halted)
	require.Contains(t, h.By, "no operator key")

	// The tester's exploit: a caller-chosen "by" and no key.
	code, body := post(app.ResumeRoute, `{"by":"alice CLI (root)","reason":"x"}`, "")
	require.Equal(t, http.StatusForbidden, code, body)
	require.Contains(t, body, "only a person lifts the kill switch")
	code, _ = post(app.ResumeRoute, `{}`, "wrong-key")
	require.Equal(t, http.StatusForbidden, code)
	h, err = a.Trading().Halted()
	require.NoError(t, err)
	require.True(t, h.Halted, "a refused resume must leave trading halted")

	// With the key, "by" is still not the caller's to say.
	code, body = post(app.ResumeRoute, `{"by":"someone else"}`, key)
	require.Equal(t, http.StatusBadRequest, code, body)
	code, body = post(app.ResumeRoute, ``, key)
	require.Equal(t, http.StatusOK, code, body)
	h, err = a.Trading().Halted()
	require.NoError(t, err)
	require.False(t, h.Halted)

	// Halting with the key is recorded as the key's holder.
	code, _ = post(app.HaltRoute, `{}`, key)
	require.Equal(t, http.StatusOK, code)
	h, err = a.Trading().Halted()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(h.By, "operator key (alice CLI"), h.By)
	_, err = a.Trading().Resume("test cleanup")
	require.NoError(t, err)
}
