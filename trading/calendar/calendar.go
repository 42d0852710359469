// Package calendar knows when venues trade: sessions (open and close
// instants) with weekends, holidays and early closes. NYSE carries the
// exchange's published calendar for 2026 and 2027; other years are read as
// plain weekdays (no holidays known), which the doc of NYSE states.
package calendar

import (
	"time"
)

// Session is one trading day's regular session.
type Session struct {
	Open  time.Time
	Close time.Time
	// Early is true for an early close (13:00 on NYSE).
	Early bool
}

// Calendar lists sessions.
type Calendar interface {
	// SessionsFrom returns up to n sessions, in order, starting with the
	// one on from's calendar day (in the venue's zone) if there is one.
	SessionsFrom(from time.Time, n int) []Session
	// Name names the venue.
	Name() string
}

// Exchange is a calendar from a regular session, a zone and known holidays
// and early closes (dates as "2006-01-02").
type Exchange struct {
	name        string
	loc         *time.Location
	open, close clock
	earlyClose  clock
	holidays    map[string]string
	early       map[string]bool
	known       map[int]bool // years whose holidays are listed
}

type clock struct{ h, m int }

// Name implements Calendar.
func (e *Exchange) Name() string { return e.name }

// Known reports whether year's holidays are listed.
func (e *Exchange) Known(year int) bool { return e.known[year] }

// Holiday names the holiday on day (a date in the venue's zone), if any.
func (e *Exchange) Holiday(day time.Time) (string, bool) {
	n, ok := e.holidays[day.In(e.loc).Format(time.DateOnly)]
	return n, ok
}

// SessionsFrom implements Calendar.
func (e *Exchange) SessionsFrom(from time.Time, n int) []Session {
	var out []Session
	d := from.In(e.loc)
	day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, e.loc)
	for i := 0; len(out) < n && i < 3660; i++ {
		cur := day.AddDate(0, 0, i)
		if wd := cur.Weekday(); wd == time.Saturday || wd == time.Sunday {
			continue
		}
		key := cur.Format(time.DateOnly)
		if _, hol := e.holidays[key]; hol {
			continue
		}
		cl, early := e.close, e.early[key]
		if early {
			cl = e.earlyClose
		}
		out = append(out, Session{
			Open:  time.Date(cur.Year(), cur.Month(), cur.Day(), e.open.h, e.open.m, 0, 0, e.loc),
			Close: time.Date(cur.Year(), cur.Month(), cur.Day(), cl.h, cl.m, 0, 0, e.loc),
			Early: early,
		})
	}
	return out
}

// IsOpen reports whether t falls inside a session.
func (e *Exchange) IsOpen(t time.Time) bool {
	for _, s := range e.SessionsFrom(t, 1) {
		return !t.Before(s.Open) && t.Before(s.Close)
	}
	return false
}
