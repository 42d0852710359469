package news

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProbeFeed(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/rss":
			_, _ = w.Write([]byte(`<?xml version="1.0"?><rss version="2.0"><channel><title>Markets</title>
<item><title>a</title></item><item><title>b</title></item></channel></rss>`))
		case "/html":
			_, _ = w.Write([]byte(`<html><body>hi</body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	title, n, err := ProbeFeed(context.Background(), srv.Client(), srv.URL+"/rss")
	require.NoError(t, err)
	assert.Equal(t, "Markets", title)
	assert.Equal(t, 2, n)
	_, _, err = ProbeFeed(context.Background(), srv.Client(), srv.URL+"/missing")
	assert.ErrorContains(t, err, "HTTP 404")
	_, _, err = ProbeFeed(context.Background(), srv.Client(), srv.URL+"/html")
	assert.ErrorContains(t, err, "not an RSS or Atom feed")
}
