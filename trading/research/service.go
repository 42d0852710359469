package research

import (
	"net/http"
	"time"

	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/httpjson"
	"github.com/alice-trading/alice/trading/yahoo"
)

// Options are test seams and shared clients.
type Options struct {
	Client *http.Client
	Now    func() time.Time
	// Retries for transient failures of GET requests (0: 2; negative: none).
	Retries int
	// Yahoo, when set, is the shared Yahoo client (so research and market
	// data keep one cache and one rate limit); nil builds one from
	// research.json's yahoo.baseUrl.
	Yahoo *yahoo.Client
}

// Service answers the research tools from the configured sources.
type Service struct {
	cfg config.Research
	now func() time.Time

	secData, secArchives, fred, bls, eiaSrc, nasdaq *httpjson.Client
	yahoo                                           *yahoo.Client
}

// maxBody caps a response; SEC company facts for large filers are ~10 MB.
const maxBody = 32 << 20

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
	switch {
	case o.Retries == 0:
		o.Retries = 2
	case o.Retries < 0:
		o.Retries = 0
	}
	s := &Service{cfg: cfg, now: o.Now}
	secHeaders := http.Header{"User-Agent": {cfg.UserAgent}}
	browser := http.Header{"User-Agent": {"Mozilla/5.0 (alice research)"}}
	var err error
	for _, b := range []struct {
		dst      **httpjson.Client
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
	} {
		base := b.cfg.BaseURL
		if base == "" {
			base = b.fallback
		}
		*b.dst, err = httpjson.New(httpjson.Options{Name: b.name, BaseURL: base, HTTP: o.Client, Headers: b.headers,
			PerSecond: b.rate, CacheTTL: ttl, Retries: o.Retries, MaxBody: maxBody, Now: o.Now})
		if err != nil {
			return nil, err
		}
	}
	s.yahoo = o.Yahoo
	if s.yahoo == nil {
		yttl := ttl
		if yttl == 0 {
			yttl = -1
		}
		retries := o.Retries
		if retries == 0 {
			retries = -1
		}
		s.yahoo, err = yahoo.New(yahoo.Options{BaseURL: cfg.Yahoo.BaseURL, HTTP: o.Client, CacheTTL: yttl, Retries: retries, Now: o.Now})
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}
