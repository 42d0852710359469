package news

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mmcdole/gofeed"

	"github.com/alice-trading/alice/config"
)

// ConfigSource yields news.json; *config.Store implements it and re-reads
// the file on every call.
type ConfigSource interface {
	News() (config.News, error)
}

// maxFeedBytes caps one feed download.
const maxFeedBytes = 8 << 20

// CollectorOptions are the optional dependencies of NewCollector.
type CollectorOptions struct {
	HTTPClient    *http.Client     // nil: 30 s timeout
	Logger        *slog.Logger     // nil: slog.Default()
	Now           func() time.Time // nil: time.Now
	FirstRunDelay time.Duration    // delay before the first fetch (default 5 s)
	CompactEvery  time.Duration    // retention compaction period (default 24 h)
}

// Collector fetches the configured feeds into an Archive on a timer.
type Collector struct {
	cfg     ConfigSource
	archive *Archive
	opts    CollectorOptions

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

// NewCollector builds a collector; call Start to run it.
func NewCollector(cfg ConfigSource, archive *Archive, opts CollectorOptions) *Collector {
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.FirstRunDelay <= 0 {
		opts.FirstRunDelay = 5 * time.Second
	}
	if opts.CompactEvery <= 0 {
		opts.CompactEvery = 24 * time.Hour
	}
	return &Collector{cfg: cfg, archive: archive, opts: opts}
}

// Stats summarises one collection cycle.
type Stats struct {
	Feeds  int     // enabled feeds attempted
	Items  int     // items parsed
	Added  int     // new items archived
	Errors []error // per-feed failures (the cycle continues past them)
}

// CollectOnce fetches every enabled feed once. A disabled collector or a
// broken news.json returns an error and fetches nothing.
func (c *Collector) CollectOnce(ctx context.Context) (Stats, error) {
	cfg, err := c.cfg.News()
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	if !cfg.Enabled {
		return st, nil
	}
	for _, f := range cfg.Feeds {
		if !f.Enabled {
			continue
		}
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		st.Feeds++
		items, err := c.fetch(ctx, f)
		if err != nil {
			st.Errors = append(st.Errors, fmt.Errorf("feed %s: %w", f.Name, err))
			c.opts.Logger.Warn("news: feed failed", "feed", f.Name, "url", f.URL, "err", err)
			continue
		}
		st.Items += len(items)
		n, err := c.archive.Add(items)
		st.Added += n
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

func (c *Collector) fetch(ctx context.Context, f config.Feed) ([]Item, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "alice-news/1.0 (+rss collector)")
	req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.8")
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	feed, err := gofeed.NewParser().Parse(io.LimitReader(resp.Body, maxFeedBytes))
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return convert(feed, f, c.opts.Now()), nil
}

// convert maps parsed feed items to archive items. Items without a date
// get fetchedAt so they still sort sensibly.
func convert(feed *gofeed.Feed, f config.Feed, fetchedAt time.Time) []Item {
	out := make([]Item, 0, len(feed.Items))
	for _, fi := range feed.Items {
		title := plainText(fi.Title)
		if title == "" {
			continue
		}
		content := fi.Content
		if strings.TrimSpace(content) == "" {
			content = fi.Description
		}
		t := fetchedAt
		if fi.PublishedParsed != nil {
			t = *fi.PublishedParsed
		} else if fi.UpdatedParsed != nil {
			t = *fi.UpdatedParsed
		}
		cats := append([]string(nil), f.Categories...)
		for _, fc := range fi.Categories {
			if fc = strings.TrimSpace(fc); fc != "" {
				cats = append(cats, fc)
			}
		}
		source := f.Source
		if source == "" {
			source = f.Name
		}
		out = append(out, Item{
			Time: t.UTC(), Title: title, Content: plainText(content), Link: strings.TrimSpace(fi.Link), GUID: strings.TrimSpace(fi.GUID),
			Metadata: Metadata{Source: source, Feed: f.Name, Categories: cats},
		})
	}
	return out
}

// Start runs the loop in a goroutine: compaction at once, the first
// collection after FirstRunDelay, then every intervalMinutes (re-read each
// cycle) and compaction every CompactEvery. It stops when ctx ends or
// Close is called. Starting twice is an error.
func (c *Collector) Start(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil {
		return errors.New("news collector already started")
	}
	ctx, c.cancel = context.WithCancel(ctx)
	c.done = make(chan struct{})
	go c.loop(ctx, c.done)
	return nil
}

// Close stops the loop and waits for it.
func (c *Collector) Close() error {
	c.mu.Lock()
	cancel, done := c.cancel, c.done
	c.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	return nil
}

func (c *Collector) compact() {
	days := config.DefaultNews().RetentionDays
	if cfg, err := c.cfg.News(); err == nil {
		days = cfg.RetentionDays
	}
	n, err := c.archive.Compact(time.Duration(days)*24*time.Hour, c.opts.Now())
	if err != nil {
		c.opts.Logger.Warn("news: compaction failed", "err", err)
		return
	}
	if n > 0 {
		c.opts.Logger.Info("news: dropped items past retention", "count", n, "retentionDays", days)
	}
}

func (c *Collector) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	c.compact()
	lastCompact := time.Now()
	timer := time.NewTimer(c.opts.FirstRunDelay)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		st, err := c.CollectOnce(ctx)
		if err != nil && ctx.Err() == nil {
			c.opts.Logger.Warn("news: collection failed", "err", err)
		} else if err == nil {
			c.opts.Logger.Debug("news: collected", "feeds", st.Feeds, "items", st.Items, "added", st.Added, "errors", len(st.Errors))
		}
		if time.Since(lastCompact) >= c.opts.CompactEvery {
			c.compact()
			lastCompact = time.Now()
		}
		interval := time.Duration(config.DefaultNews().IntervalMinutes) * time.Minute
		if cfg, err := c.cfg.News(); err == nil && cfg.IntervalMinutes > 0 {
			interval = time.Duration(cfg.IntervalMinutes) * time.Minute
		}
		timer.Reset(interval)
	}
}
