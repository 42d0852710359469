package alpaca

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/alice-trading/alice/trading/broker"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An Alpaca number that does not parse fails the call with BAD_DATA
// instead of becoming zero.
func TestBadVenueNumbersFailTheCall(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		"/v2/account":   `{"currency":"USD","cash":"1000","equity":"1O00","buying_power":"1","status":"ACTIVE"}`,
		"/v2/positions": `[{"symbol":"AAPL","asset_class":"us_equity","qty":"ten","side":"long","avg_entry_price":"1","current_price":"1","market_value":"1","unrealized_pl":"0"}]`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(bodies[r.URL.Path]))
	}))
	t.Cleanup(srv.Close)
	cfg, key, err := ParseConfig([]byte(fmt.Sprintf(`{"apiKey":"key","apiSecret":"secret","baseUrl":%q,"dataUrl":%q}`, srv.URL, srv.URL)), nil)
	require.NoError(t, err, key)
	b := New("alp", cfg, nil)
	_, err = b.Account(context.Background())
	require.Error(t, err)
	assert.Equal(t, broker.CodeBadData, broker.CodeOf(err), err.Error())
	_, err = b.Positions(context.Background())
	require.Error(t, err)
	assert.Equal(t, broker.CodeBadData, broker.CodeOf(err), err.Error())
}
