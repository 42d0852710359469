package activity

import (
	"encoding/json"
	"sort"
	"strings"
)

// The Activity pane's filters: by event type, by tool-call session and by
// free-text search; every list is shown newest first.

// eventTypes lists the distinct types present, sorted.
func eventTypes(evs []ActivityEvent) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range evs {
		if !seen[e.Type] {
			seen[e.Type] = true
			out = append(out, e.Type)
		}
	}
	sort.Strings(out)
	return out
}

// callSessions lists the distinct sessions in the tool-call log, sorted.
func callSessions(calls []ToolCallRecord) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range calls {
		if !seen[c.Session] {
			seen[c.Session] = true
			out = append(out, c.Session)
		}
	}
	sort.Strings(out)
	return out
}

func (p *Pane) typeFilter() string {
	if ts := eventTypes(p.events); p.typeIdx > 0 && p.typeIdx <= len(ts) {
		return ts[p.typeIdx-1]
	}
	return ""
}

func (p *Pane) sessionFilter() string {
	if ss := callSessions(p.calls); p.sessIdx > 0 && p.sessIdx <= len(ss) {
		return ss[p.sessIdx-1]
	}
	return ""
}

func matches(q string, fields ...string) bool {
	if q == "" {
		return true
	}
	q = strings.ToLower(q)
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), q) {
			return true
		}
	}
	return false
}

// filteredEvents is the event list newest first after type and search.
func (p *Pane) filteredEvents() []ActivityEvent {
	t := p.typeFilter()
	var out []ActivityEvent
	for i := len(p.events) - 1; i >= 0; i-- {
		e := p.events[i]
		if (t == "" || e.Type == t) && matches(p.query, e.Type, e.Payload) {
			out = append(out, e)
		}
	}
	return out
}

func (p *Pane) filteredCalls() []ToolCallRecord {
	s := p.sessionFilter()
	var out []ToolCallRecord
	for i := len(p.calls) - 1; i >= 0; i-- {
		c := p.calls[i]
		if (s == "" || c.Session == s) && matches(p.query, c.Name, c.Session, c.Input, c.Output) {
			out = append(out, c)
		}
	}
	return out
}

func (p *Pane) filteredNotes() []NotificationRecord {
	var out []NotificationRecord
	for i := len(p.notes) - 1; i >= 0; i-- {
		n := p.notes[i]
		if matches(p.query, n.Text, n.Source, n.Channel) {
			out = append(out, n)
		}
	}
	return out
}

func (p *Pane) filteredRuns() []workRun {
	var out []workRun
	for _, r := range workRuns(p.events) {
		if matches(p.query, r.Source, r.Prompt, r.Outcome, r.Detail) {
			out = append(out, r)
		}
	}
	return out
}

// prettyJSON indents raw JSON (or returns it unchanged if it is not).
func prettyJSON(raw string) string {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return raw
	}
	return string(b)
}
