package research

import (
	"net/http"
	"time"

	"github.com/alice-trading/alice/config"
)

// Options are test seams.
type Options struct {
	Client *http.Client
	Now    func() time.Time
}

// Service answers the research tools from the configured sources.
type Service struct {
	cfg config.Research
	f   *fetcher
	now func() time.Time

	secData, secArchives, fred, bls, eiaSrc, nasdaq, yahoo *source
}

// New builds the service. Request rates stay below each source's
// published limit: SEC 10/s, FRED 120/min, BLS and EIA a few per second,
// Nasdaq and Yahoo (unofficial endpoints) gently.
func New(cfg config.Research, o Options) (*Service, error) {
	ttl := time.Duration(0)
	if cfg.CacheTTL != "" && cfg.CacheTTL != "0" && cfg.CacheTTL != "0s" {
		d, err := config.ParseEvery(cfg.CacheTTL)
		if err != nil {
			return nil, err
		}
		ttl = d
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{cfg: cfg, f: newFetcher(o.Client, ttl), now: o.Now}
	s.f.now = o.Now
	secHeaders := http.Header{"User-Agent": {cfg.UserAgent}}
	browser := http.Header{"User-Agent": {"Mozilla/5.0 (alice research)"}}
	var err error
	for _, b := range []struct {
		dst      **source
		name     string
		cfg      config.ResearchSource
		fallback string
		rate     float64
		headers  http.Header
	}{
		{&s.secData, "SEC EDGAR", cfg.SEC, secDataBase, 8, secHeaders},
		{&s.secArchives, "SEC EDGAR", cfg.SECArchives, secArchivesBase, 8, secHeaders},
		{&s.fred, "FRED", cfg.FRED, fredBase, 2, nil},
		{&s.bls, "BLS", cfg.BLS, blsBase, 2, nil},
		{&s.eiaSrc, "EIA", cfg.EIA, eiaBase, 4, nil},
		{&s.nasdaq, "Nasdaq", cfg.Nasdaq, nasdaqBase, 2, browser},
		{&s.yahoo, "Yahoo Finance", cfg.Yahoo, yahooBase, 2, browser},
	} {
		if *b.dst, err = newSource(b.name, b.cfg.BaseURL, b.fallback, b.rate, b.headers); err != nil {
			return nil, err
		}
	}
	return s, nil
}
