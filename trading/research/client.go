// Package research answers the fundamentals, calendar, discovery and macro
// research tools (equityGetFinancials … economyPetroleumStatus) from free
// public sources: SEC EDGAR (company facts, Form 4), Nasdaq's earnings
// calendar, Yahoo's predefined screens, FRED, BLS and EIA.
//
// Every source is one core/httpjson client that caches answers for a while
// and spaces requests to stay inside the source's published rate limit, so
// an agent looping over tickers cannot get alice's address blocked; Yahoo
// goes through the shared trading/yahoo client.
package research

import "fmt"

// MissingKeyError says which key a source needs and where to put it.
type MissingKeyError struct {
	Source string // "FRED", "EIA"
	Env    string // the environment variable the config names
	Key    string // the research.json key, e.g. "fred.apiKey"
}

func (e *MissingKeyError) Error() string {
	where := fmt.Sprintf("research.json %q", e.Key)
	if e.Env != "" {
		where = fmt.Sprintf("the %s environment variable or %s", e.Env, where)
	}
	return fmt.Sprintf("%s API key missing: set %s (free key from the %s website)", e.Source, where, e.Source)
}
