package news

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core"
)

var quiet = slog.New(slog.DiscardHandler)

var now = time.Date(2025, 1, 30, 0, 0, 0, 0, time.UTC)

func clock() time.Time { return now }

// fixedConfig is a ConfigSource returning a fixed news.json.
type fixedConfig struct {
	mu  sync.Mutex
	cfg config.News
}

func (f *fixedConfig) News() (config.News, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cfg, nil
}

// feedServer serves the recorded feeds from testdata/ and counts hits.
func feedServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		name := map[string]string{"/fed.xml": "fed_press.rss.xml", "/crypto.xml": "crypto_markets.atom.xml"}[r.URL.Path]
		if name == "" {
			http.NotFound(w, r)
			return
		}
		body, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Errorf("fixture: %v", err)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func newsConfig(base string) config.News {
	c := config.DefaultNews()
	c.Feeds = []config.Feed{
		{Name: "Fed", URL: base + "/fed.xml", Source: "federalreserve", Categories: []string{"macro"}, Enabled: true},
		{Name: "Crypto", URL: base + "/crypto.xml", Source: "cryptodesk", Categories: []string{"crypto"}, Enabled: true},
		{Name: "Broken", URL: base + "/missing.xml", Source: "x", Enabled: true},
		{Name: "Off", URL: base + "/fed.xml", Source: "off", Enabled: false},
	}
	return c
}

func openArchive(t *testing.T, max int) *Archive {
	t.Helper()
	a, err := OpenArchive(filepath.Join(t.TempDir(), "news", "archive.jsonl"), max, quiet)
	require.NoError(t, err)
	return a
}

func TestCollectParsesRSSAndAtomAndDedups(t *testing.T) {
	srv, hits := feedServer(t)
	a := openArchive(t, 100)
	c := NewCollector(&fixedConfig{cfg: newsConfig(srv.URL)}, a, CollectorOptions{Now: clock, Logger: quiet})

	st, err := c.CollectOnce(context.Background())
	require.NoError(t, err)
	require.Equal(t, 3, st.Feeds, "disabled feed skipped")
	require.Equal(t, 5, st.Items)
	require.Equal(t, 5, st.Added)
	require.Len(t, st.Errors, 1)
	require.ErrorContains(t, st.Errors[0], "feed Broken: HTTP 404")
	require.EqualValues(t, 3, hits.Load())

	items := a.Recent(time.Time{}, 0)
	require.Len(t, items, 5)
	top := items[0]
	require.Equal(t, "Bitcoin climbs back above $104,000 after Fed holds rates", top.Title)
	require.Equal(t, time.Date(2025, 1, 29, 20, 15, 0, 0, time.UTC), top.Time)
	require.Equal(t, "Bitcoin (BTC) rallied 2% in the hour after the FOMC decision, as traders bet the Federal Reserve would cut later this year.", top.Content, "HTML stripped, content preferred over summary")
	require.Equal(t, Metadata{Source: "cryptodesk", Feed: "Crypto", Categories: []string{"crypto", "Markets"}}, top.Metadata)
	fed := items[1]
	require.Equal(t, "Federal Reserve issues FOMC statement", fed.Title)
	require.Contains(t, fed.Content, "maintain the target range")
	require.NotContains(t, fed.Content, "<p>")
	require.Equal(t, "Federal Reserve Board announces approval of application by First Bank & Trust", items[2].Title)
	require.Equal(t, time.Date(2025, 1, 28, 9, 0, 0, 0, time.UTC), items[3].Time, "atom entry without published uses updated")

	st, err = c.CollectOnce(context.Background())
	require.NoError(t, err)
	require.Equal(t, 0, st.Added, "second fetch adds nothing")

	// The archive survives a restart and dedups against the file.
	b, err := OpenArchive(a.Path(), 100, quiet)
	require.NoError(t, err)
	require.Equal(t, 5, b.Len())
	n, err := b.Add(items[:2])
	require.NoError(t, err)
	require.Zero(t, n)
	lines := readLines(t, a.Path())
	require.Len(t, lines, 5)
	var it Item
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &it))
	require.NotEmpty(t, it.Metadata.Source)
}

func TestCollectDisabledDoesNothing(t *testing.T) {
	srv, hits := feedServer(t)
	cfg := newsConfig(srv.URL)
	cfg.Enabled = false
	a := openArchive(t, 10)
	st, err := NewCollector(&fixedConfig{cfg: cfg}, a, CollectorOptions{Logger: quiet}).CollectOnce(context.Background())
	require.NoError(t, err)
	require.Zero(t, st.Feeds)
	require.Zero(t, hits.Load())
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func item(title string, age time.Duration, src string) Item {
	return Item{Time: now.Add(-age), Title: title, Content: "body of " + title, Link: "https://x/" + strings.ReplaceAll(title, " ", "-"),
		Metadata: Metadata{Source: src, Feed: src + " feed", Categories: []string{"markets"}}}
}

func TestRetentionCompactionAndTornTail(t *testing.T) {
	a := openArchive(t, 100)
	_, err := a.Add([]Item{item("old one", 10*24*time.Hour, "a"), item("fresh", time.Hour, "a"), item("mid", 3*24*time.Hour, "b")})
	require.NoError(t, err)

	// Simulate a crash mid-write: a torn final line.
	f, err := os.OpenFile(a.Path(), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"time":"2025-01-29T00:00:00Z","title":"torn`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	b, err := OpenArchive(a.Path(), 100, quiet)
	require.NoError(t, err)
	require.Equal(t, 3, b.Len(), "torn line skipped")
	_, err = b.Add([]Item{item("after crash", 0, "c")})
	require.NoError(t, err)
	c, err := OpenArchive(a.Path(), 100, quiet)
	require.NoError(t, err)
	require.Equal(t, 4, c.Len(), "append after a torn tail starts on a fresh line")

	dropped, err := c.Compact(7*24*time.Hour, now)
	require.NoError(t, err)
	require.Equal(t, 1, dropped)
	lines := readLines(t, c.Path())
	require.Len(t, lines, 3, "old item and torn line are gone from disk")
	for _, l := range lines {
		require.NotContains(t, l, "old one")
	}
	require.Equal(t, 3, c.Len())
}

func TestMaxInMemoryKeepsNewest(t *testing.T) {
	a := openArchive(t, 3)
	for i := range 6 {
		_, err := a.Add([]Item{item("n"+string(rune('a'+i)), time.Duration(10-i)*time.Hour, "s")})
		require.NoError(t, err)
	}
	got := a.Recent(time.Time{}, 0)
	require.Len(t, got, 3)
	require.Equal(t, "nf", got[0].Title)
	require.Equal(t, "nd", got[2].Title)
	require.Len(t, readLines(t, a.Path()), 6, "the file keeps everything")
}

func TestConcurrentAdds(t *testing.T) {
	a := openArchive(t, 1000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				_, err := a.Add([]Item{item("g"+string(rune('a'+g))+" "+strings.Repeat("x", i), time.Duration(i)*time.Minute, "s")})
				require.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	lines := readLines(t, a.Path())
	require.Len(t, lines, 100)
	for _, l := range lines {
		require.True(t, json.Valid([]byte(l)), l)
	}
}

func TestParseLookback(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "1h": time.Hour, "12h": 12 * time.Hour, "1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "30m": 30 * time.Minute, "2W": 14 * 24 * time.Hour} {
		got, err := ParseLookback(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"1", "h", "0d", "-1d", "1y", "1.5h", "abc"} {
		_, err := ParseLookback(bad)
		require.ErrorContains(t, err, "invalid lookback", bad)
	}
}

func TestStartCollectsAndStops(t *testing.T) {
	srv, _ := feedServer(t)
	a := openArchive(t, 100)
	_, err := a.Add([]Item{item("ancient", 30*24*time.Hour, "z")})
	require.NoError(t, err)
	c := NewCollector(&fixedConfig{cfg: newsConfig(srv.URL)}, a, CollectorOptions{FirstRunDelay: time.Millisecond, Now: clock, Logger: quiet})
	require.NoError(t, c.Start(context.Background()))
	require.Error(t, c.Start(context.Background()), "double start")
	require.Eventually(t, func() bool { return a.Len() == 5 }, 30*time.Second, 10*time.Millisecond,
		"ancient item compacted away on start and feeds collected")
	require.NoError(t, c.Close())
	require.NoError(t, c.Close(), "Close is idempotent")
}

type reg struct{ tools map[string]core.Tool }

func (r *reg) Register(ts ...core.Tool) {
	for _, t := range ts {
		r.tools[t.Name] = t
	}
}

func toolsOver(t *testing.T, items ...Item) func(name, args string) (any, error) {
	a := openArchive(t, 1000)
	_, err := a.Add(items)
	require.NoError(t, err)
	r := &reg{tools: map[string]core.Tool{}}
	RegisterTools(r, NewSearcher(a, clock))
	return func(name, args string) (any, error) {
		tool, ok := r.tools[name]
		require.True(t, ok, name)
		return tool.Invoke(context.Background(), json.RawMessage(args))
	}
}

func TestGlobGrepRead(t *testing.T) {
	call := toolsOver(t,
		item("Fed holds rates steady", 2*time.Hour, "fed"),
		item("Bitcoin rallies after FED decision", 30*time.Minute, "coindesk"),
		item("Oil slips on supply", 3*24*time.Hour, "wsj"),
		Item{Time: now.Add(-5 * time.Hour), Title: "Earnings wrap", Content: strings.Repeat("a", 100) + " Nvidia beat estimates " + strings.Repeat("b", 100),
			Link: "https://x/e", Metadata: Metadata{Source: "cnbc", Feed: "CNBC", Categories: []string{"earnings"}}},
	)

	res, err := call("globNews", `{"pattern":"fed"}`)
	require.NoError(t, err)
	hits := res.([]GlobHit)
	require.Len(t, hits, 2, "case-insensitive")
	require.Equal(t, 0, hits[0].Index, "newest first")
	require.Equal(t, "Bitcoin rallies after FED decision", hits[0].Title)
	require.Equal(t, 1, hits[1].Index)
	require.LessOrEqual(t, len(hits[0].Metadata), 40+len("…"))

	res, err = call("globNews", `{"pattern":".","lookback":"1h"}`)
	require.NoError(t, err)
	require.Len(t, res.([]GlobHit), 1)

	res, err = call("globNews", `{"pattern":".","metadataFilter":{"source":"WSJ"}}`)
	require.NoError(t, err)
	require.Equal(t, "Oil slips on supply", res.([]GlobHit)[0].Title)
	require.Equal(t, 3, res.([]GlobHit)[0].Index)

	res, err = call("globNews", `{"pattern":".","metadataFilter":{"category":"earnings"},"limit":5}`)
	require.NoError(t, err)
	require.Len(t, res.([]GlobHit), 1)

	res, err = call("globNews", `{"pattern":".","limit":2}`)
	require.NoError(t, err)
	require.Len(t, res.([]GlobHit), 2)

	res, err = call("grepNews", `{"pattern":"nvidia","contextChars":5}`)
	require.NoError(t, err)
	g := res.([]GrepHit)
	require.Len(t, g, 1)
	require.Equal(t, "...aaaa Nvidia beat...", g[0].MatchedText)
	require.Equal(t, 2, g[0].Index)
	require.Equal(t, 223, g[0].ContentLength)

	res, err = call("grepNews", `{"pattern":"^oil"}`)
	require.NoError(t, err)
	require.Equal(t, "Oil slips on supply body of Oil slips on supply", res.([]GrepHit)[0].MatchedText, "whole text fits in the context: no ellipsis")

	res, err = call("readNews", `{"index":2}`)
	require.NoError(t, err)
	require.Equal(t, "Earnings wrap", res.(Item).Title)
	res, err = call("readNews", `{"index":0,"lookback":"1h"}`)
	require.NoError(t, err)
	require.Equal(t, "Bitcoin rallies after FED decision", res.(Item).Title)

	for args, msg := range map[string][2]string{
		`{"pattern":"("}`:                                  {"globNews", "invalid pattern"},
		`{"pattern":""}`:                                   {"globNews", "pattern is required"},
		`{"pattern":"x","lookback":"forever"}`:             {"globNews", "invalid lookback"},
		`{"pattern":"x","metadataFilter":{"author":"me"}}`: {"globNews", "unknown metadataFilter key"},
		`{"pattern":"x","contextChars":-1}`:                {"grepNews", "contextChars"},
		`{"pattern":"[z"}`:                                 {"grepNews", "invalid pattern"},
		`{"index":4}`:                                      {"readNews", "out of range"},
		`{"index":-1}`:                                     {"readNews", "out of range"},
		`{}`:                                               {"readNews", "index is required"},
		`{"index":"1"}`:                                    {"readNews", "must be int"},
	} {
		_, err := call(msg[0], args)
		require.ErrorContains(t, err, msg[1], msg[0]+" "+args)
	}
}

func TestExcerptIsRuneSafe(t *testing.T) {
	text := "ééé MATCH ééé"
	start := strings.Index(text, "MATCH")
	require.Equal(t, "...é MATCH é...", excerpt(text, start, start+5, 2))
	require.Equal(t, text, excerpt(text, start, start+5, 50))
}
