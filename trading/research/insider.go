package research

import (
	"context"
	"encoding/xml"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/alice-trading/alice/core/httpjson"
)

// form4 is the part of an SEC ownership document (Form 4) that is used.
type form4 struct {
	XMLName xml.Name `xml:"ownershipDocument"`
	Issuer  struct {
		Symbol string `xml:"issuerTradingSymbol"`
		Name   string `xml:"issuerName"`
	} `xml:"issuer"`
	Owners []struct {
		Name         string `xml:"reportingOwnerId>rptOwnerName"`
		Relationship struct {
			Director     string `xml:"isDirector"`
			Officer      string `xml:"isOfficer"`
			TenPercent   string `xml:"isTenPercentOwner"`
			OfficerTitle string `xml:"officerTitle"`
		} `xml:"reportingOwnerRelationship"`
	} `xml:"reportingOwner"`
	NonDerivative []form4Txn `xml:"nonDerivativeTable>nonDerivativeTransaction"`
}

type form4Txn struct {
	Security    string `xml:"securityTitle>value"`
	Date        string `xml:"transactionDate>value"`
	Code        string `xml:"transactionCoding>transactionCode"`
	Shares      string `xml:"transactionAmounts>transactionShares>value"`
	Price       string `xml:"transactionAmounts>transactionPricePerShare>value"`
	AcqDisp     string `xml:"transactionAmounts>transactionAcquiredDisposedCode>value"`
	SharesAfter string `xml:"postTransactionAmounts>sharesOwnedFollowingTransaction>value"`
	Ownership   string `xml:"ownershipNature>directOrIndirectOwnership>value"`
}

// transactionCodes explains the Form 4 codes that matter to investors.
var transactionCodes = map[string]string{
	"P": "open-market purchase", "S": "open-market sale", "A": "grant or award", "M": "option exercise",
	"F": "tax withholding", "G": "gift", "D": "disposition to issuer", "C": "conversion",
	"X": "option exercise (in the money)", "J": "other",
}

// InsiderTrade is one non-derivative Form 4 transaction.
type InsiderTrade struct {
	Filed           string           `json:"filed"`
	TransactionDate string           `json:"transactionDate"`
	Owner           string           `json:"owner"`
	Relationship    string           `json:"relationship"`
	Code            string           `json:"transactionCode"`
	Type            string           `json:"transactionType"`
	AcquiredOrSold  string           `json:"acquiredDisposed"` // A or D
	Shares          decimal.Decimal  `json:"shares"`
	Price           *decimal.Decimal `json:"price,omitempty"`
	Value           *decimal.Decimal `json:"value,omitempty"`
	SharesAfter     *decimal.Decimal `json:"sharesOwnedAfter,omitempty"`
	Ownership       string           `json:"ownership"` // D direct, I indirect
	Security        string           `json:"security"`
	URL             string           `json:"url"`
}

// InsiderTrades is equityGetInsiderTrading's answer.
type InsiderTrades struct {
	Symbol string         `json:"symbol"`
	CIK    string         `json:"cik"`
	Name   string         `json:"name"`
	Source string         `json:"source"`
	Trades []InsiderTrade `json:"trades"`
}

// maxForm4Documents bounds how many filings one call reads (each is a
// request against SEC's 10/s budget).
const maxForm4Documents = 40

// InsiderTrading reads the issuer's most recent Form 4 filings and lists
// their non-derivative transactions, newest first, up to limit.
func (s *Service) InsiderTrading(ctx context.Context, symbol string, limit int) (InsiderTrades, error) {
	if limit <= 0 {
		limit = 20
	}
	c, err := s.lookupCompany(ctx, symbol)
	if err != nil {
		return InsiderTrades{}, err
	}
	sub, err := s.submissions(ctx, c)
	if err != nil {
		return InsiderTrades{}, err
	}
	if c.Name == "" {
		c.Name = sub.Name
	}
	out := InsiderTrades{Symbol: c.Ticker, CIK: c.CIK, Name: c.Name, Source: "SEC EDGAR Form 4 filings", Trades: []InsiderTrade{}}
	r := sub.Filings.Recent
	cikNum, _ := strconv.ParseUint(c.CIK, 10, 64)
	read := 0
	for i := 0; i < len(r.Form) && len(out.Trades) < limit && read < maxForm4Documents; i++ {
		if r.Form[i] != "4" || i >= len(r.AccessionNumber) || i >= len(r.PrimaryDocument) || i >= len(r.FilingDate) {
			continue
		}
		// primaryDocument points at the XSL-rendered view
		// ("xslF345X05/form4.xml"); the raw XML is the same file name
		// at the filing's root.
		doc := path.Base(r.PrimaryDocument[i])
		p := fmt.Sprintf("/Archives/edgar/data/%d/%s/%s", cikNum, strings.ReplaceAll(r.AccessionNumber[i], "-", ""), doc)
		read++
		resp, err := s.secArchives.Do(ctx, httpjson.Request{Path: p})
		if err != nil {
			return out, fmt.Errorf("reading Form 4 %s: %w", r.AccessionNumber[i], err)
		}
		var f form4
		if err := xml.Unmarshal(resp.Body, &f); err != nil {
			continue // not an ownership document (e.g. a paper filing)
		}
		owner, rel := "", ""
		if len(f.Owners) > 0 {
			owner, rel = f.Owners[0].Name, relationship(f.Owners[0].Relationship.Director, f.Owners[0].Relationship.Officer, f.Owners[0].Relationship.TenPercent, f.Owners[0].Relationship.OfficerTitle)
		}
		link, _ := s.secArchives.URL(p, nil) // p was just requested, so it is a valid path
		for _, t := range f.NonDerivative {
			if len(out.Trades) >= limit {
				break
			}
			out.Trades = append(out.Trades, toTrade(t, r.FilingDate[i], owner, rel, r.AccessionNumber[i], link))
		}
	}
	return out, nil
}

func toTrade(t form4Txn, filed, owner, rel, accn, url string) InsiderTrade {
	tr := InsiderTrade{Filed: filed, TransactionDate: t.Date, Owner: owner, Relationship: rel, Code: t.Code,
		Type: transactionCodes[t.Code], AcquiredOrSold: t.AcqDisp, Ownership: t.Ownership, Security: t.Security, URL: url}
	if tr.Type == "" {
		tr.Type = "code " + t.Code
	}
	if v, err := decimal.NewFromString(strings.TrimSpace(t.Shares)); err == nil {
		tr.Shares = v
	}
	if v, err := decimal.NewFromString(strings.TrimSpace(t.Price)); err == nil {
		tr.Price = &v
		val := v.Mul(tr.Shares).Round(2)
		tr.Value = &val
	}
	if v, err := decimal.NewFromString(strings.TrimSpace(t.SharesAfter)); err == nil {
		tr.SharesAfter = &v
	}
	return tr
}

func relationship(director, officer, tenPct, title string) string {
	yes := func(s string) bool { s = strings.TrimSpace(s); return s == "1" || strings.EqualFold(s, "true") }
	var parts []string
	if yes(officer) {
		if title != "" {
			parts = append(parts, title)
		} else {
			parts = append(parts, "Officer")
		}
	}
	if yes(director) {
		parts = append(parts, "Director")
	}
	if yes(tenPct) {
		parts = append(parts, "10% owner")
	}
	if len(parts) == 0 {
		return "Other"
	}
	return strings.Join(parts, ", ")
}
