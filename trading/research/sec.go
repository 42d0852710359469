package research

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// SEC EDGAR endpoints (https://www.sec.gov/search-filings/edgar-application-programming-interfaces):
// the ticker map lives on www.sec.gov, company facts and submissions on
// data.sec.gov. Both ask for at most 10 requests a second and a
// User-Agent that names a contact.
const (
	secDataBase     = "https://data.sec.gov"
	secArchivesBase = "https://www.sec.gov"
)

// companyTickers is files/company_tickers.json: {"0": {...}, "1": {...}}.
type companyTickers map[string]struct {
	CIK    json.Number `json:"cik_str"`
	Ticker string      `json:"ticker"`
	Title  string      `json:"title"`
}

// Company is an SEC registrant.
type Company struct {
	CIK    string `json:"cik"` // ten digits, zero padded
	Ticker string `json:"ticker"`
	Name   string `json:"name"`
}

// lookupCompany resolves a ticker (or a bare CIK) to the registrant.
func (s *Service) lookupCompany(ctx context.Context, symbol string) (Company, error) {
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	if sym == "" {
		return Company{}, fmt.Errorf("symbol is required")
	}
	if n, err := strconv.ParseUint(sym, 10, 64); err == nil {
		return Company{CIK: fmt.Sprintf("%010d", n), Ticker: sym}, nil
	}
	var m companyTickers
	if err := s.secArchives.Get(ctx, "/files/company_tickers.json", nil, &m); err != nil {
		return Company{}, err
	}
	// Class shares are written BRK-B by the SEC and BRK.B by most brokers.
	alt := strings.ReplaceAll(sym, ".", "-")
	for _, c := range m {
		if t := strings.ToUpper(c.Ticker); t == sym || t == alt {
			n, err := strconv.ParseUint(c.CIK.String(), 10, 64)
			if err != nil {
				return Company{}, fmt.Errorf("SEC: bad CIK %q for %s", c.CIK, sym)
			}
			return Company{CIK: fmt.Sprintf("%010d", n), Ticker: strings.ToUpper(c.Ticker), Name: c.Title}, nil
		}
	}
	return Company{}, fmt.Errorf("SEC EDGAR knows no US registrant with ticker %q (funds, ADRs without filings and non-US listings are not covered)", sym)
}

// companyFacts is api/xbrl/companyfacts/CIK##########.json.
type companyFacts struct {
	CIK        json.Number                        `json:"cik"`
	EntityName string                             `json:"entityName"`
	Facts      map[string]map[string]conceptFacts `json:"facts"` // taxonomy → concept
}

type conceptFacts struct {
	Label       string              `json:"label"`
	Description string              `json:"description"`
	Units       map[string][]factAt `json:"units"`
}

// factAt is one reported value.
type factAt struct {
	Start string      `json:"start,omitempty"`
	End   string      `json:"end"`
	Val   json.Number `json:"val"`
	Accn  string      `json:"accn"`
	FY    json.Number `json:"fy"`
	FP    string      `json:"fp"`
	Form  string      `json:"form"`
	Filed string      `json:"filed"`
	Frame string      `json:"frame,omitempty"`
}

func (s *Service) companyFacts(ctx context.Context, c Company) (companyFacts, error) {
	var cf companyFacts
	err := s.secData.Get(ctx, "/api/xbrl/companyfacts/CIK"+c.CIK+".json", nil, &cf)
	return cf, err
}

// submissions is submissions/CIK##########.json (only the parts used).
type submissions struct {
	Name    string   `json:"name"`
	Tickers []string `json:"tickers"`
	Filings struct {
		Recent struct {
			AccessionNumber []string `json:"accessionNumber"`
			FilingDate      []string `json:"filingDate"`
			Form            []string `json:"form"`
			PrimaryDocument []string `json:"primaryDocument"`
		} `json:"recent"`
	} `json:"filings"`
}

func (s *Service) submissions(ctx context.Context, c Company) (submissions, error) {
	var sub submissions
	err := s.secData.Get(ctx, "/submissions/CIK"+c.CIK+".json", nil, &sub)
	return sub, err
}
