package app

import (
	"fmt"
	"time"

	"github.com/alice-trading/alice/core/schedule"
	"github.com/alice-trading/alice/trading/calendar"
)

// marketCalendar is schedule.MarketCalendar over the trading accounts: a
// broker that knows its venue's calendar (the simulator: NYSE) answers;
// US-equity brokers without one (Alpaca, IBKR) use NYSE's; crypto venues
// trade around the clock and have no sessions to count from.
type marketCalendar struct{ a *App }

// calendarOf is implemented by brokers that carry their venue's calendar.
type calendarOf interface {
	Calendar() calendar.Calendar
}

func (m marketCalendar) Sessions(account string, from time.Time, n int) ([]schedule.MarketSession, error) {
	if m.a.trading == nil {
		return nil, fmt.Errorf("no trading accounts")
	}
	u, err := m.a.trading.Get(account)
	if err != nil {
		return nil, err
	}
	var cal calendar.Calendar
	switch {
	case u.Sim() != nil:
		cal = u.Sim().Calendar()
	default:
		if c, ok := u.Broker().(calendarOf); ok {
			cal = c.Calendar()
		} else if p := u.Preset(); p == "alpaca" || p == "ibkr-tws" {
			cal = calendar.NYSE()
		}
	}
	if cal == nil {
		return nil, fmt.Errorf("account %s (%s) trades around the clock: it has no open or close to schedule from", account, u.Preset())
	}
	var out []schedule.MarketSession
	for _, s := range cal.SessionsFrom(from, n) {
		out = append(out, schedule.MarketSession{Open: s.Open, Close: s.Close})
	}
	return out, nil
}
