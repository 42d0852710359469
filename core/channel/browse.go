package channel

import (
	"strings"

	"github.com/alice-trading/alice/core/session"
)

// Row is one line of the session browser: a session's summary and, for a
// chat channel's session, the channel. A channel whose session has no
// messages yet is a row too (Summary.Messages 0, Summary.ID its session).
type Row struct {
	session.Summary
	// Channel is set for chat channels' sessions (tui/<id>).
	Channel *Info
}

// Browse lists every session for the browser, most recently active first,
// with the channel each chat session belongs to; archived channels'
// sessions are listed (their history stays reachable) and marked through
// Channel.Archived. query filters as session.Store.Summaries does, plus
// channel labels.
func (s *Service) Browse(query string) ([]Row, error) {
	chans, err := s.List(true)
	if err != nil {
		return nil, err
	}
	bySession := map[string]Info{}
	for _, c := range chans {
		bySession[c.Session] = c
	}
	sums, err := s.sessions.Summaries("", query)
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(strings.TrimSpace(query))
	seen := map[string]bool{}
	rows := make([]Row, 0, len(sums)+len(chans))
	for _, sum := range sums {
		r := Row{Summary: sum}
		if c, ok := bySession[sum.ID]; ok {
			r.Channel = &c
		}
		seen[sum.ID] = true
		rows = append(rows, r)
	}
	// Channels that match by label but whose session did not match the
	// query (or has no file yet).
	for _, c := range chans {
		if seen[c.Session] || c.Archived {
			continue
		}
		if q != "" && !strings.Contains(strings.ToLower(c.Label+"\n"+c.ID), q) {
			continue
		}
		sum, err := s.sessions.Summary(c.Session)
		if err != nil {
			sum = session.Summary{ID: c.Session, Title: c.Label}
		}
		c := c
		rows = append(rows, Row{Summary: sum, Channel: &c})
	}
	return rows, nil
}
