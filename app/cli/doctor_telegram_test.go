package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/freeport"
)

func TestDoctorReportsTheTelegramLink(t *testing.T) {
	p := doctorHome(t)
	addr, err := freeport.Addr() // refuses connections: nothing listens there
	require.NoError(t, err)
	closed := "http://" + addr
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"result":{"id":1,"is_bot":true,"first_name":"A","username":"AliceDocBot"}}`))
	}))
	t.Cleanup(api.Close)
	connectors := func(base string) {
		body := fmt.Sprintf(`{"mcpAsk":{"enabled":false},"telegram":{"enabled":true,"botToken":"1:DOCSECRET","chatIds":[1],"apiBaseUrl":%q}}`, base)
		require.NoError(t, os.WriteFile(filepath.Join(p.Config, "connectors.json"), []byte(body), 0o600))
	}
	// What a running alice recorded about its link.
	require.NoError(t, os.MkdirAll(filepath.Join(p.Data, "event-log"), 0o700))
	ev := fmt.Sprintf(`{"seq":1,"ts":%d,"type":"connector.down","payload":{"channel":"telegram","error":"dial tcp: connection refused","attempt":3}}`+"\n", time.Now().UnixMilli())
	require.NoError(t, os.WriteFile(filepath.Join(p.Data, "event-log", "events.jsonl"), []byte(ev), 0o600))

	cases := []struct {
		name   string
		base   string
		owner  *lockOwner
		state  checkState
		detail []string
	}{
		{"closed port, nothing running", closed, nil, checkFail, []string{"did not answer getMe", "connection refused"}},
		{"closed port, alice retrying", closed, &lockOwner{PID: 77, Started: time.Now().Add(-time.Hour)}, checkFail, []string{"running alice (pid 77) lost the link", "is retrying"}},
		{"answering", api.URL, nil, checkOK, []string{"answers getMe as @AliceDocBot"}},
	}
	for _, tc := range cases {
		connectors(tc.base)
		d := &doctorRun{deps: healthyDeps(), paths: p, store: config.NewStore(p.Config), configOK: true, owner: tc.owner}
		r := d.checkTelegram(context.Background())
		require.Equal(t, tc.state, r.State, "%s: %s", tc.name, r.Detail)
		for _, s := range tc.detail {
			require.Contains(t, r.Detail, s, tc.name)
		}
		require.NotContains(t, r.Detail, "DOCSECRET", tc.name)
		if tc.state == checkFail {
			require.Contains(t, r.Fix, "retries with backoff", tc.name)
		}
	}
}
