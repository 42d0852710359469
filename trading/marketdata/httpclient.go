package marketdata

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/alice-trading/alice/core/httpjson"
)

// dataClient is the HTTP backends' plumbing: the shared HTTP/JSON client
// with market data's error conventions (a 404 is ErrNotFound).
type dataClient struct {
	c *httpjson.Client
}

func newDataClient(name string, client *http.Client, baseURL string, headers http.Header) (dataClient, error) {
	c, err := httpjson.New(httpjson.Options{Name: name, BaseURL: baseURL, HTTP: client, Timeout: 20 * time.Second,
		Headers: headers, Retries: 2})
	if err != nil {
		return dataClient{}, err
	}
	return dataClient{c: c}, nil
}

// get fetches base+path?query into v (numbers as json.Number). path
// segments must already be escaped.
func (d dataClient) get(ctx context.Context, path string, query url.Values, v any) error {
	err := d.c.Get(ctx, path, query, v)
	if errors.Is(err, httpjson.ErrNotFound) {
		return errors.Join(ErrNotFound, err)
	}
	return err
}
