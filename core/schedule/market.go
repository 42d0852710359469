package schedule

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// KindMarket fires relative to a venue's sessions: N minutes before or
// after the open or the close of an account's market, on trading days
// only (weekends, holidays and early closes come from the broker's
// calendar).
const KindMarket Kind = "market"

// MarketSpec is a market-relative schedule: {account, event, offsetMinutes}.
// offsetMinutes < 0 is before the event ("15 minutes before the close":
// event close, offsetMinutes -15).
type MarketSpec struct {
	Account       string  `json:"account"`
	Event         string  `json:"event"` // open | close
	OffsetMinutes Minutes `json:"offsetMinutes"`
}

// Minutes is a whole number of minutes. It decodes any JSON number that
// is a whole number (1e3 included), so that a value out of range is
// reported as such by validate rather than as a type error.
type Minutes int

// UnmarshalJSON implements json.Unmarshaler.
func (m *Minutes) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("offsetMinutes must be a whole number of minutes within ±%d, got %s", maxMarketOffset, b)
	}
	if f != math.Trunc(f) {
		return fmt.Errorf("offsetMinutes must be a whole number of minutes within ±%d, got %s", maxMarketOffset, b)
	}
	// Anything beyond the range is kept out of range (and refused by
	// validate, naming it) without overflowing int.
	*m = Minutes(max(min(f, 2*maxMarketOffset), -2*maxMarketOffset))
	return nil
}

// maxMarketOffset bounds MarketSpec.OffsetMinutes (12 h either way).
const maxMarketOffset = 12 * 60

// MarketSession is one trading session of a venue.
type MarketSession struct {
	Open, Close time.Time
}

// MarketCalendar gives an account's venue sessions: up to n, in order,
// starting with the one on from's day. core/schedule declares it; app
// wires the broker's calendar.
type MarketCalendar interface {
	Sessions(account string, from time.Time, n int) ([]MarketSession, error)
}

func (m *MarketSpec) validate() error {
	if m == nil {
		return errors.New(`schedule.market is required for kind market: {"account":"sim-paper","event":"close","offsetMinutes":-15}`)
	}
	if strings.TrimSpace(m.Account) == "" {
		return errors.New("schedule.market.account is required (the account whose market sets the time)")
	}
	if m.Event != "open" && m.Event != "close" {
		return fmt.Errorf("schedule.market.event must be open or close, got %q", m.Event)
	}
	if m.OffsetMinutes < -maxMarketOffset || m.OffsetMinutes > maxMarketOffset {
		return fmt.Errorf("schedule.market.offsetMinutes must be within ±%d (minutes, 12 h either way)", maxMarketOffset)
	}
	return nil
}

// nextMarket is the first fire time strictly after from.
func nextMarket(cal MarketCalendar, m *MarketSpec, from time.Time) (time.Time, error) {
	if cal == nil {
		return time.Time{}, errors.New("market schedules need the trading accounts (no market calendar here)")
	}
	// Start a day early: an offset after the close can fall on the next
	// calendar day.
	sessions, err := cal.Sessions(m.Account, from.AddDate(0, 0, -1), 16)
	if err != nil {
		return time.Time{}, err
	}
	off := time.Duration(m.OffsetMinutes) * time.Minute
	for _, s := range sessions {
		at := s.Close
		if m.Event == "open" {
			at = s.Open
		}
		if t := at.Add(off); t.After(from) {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("no %s of %s's market in the next %d sessions", m.Event, m.Account, len(sessions))
}

// Describe says a market schedule in words.
func (m *MarketSpec) Describe() string {
	when := "at the " + m.Event
	switch {
	case m.OffsetMinutes < 0:
		when = fmt.Sprintf("%d min before the %s", -m.OffsetMinutes, m.Event)
	case m.OffsetMinutes > 0:
		when = fmt.Sprintf("%d min after the %s", m.OffsetMinutes, m.Event)
	}
	return when + " of " + m.Account + "'s market, trading days only"
}
