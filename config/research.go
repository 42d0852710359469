package config

import (
	"os"
	"strings"
)

// ResearchFile is research.json: the public data sources behind the
// fundamentals (SEC EDGAR), calendar, discovery and macro (FRED, BLS, EIA)
// research tools.
const ResearchFile = "research.json"

// ResearchSource is one HTTP data source. Keys are best given as the name
// of an environment variable (APIKeyEnv) so they stay out of the file.
type ResearchSource struct {
	// BaseURL overrides the source's public endpoint (tests, proxies).
	BaseURL   string `json:"baseUrl,omitempty" cfg:"baseurl"`
	APIKey    string `json:"apiKey,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty" cfg:"env"`
}

// Key returns the configured key: the literal one, else the variable's.
func (s ResearchSource) Key() string {
	if s.APIKey != "" {
		return s.APIKey
	}
	if s.APIKeyEnv != "" {
		return strings.TrimSpace(os.Getenv(s.APIKeyEnv))
	}
	return ""
}

// Research configures the research data sources.
type Research struct {
	// Enabled registers the research tools (they still answer with a clear
	// error when a source needs a key that is missing).
	Enabled bool `json:"enabled"`
	// UserAgent is sent to SEC EDGAR, whose fair-access policy requires a
	// contact ("Name email@example.com").
	UserAgent string `json:"userAgent"`
	// CacheTTL keeps answers for this long ("15m"); "0s" disables caching.
	CacheTTL string `json:"cacheTtl"`
	// SEC covers data.sec.gov (company facts, submissions) and www.sec.gov
	// (ticker map, Form 4 documents): Archives is the latter.
	SEC         ResearchSource `json:"sec"`
	SECArchives ResearchSource `json:"secArchives"`
	FRED        ResearchSource `json:"fred"`
	BLS         ResearchSource `json:"bls"`
	EIA         ResearchSource `json:"eia"`
	// Nasdaq serves the earnings calendar; Yahoo the gainers/losers screens.
	Nasdaq ResearchSource `json:"nasdaq"`
	Yahoo  ResearchSource `json:"yahoo"`
}

// DefaultResearch enables the tools with keys read from the conventional
// environment variables.
func DefaultResearch() Research {
	return Research{
		Enabled:   true,
		UserAgent: "alice-research contact@example.com",
		CacheTTL:  "15m",
		FRED:      ResearchSource{APIKeyEnv: "FRED_API_KEY"},
		BLS:       ResearchSource{APIKeyEnv: "BLS_API_KEY"},
		EIA:       ResearchSource{APIKeyEnv: "EIA_API_KEY"},
	}
}

// Validate checks the cache interval. Every source's baseUrl and
// apiKeyEnv are checked by their cfg rules (CheckFields).
func (c *Research) Validate() (string, error) {
	if c.CacheTTL != "" && c.CacheTTL != "0s" && c.CacheTTL != "0" {
		if _, err := ParseEvery(c.CacheTTL); err != nil {
			return "cacheTtl", err
		}
	}
	return "", nil
}
