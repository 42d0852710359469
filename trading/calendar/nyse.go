package calendar

import "time"

// NYSE is the New York Stock Exchange: 09:30–16:00 America/New_York, early
// closes at 13:00, and the exchange's holidays for 2026 and 2027 (as NYSE
// publishes them: a Saturday holiday is observed the Friday before, a
// Sunday one the Monday after, except New Year's Day on a Saturday, which
// is not observed). Other years: weekdays without holidays.
func NYSE() *Exchange {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		loc = time.FixedZone("EST", -5*3600) // no tzdata: standard time
	}
	return &Exchange{
		name: "NYSE", loc: loc,
		open: clock{9, 30}, close: clock{16, 0}, earlyClose: clock{13, 0},
		holidays: map[string]string{
			"2026-01-01": "New Year's Day",
			"2026-01-19": "Martin Luther King Jr. Day",
			"2026-02-16": "Washington's Birthday",
			"2026-04-03": "Good Friday",
			"2026-05-25": "Memorial Day",
			"2026-06-19": "Juneteenth",
			"2026-07-03": "Independence Day (observed)",
			"2026-09-07": "Labor Day",
			"2026-11-26": "Thanksgiving Day",
			"2026-12-25": "Christmas Day",
			"2027-01-01": "New Year's Day",
			"2027-01-18": "Martin Luther King Jr. Day",
			"2027-02-15": "Washington's Birthday",
			"2027-03-26": "Good Friday",
			"2027-05-31": "Memorial Day",
			"2027-06-18": "Juneteenth (observed)",
			"2027-07-05": "Independence Day (observed)",
			"2027-09-06": "Labor Day",
			"2027-11-25": "Thanksgiving Day",
			"2027-12-24": "Christmas Day (observed)",
		},
		early: map[string]bool{
			"2026-11-27": true, // day after Thanksgiving
			"2026-12-24": true, // Christmas Eve
			"2027-11-26": true, // day after Thanksgiving
		},
		known: map[int]bool{2026: true, 2027: true},
	}
}
