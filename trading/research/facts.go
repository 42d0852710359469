package research

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"
)

// Period is "annual" or "quarter".
type Period string

const (
	Annual  Period = "annual"
	Quarter Period = "quarter"
)

// conceptKind says whether a concept is measured over a duration (income,
// cash flow) or at an instant (balance sheet).
type conceptKind int

const (
	flow conceptKind = iota
	instant
)

// point is one period's value of a concept.
type point struct {
	End    string
	Start  string
	Val    decimal.Decimal
	FY     string
	FP     string
	Form   string
	Filed  string
	Derive bool // computed from year-to-date figures, not reported as such
}

const day = 24 * time.Hour

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse("2006-01-02", s)
	return t, err == nil
}

func durationDays(f factAt) int {
	a, ok1 := parseDay(f.Start)
	b, ok2 := parseDay(f.End)
	if !ok1 || !ok2 {
		return 0
	}
	return int(b.Sub(a)/day) + 1
}

func isAnnualDays(d int) bool  { return d >= 330 && d <= 400 }
func isQuarterDays(d int) bool { return d >= 80 && d <= 100 }

// periodForm reports whether a filing form carries the period's figures.
func periodForm(form string, p Period) bool {
	switch form {
	case "10-K", "10-K/A", "20-F", "20-F/A", "40-F", "40-F/A":
		return true
	case "10-Q", "10-Q/A":
		return p == Quarter
	}
	return false
}

// conceptSeries picks the first concept (in preference order) that has
// figures in unit, and returns its values by period end, newest filing
// winning (restatements replace originals). Quarterly flows that companies
// only report year-to-date (Q2, Q3 cash flows; Q4 of everything) are
// derived by subtracting the preceding year-to-date figure with the same
// start date.
func conceptSeries(cf companyFacts, concepts []string, unit string, kind conceptKind, p Period) (map[string]point, string) {
	for _, name := range concepts {
		for _, taxonomy := range []string{"us-gaap", "ifrs-full", "dei"} {
			c, ok := cf.Facts[taxonomy][name]
			if !ok {
				continue
			}
			facts := c.Units[unit]
			if len(facts) == 0 {
				continue
			}
			out := selectPeriods(facts, kind, p)
			if len(out) > 0 {
				return out, name
			}
		}
	}
	return nil, ""
}

func selectPeriods(facts []factAt, kind conceptKind, p Period) map[string]point {
	out := map[string]point{}
	put := func(pt point) {
		if old, ok := out[pt.End]; ok && !old.Derive && (pt.Derive || old.Filed >= pt.Filed) {
			return
		}
		out[pt.End] = pt
	}
	toPoint := func(f factAt) (point, bool) {
		v, err := decimal.NewFromString(f.Val.String())
		if err != nil {
			return point{}, false
		}
		return point{End: f.End, Start: f.Start, Val: v, FY: f.FY.String(), FP: f.FP, Form: f.Form, Filed: f.Filed}, true
	}
	for _, f := range facts {
		if !periodForm(f.Form, p) {
			continue
		}
		pt, ok := toPoint(f)
		if !ok {
			continue
		}
		switch {
		case kind == instant && p == Annual && f.FP == "FY":
			put(pt)
		case kind == instant && p == Quarter:
			put(pt)
		case kind == flow && p == Annual && isAnnualDays(durationDays(f)):
			put(pt)
		case kind == flow && p == Quarter && isQuarterDays(durationDays(f)):
			put(pt)
		}
	}
	if kind != flow || p != Quarter {
		return out
	}
	// Derive missing quarters from year-to-date pairs sharing a start.
	byStart := map[string][]factAt{}
	for _, f := range facts {
		if f.Start != "" && (f.Form == "10-Q" || f.Form == "10-Q/A" || f.Form == "10-K" || f.Form == "10-K/A") {
			byStart[f.Start] = append(byStart[f.Start], f)
		}
	}
	for _, group := range byStart {
		for _, long := range group {
			d := durationDays(long)
			if d <= 100 || d > 400 {
				continue
			}
			if _, have := out[long.End]; have {
				continue
			}
			end, _ := parseDay(long.End)
			for _, short := range group {
				se, ok := parseDay(short.End)
				if !ok || !isQuarterDays(int(end.Sub(se)/day)) {
					continue
				}
				lv, err1 := decimal.NewFromString(long.Val.String())
				sv, err2 := decimal.NewFromString(short.Val.String())
				if err1 != nil || err2 != nil {
					continue
				}
				put(point{End: long.End, Start: se.Add(day).Format("2006-01-02"), Val: lv.Sub(sv),
					FY: long.FY.String(), FP: quarterLabel(long.FP), Form: long.Form, Filed: long.Filed, Derive: true})
				break
			}
		}
	}
	return out
}

// quarterLabel names the quarter a year-to-date figure ends in: a 10-K's FY
// becomes Q4.
func quarterLabel(fp string) string {
	if fp == "FY" {
		return "Q4"
	}
	return fp
}

// newestEnds returns up to limit period ends, newest first.
func newestEnds(series map[string]point, limit int) []string {
	ends := make([]string, 0, len(series))
	for e := range series {
		ends = append(ends, e)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ends)))
	if limit > 0 && len(ends) > limit {
		ends = ends[:limit]
	}
	return ends
}
