package research

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"
)

const nasdaqBase = "https://api.nasdaq.com"

// maxCalendarDays bounds one earnings-calendar call (one request per day).
const maxCalendarDays = 31

// nasdaqEarnings is api/calendar/earnings?date=YYYY-MM-DD.
type nasdaqEarnings struct {
	Data *struct {
		Rows []struct {
			Symbol              string `json:"symbol"`
			Name                string `json:"name"`
			Time                string `json:"time"`
			EPSForecast         string `json:"epsForecast"`
			NoOfEsts            string `json:"noOfEsts"`
			LastYearEPS         string `json:"lastYearEPS"`
			LastYearReportDate  string `json:"lastYearRptDt"`
			FiscalQuarterEnding string `json:"fiscalQuarterEnding"`
			MarketCap           string `json:"marketCap"`
		} `json:"rows"`
	} `json:"data"`
	Status struct {
		RCode int `json:"rCode"`
	} `json:"status"`
}

// Earnings is one scheduled report.
type Earnings struct {
	Date                string `json:"date"`
	Symbol              string `json:"symbol"`
	Name                string `json:"name"`
	Time                string `json:"time"` // before open, after close, not supplied
	EPSForecast         string `json:"epsForecast,omitempty"`
	Estimates           string `json:"numberOfEstimates,omitempty"`
	LastYearEPS         string `json:"lastYearEps,omitempty"`
	LastYearReportDate  string `json:"lastYearReportDate,omitempty"`
	FiscalQuarterEnding string `json:"fiscalQuarterEnding,omitempty"`
	MarketCap           string `json:"marketCap,omitempty"`
}

// EarningsCalendar is equityGetEarningsCalendar's answer.
type EarningsCalendar struct {
	Start    string     `json:"start_date"`
	End      string     `json:"end_date"`
	Symbol   string     `json:"symbol,omitempty"`
	Source   string     `json:"source"`
	Earnings []Earnings `json:"earnings"`
}

var timeLabels = map[string]string{"time-pre-market": "before open", "time-after-hours": "after close", "time-not-supplied": "not supplied"}

// EarningsCalendar lists scheduled reports between start and end
// (inclusive, YYYY-MM-DD; default today … today+7), optionally for one
// symbol.
func (s *Service) EarningsCalendar(ctx context.Context, symbol, start, end string) (EarningsCalendar, error) {
	from, to, err := dateRange(start, end, s.now(), 7)
	if err != nil {
		return EarningsCalendar{}, err
	}
	if days := int(to.Sub(from)/day) + 1; days > maxCalendarDays {
		return EarningsCalendar{}, fmt.Errorf("date range is %d days; at most %d per call", days, maxCalendarDays)
	}
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	out := EarningsCalendar{Start: from.Format("2006-01-02"), End: to.Format("2006-01-02"), Symbol: sym,
		Source: "Nasdaq earnings calendar", Earnings: []Earnings{}}
	for d := from; !d.After(to); d = d.Add(day) {
		if wd := d.Weekday(); wd == time.Saturday || wd == time.Sunday {
			continue
		}
		date := d.Format("2006-01-02")
		var resp nasdaqEarnings
		if err := s.nasdaq.Get(ctx, "/api/calendar/earnings", url.Values{"date": {date}}, &resp); err != nil {
			return out, err
		}
		if resp.Data == nil {
			continue
		}
		for _, r := range resp.Data.Rows {
			if sym != "" && !strings.EqualFold(r.Symbol, sym) {
				continue
			}
			t := timeLabels[r.Time]
			if t == "" {
				t = r.Time
			}
			out.Earnings = append(out.Earnings, Earnings{Date: date, Symbol: r.Symbol, Name: r.Name, Time: t,
				EPSForecast: r.EPSForecast, Estimates: r.NoOfEsts, LastYearEPS: r.LastYearEPS,
				LastYearReportDate: r.LastYearReportDate, FiscalQuarterEnding: r.FiscalQuarterEnding, MarketCap: r.MarketCap})
		}
	}
	return out, nil
}

// dateRange parses optional YYYY-MM-DD bounds; missing ones default to
// today and today+defaultDays.
func dateRange(start, end string, now time.Time, defaultDays int) (time.Time, time.Time, error) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	from, to := today, today.Add(time.Duration(defaultDays)*day)
	var err error
	if start != "" {
		if from, err = time.Parse("2006-01-02", start); err != nil {
			return from, to, fmt.Errorf("start_date must be YYYY-MM-DD, got %q", start)
		}
		if end == "" {
			to = from.Add(time.Duration(defaultDays) * day)
		}
	}
	if end != "" {
		if to, err = time.Parse("2006-01-02", end); err != nil {
			return from, to, fmt.Errorf("end_date must be YYYY-MM-DD, got %q", end)
		}
	}
	if to.Before(from) {
		return from, to, fmt.Errorf("end_date %s is before start_date %s", to.Format("2006-01-02"), from.Format("2006-01-02"))
	}
	return from, to, nil
}

// DiscoverType is equityDiscover's `type`.
type DiscoverType string

var screens = map[DiscoverType]string{"gainers": "day_gainers", "losers": "day_losers", "active": "most_actives"}

// Mover is one row of a discovery screen.
type Mover struct {
	Symbol        string `json:"symbol"`
	Name          string `json:"name"`
	Price         string `json:"price"`
	Change        string `json:"change"`
	ChangePercent string `json:"changePercent"`
	Volume        string `json:"volume"`
	MarketCap     string `json:"marketCap,omitempty"`
	Exchange      string `json:"exchange,omitempty"`
}

// Discover is equityDiscover's answer.
type Discover struct {
	Type   DiscoverType `json:"type"`
	Source string       `json:"source"`
	Movers []Mover      `json:"results"`
}

// Discover lists today's US gainers, losers or most active stocks.
func (s *Service) Discover(ctx context.Context, typ DiscoverType, limit int) (Discover, error) {
	id, ok := screens[typ]
	if !ok {
		return Discover{}, fmt.Errorf("type must be gainers, losers or active, got %q", typ)
	}
	if limit <= 0 || limit > 100 {
		limit = 25
	}
	rows, err := s.yahoo.Screen(ctx, id, limit)
	if err != nil {
		return Discover{}, err
	}
	out := Discover{Type: typ, Source: "Yahoo Finance predefined screen " + id, Movers: []Mover{}}
	for _, q := range rows {
		name := q.LongName
		if name == "" {
			name = q.ShortName
		}
		out.Movers = append(out.Movers, Mover{Symbol: q.Symbol, Name: name, Price: q.Price.String(), Change: q.Change.String(),
			ChangePercent: q.ChangePercent.String(), Volume: q.Volume.String(), MarketCap: q.MarketCap.String(), Exchange: q.Exchange})
		if len(out.Movers) >= limit {
			break
		}
	}
	return out, nil
}
