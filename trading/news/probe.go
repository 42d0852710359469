package news

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/mmcdole/gofeed"
)

// ProbeFeed fetches one feed URL and reports its title and item count, or
// the exact problem (HTTP status, parse error), for the Settings pane's
// "test" before a feed is added.
func ProbeFeed(ctx context.Context, client *http.Client, url string) (title string, items int, err error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("User-Agent", "alice-news/1.0 (+rss collector)")
	resp, err := client.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return "", 0, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	feed, err := gofeed.NewParser().Parse(io.LimitReader(resp.Body, maxFeedBytes))
	if err != nil {
		return "", 0, fmt.Errorf("not an RSS or Atom feed: %w", err)
	}
	return feed.Title, len(feed.Items), nil
}
