package wsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls a running instance's workspace API.
type Client struct {
	// BaseURL is the listener's root, e.g. http://127.0.0.1:3001 (a
	// trailing /mcp is stripped).
	BaseURL string
	// Token is the MCP bearer token, when one is configured.
	Token string
	HTTP  *http.Client
}

var _ Backend = (*Client)(nil)

// NewClient builds a client for a listener URL such as the MCP endpoint.
func NewClient(listenerURL, token string) *Client {
	base := strings.TrimSuffix(strings.TrimRight(listenerURL, "/"), "/mcp")
	return &Client{BaseURL: base, Token: token, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e apiError
		if json.Unmarshal(raw, &e) == nil && e.Error != "" {
			return fmt.Errorf("%s (HTTP %d)", e.Error, resp.StatusCode)
		}
		return fmt.Errorf("%s %s: HTTP %d: %s", method, path, resp.StatusCode, strings.TrimSpace(string(raw)))
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// List returns every workspace.
func (c *Client) List(ctx context.Context) ([]Info, error) {
	var out []Info
	return out, c.do(ctx, http.MethodGet, "/api/workspaces", nil, &out)
}

// Create makes a workspace.
func (c *Client) Create(ctx context.Context, tag, template string) (Info, error) {
	var out Info
	return out, c.do(ctx, http.MethodPost, "/api/workspaces", CreateRequest{Tag: tag, Template: template}, &out)
}

// Remove stops and forgets a workspace (its directory only with removeDir).
func (c *Client) Remove(ctx context.Context, idOrTag string, removeDir bool) error {
	p := "/api/workspaces/" + url.PathEscape(idOrTag)
	if removeDir {
		p += "?removeDir=1"
	}
	return c.do(ctx, http.MethodDelete, p, nil, nil)
}

// Send types text into a session of the workspace.
func (c *Client) Send(ctx context.Context, idOrTag string, req SendRequest) error {
	return c.do(ctx, http.MethodPost, "/api/workspaces/"+url.PathEscape(idOrTag)+"/send", req, nil)
}
