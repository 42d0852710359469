package research

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"
)

// StatementType is equityGetFinancials' `type`.
type StatementType string

const (
	Income  StatementType = "income"
	Balance StatementType = "balance"
	Cash    StatementType = "cash"
)

// lineItem maps an output field to XBRL concepts, most specific first.
type lineItem struct {
	Field    string
	Unit     string
	Kind     conceptKind
	Concepts []string
}

var statementItems = map[StatementType][]lineItem{
	Income: {
		{"revenue", "USD", flow, []string{"Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet", "RevenueFromContractWithCustomerIncludingAssessedTax"}},
		{"costOfRevenue", "USD", flow, []string{"CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold"}},
		{"grossProfit", "USD", flow, []string{"GrossProfit"}},
		{"researchAndDevelopment", "USD", flow, []string{"ResearchAndDevelopmentExpense"}},
		{"sellingGeneralAdministrative", "USD", flow, []string{"SellingGeneralAndAdministrativeExpense"}},
		{"operatingExpenses", "USD", flow, []string{"OperatingExpenses", "CostsAndExpenses"}},
		{"operatingIncome", "USD", flow, []string{"OperatingIncomeLoss"}},
		{"incomeTaxExpense", "USD", flow, []string{"IncomeTaxExpenseBenefit"}},
		{"netIncome", "USD", flow, []string{"NetIncomeLoss", "ProfitLoss"}},
		{"epsBasic", "USD/shares", flow, []string{"EarningsPerShareBasic"}},
		{"epsDiluted", "USD/shares", flow, []string{"EarningsPerShareDiluted"}},
		{"weightedAverageSharesDiluted", "shares", flow, []string{"WeightedAverageNumberOfDilutedSharesOutstanding"}},
	},
	Balance: {
		{"totalAssets", "USD", instant, []string{"Assets"}},
		{"currentAssets", "USD", instant, []string{"AssetsCurrent"}},
		{"cashAndEquivalents", "USD", instant, []string{"CashAndCashEquivalentsAtCarryingValue", "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents"}},
		{"inventory", "USD", instant, []string{"InventoryNet"}},
		{"totalLiabilities", "USD", instant, []string{"Liabilities"}},
		{"currentLiabilities", "USD", instant, []string{"LiabilitiesCurrent"}},
		{"longTermDebt", "USD", instant, []string{"LongTermDebtNoncurrent", "LongTermDebt"}},
		{"totalEquity", "USD", instant, []string{"StockholdersEquity", "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"}},
		{"retainedEarnings", "USD", instant, []string{"RetainedEarningsAccumulatedDeficit"}},
	},
	Cash: {
		{"operatingCashFlow", "USD", flow, []string{"NetCashProvidedByUsedInOperatingActivities"}},
		{"investingCashFlow", "USD", flow, []string{"NetCashProvidedByUsedInInvestingActivities"}},
		{"financingCashFlow", "USD", flow, []string{"NetCashProvidedByUsedInFinancingActivities"}},
		{"capitalExpenditure", "USD", flow, []string{"PaymentsToAcquirePropertyPlantAndEquipment"}},
		{"dividendsPaid", "USD", flow, []string{"PaymentsOfDividends", "PaymentsOfDividendsCommonStock"}},
		{"shareRepurchases", "USD", flow, []string{"PaymentsForRepurchaseOfCommonStock"}},
	},
}

// anchors pick the periods a statement lists: the first that has data.
var anchors = map[StatementType][]string{Income: {"revenue", "netIncome"}, Balance: {"totalAssets"}, Cash: {"operatingCashFlow"}}

// StatementPeriod is one column of a statement.
type StatementPeriod struct {
	PeriodEnd    string                     `json:"periodEnd"`
	PeriodStart  string                     `json:"periodStart,omitempty"`
	FiscalYear   string                     `json:"fiscalYear"`
	FiscalPeriod string                     `json:"fiscalPeriod"`
	Form         string                     `json:"form"`
	Filed        string                     `json:"filed"`
	Values       map[string]decimal.Decimal `json:"values"`
	// Derived lists fields computed from year-to-date figures.
	Derived []string `json:"derived,omitempty"`
}

// Statement is equityGetFinancials' answer.
type Statement struct {
	Symbol   string            `json:"symbol"`
	CIK      string            `json:"cik"`
	Name     string            `json:"name"`
	Type     StatementType     `json:"type"`
	Period   Period            `json:"period"`
	Currency string            `json:"currency"`
	Source   string            `json:"source"`
	Concepts map[string]string `json:"concepts"` // field → XBRL concept used
	Periods  []StatementPeriod `json:"periods"`
}

// Financials builds an income, balance or cash-flow statement from the
// company's XBRL facts.
func (s *Service) Financials(ctx context.Context, symbol string, typ StatementType, p Period, limit int) (Statement, error) {
	items, ok := statementItems[typ]
	if !ok {
		return Statement{}, fmt.Errorf("type must be income, balance or cash, got %q", typ)
	}
	c, err := s.lookupCompany(ctx, symbol)
	if err != nil {
		return Statement{}, err
	}
	cf, err := s.companyFacts(ctx, c)
	if err != nil {
		return Statement{}, err
	}
	if c.Name == "" {
		c.Name = cf.EntityName
	}
	series := map[string]map[string]point{}
	used := map[string]string{}
	for _, it := range items {
		if sr, concept := conceptSeries(cf, it.Concepts, it.Unit, it.Kind, p); sr != nil {
			series[it.Field], used[it.Field] = sr, concept
		}
	}
	var ends []string
	for _, a := range anchors[typ] {
		if sr := series[a]; sr != nil {
			ends = newestEnds(sr, limit)
			break
		}
	}
	st := Statement{Symbol: c.Ticker, CIK: c.CIK, Name: c.Name, Type: typ, Period: p, Currency: "USD",
		Source: "SEC EDGAR company facts (XBRL, as filed)", Concepts: used, Periods: []StatementPeriod{}}
	if len(ends) == 0 {
		return st, fmt.Errorf("SEC EDGAR has no %s %s figures for %s (%s)", p, typ, c.Ticker, c.Name)
	}
	for _, end := range ends {
		col := StatementPeriod{PeriodEnd: end, Values: map[string]decimal.Decimal{}}
		metaSet, metaDerived := false, false
		for _, it := range items {
			pt, ok := series[it.Field][end]
			if !ok {
				continue
			}
			col.Values[it.Field] = pt.Val
			if pt.Derive {
				col.Derived = append(col.Derived, it.Field)
			}
			// The column's filing facts come from its first reported item
			// (the statement's anchor), not from whichever came last.
			if !metaSet || (metaDerived && !pt.Derive) {
				metaSet, metaDerived = true, pt.Derive
				col.FiscalYear, col.FiscalPeriod, col.Form, col.Filed, col.PeriodStart = pt.FY, pt.FP, pt.Form, pt.Filed, pt.Start
			}
		}
		st.Periods = append(st.Periods, col)
	}
	return st, nil
}

// RatioPeriod is one period of equityGetRatios.
type RatioPeriod struct {
	PeriodEnd    string                     `json:"periodEnd"`
	FiscalYear   string                     `json:"fiscalYear"`
	FiscalPeriod string                     `json:"fiscalPeriod"`
	Ratios       map[string]decimal.Decimal `json:"ratios"`
}

// Ratios is equityGetRatios' answer.
type Ratios struct {
	Symbol  string        `json:"symbol"`
	CIK     string        `json:"cik"`
	Name    string        `json:"name"`
	Period  Period        `json:"period"`
	Source  string        `json:"source"`
	Notes   string        `json:"notes"`
	Periods []RatioPeriod `json:"periods"`
}

// ratioDefs compute each ratio from statement fields (numerator,
// denominator); a ratio is omitted when either is missing or zero.
var ratioDefs = []struct{ Name, Num, Den string }{
	{"grossMargin", "grossProfit", "revenue"},
	{"operatingMargin", "operatingIncome", "revenue"},
	{"netMargin", "netIncome", "revenue"},
	{"returnOnEquity", "netIncome", "totalEquity"},
	{"returnOnAssets", "netIncome", "totalAssets"},
	{"currentRatio", "currentAssets", "currentLiabilities"},
	{"debtToEquity", "totalLiabilities", "totalEquity"},
	{"longTermDebtToEquity", "longTermDebt", "totalEquity"},
	{"operatingCashFlowToNetIncome", "operatingCashFlow", "netIncome"},
}

// Ratios derives profitability, liquidity and leverage ratios from the
// income, balance and cash statements of the same periods.
func (s *Service) Ratios(ctx context.Context, symbol string, p Period, limit int) (Ratios, error) {
	inc, err := s.Financials(ctx, symbol, Income, p, limit)
	if err != nil {
		return Ratios{}, err
	}
	fields := map[string]map[string]decimal.Decimal{}
	for _, col := range inc.Periods {
		fields[col.PeriodEnd] = map[string]decimal.Decimal{}
		for k, v := range col.Values {
			fields[col.PeriodEnd][k] = v
		}
	}
	for _, typ := range []StatementType{Balance, Cash} {
		st, err := s.Financials(ctx, symbol, typ, p, 0)
		if err != nil {
			continue // a missing statement leaves its ratios out
		}
		for _, col := range st.Periods {
			if m, ok := fields[col.PeriodEnd]; ok {
				for k, v := range col.Values {
					m[k] = v
				}
			}
		}
	}
	out := Ratios{Symbol: inc.Symbol, CIK: inc.CIK, Name: inc.Name, Period: p,
		Source:  "computed from SEC EDGAR company facts",
		Notes:   "Ratios are fractions (0.25 = 25%); quarterly returns are for the quarter, not annualised.",
		Periods: []RatioPeriod{}}
	for _, col := range inc.Periods {
		m := fields[col.PeriodEnd]
		rp := RatioPeriod{PeriodEnd: col.PeriodEnd, FiscalYear: col.FiscalYear, FiscalPeriod: col.FiscalPeriod, Ratios: map[string]decimal.Decimal{}}
		for _, d := range ratioDefs {
			num, ok1 := m[d.Num]
			den, ok2 := m[d.Den]
			if !ok1 || !ok2 || den.IsZero() {
				continue
			}
			rp.Ratios[d.Name] = num.DivRound(den, 4)
		}
		out.Periods = append(out.Periods, rp)
	}
	return out, nil
}
