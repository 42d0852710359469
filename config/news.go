package config

import "fmt"

// NewsFile is news.json.
const NewsFile = "news.json"

// Feed is one RSS or Atom source.
type Feed struct {
	Name       string   `json:"name"`
	URL        string   `json:"url" cfg:"url"`
	Source     string   `json:"source"`
	Categories []string `json:"categories,omitempty"`
	Enabled    bool     `json:"enabled"`
}

// News configures the background collector.
type News struct {
	Enabled         bool   `json:"enabled"`
	IntervalMinutes int    `json:"intervalMinutes"`
	MaxInMemory     int    `json:"maxInMemory"`
	RetentionDays   int    `json:"retentionDays"`
	Feeds           []Feed `json:"feeds"`
}

// DefaultNews collects a handful of macro and market feeds every 10 minutes.
func DefaultNews() News {
	return News{
		Enabled: true, IntervalMinutes: 10, MaxInMemory: 2000, RetentionDays: 7,
		Feeds: []Feed{
			{Name: "Federal Reserve Press", URL: "https://www.federalreserve.gov/feeds/press_all.xml", Source: "federalreserve", Categories: []string{"macro"}, Enabled: true},
			{Name: "ECB Press", URL: "https://www.ecb.europa.eu/rss/press.html", Source: "ecb", Categories: []string{"macro"}, Enabled: true},
			{Name: "MarketWatch Top Stories", URL: "https://feeds.content.dowjones.io/public/rss/mw_topstories", Source: "marketwatch", Categories: []string{"markets"}, Enabled: true},
			{Name: "WSJ Markets", URL: "https://feeds.a.dj.com/rss/RSSMarketsMain.xml", Source: "wsj", Categories: []string{"markets"}, Enabled: true},
			{Name: "CNBC Economy", URL: "https://www.cnbc.com/id/20910258/device/rss/rss.html", Source: "cnbc", Categories: []string{"macro"}, Enabled: true},
			{Name: "CoinDesk", URL: "https://www.coindesk.com/arc/outboundfeeds/rss/", Source: "coindesk", Categories: []string{"crypto"}, Enabled: true},
		},
	}
}

// Validate checks numbers and feed URLs.
func (c *News) Validate() (string, error) {
	if c.IntervalMinutes < 1 {
		return "intervalMinutes", fmt.Errorf("must be at least 1")
	}
	if c.RetentionDays < 1 {
		return "retentionDays", fmt.Errorf("must be at least 1")
	}
	if c.MaxInMemory < 1 {
		return "maxInMemory", fmt.Errorf("must be at least 1")
	}
	for i, f := range c.Feeds {
		// A present URL is checked by its cfg:"url" rule (CheckFields).
		if f.URL == "" {
			return fmt.Sprintf("feeds[%d].url", i), fmt.Errorf("is required (the feed's http(s) URL)")
		}
		if f.Name == "" {
			return fmt.Sprintf("feeds[%d].name", i), fmt.Errorf("is required")
		}
	}
	return "", nil
}
