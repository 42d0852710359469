package activity

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/charmbracelet/x/ansi"
)

// workRun is one cron, heartbeat, webhook (task) or manual agent run,
// assembled from agent.work.requested and the done/skip/error event
// that names it in causedBy.
type workRun struct {
	Seq       int64
	Time      time.Time
	Source    string
	Prompt    string
	TaskID    string // the durable queue's task (retry names it)
	Outcome   string // queued | running | done | skip | error | abandoned
	Detail    string // channel, skip reason or error text
	Delivered bool
	Duration  time.Duration
}

// workRuns derives runs from the event log, newest first.
func workRuns(evs []ActivityEvent) []workRun {
	type payload struct {
		Source     string  `json:"source"`
		Prompt     string  `json:"prompt"`
		Reason     string  `json:"reason"`
		Error      string  `json:"error"`
		Channel    string  `json:"channel"`
		Delivered  bool    `json:"delivered"`
		DurationMs float64 `json:"durationMs"`
		TaskID     string  `json:"taskId"`
	}
	var runs []workRun
	index := map[int64]int{}
	for _, e := range evs {
		var pl payload
		_ = json.Unmarshal([]byte(e.Payload), &pl)
		switch e.Type {
		case "agent.work.requested":
			index[e.Seq] = len(runs)
			out := "running" // logs from before the queue had no started event
			if pl.TaskID != "" {
				out = "queued"
			}
			runs = append(runs, workRun{Seq: e.Seq, Time: e.Time, Source: pl.Source, Prompt: pl.Prompt, TaskID: pl.TaskID, Outcome: out})
		case "agent.work.started":
			if i, ok := index[e.CausedBy]; ok && runs[i].Outcome == "queued" {
				runs[i].Outcome = "running"
			}
		case "agent.work.done", "agent.work.skip", "agent.work.error", "agent.work.abandoned":
			i, ok := index[e.CausedBy]
			if !ok {
				// A skip with no request (e.g. outside active hours).
				i = len(runs)
				runs = append(runs, workRun{Seq: e.Seq, Time: e.Time, Source: pl.Source})
			}
			r := &runs[i]
			r.Outcome = strings.TrimPrefix(e.Type, "agent.work.")
			r.Duration = time.Duration(pl.DurationMs) * time.Millisecond
			switch r.Outcome {
			case "done":
				r.Delivered, r.Detail = pl.Delivered, pl.Channel
			case "skip":
				r.Detail = pl.Reason
			case "error":
				r.Detail = pl.Error
			case "abandoned":
				r.Detail = pl.Reason
			}
			if r.TaskID == "" {
				r.TaskID = pl.TaskID
			}
		}
	}
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func (p *Pane) View() string {
	st := p.m.Styles()
	if _, ok := p.core.(ActivityCore); !ok {
		return kit.Stack(st.Title.Render("Activity"), st.Muted.Render("the activity log is not available in this core"))
	}
	var tabs []string
	for i, name := range activityTabNames {
		if activityTab(i) == p.tab {
			tabs = append(tabs, st.Selected.Render(" "+name+" "))
		} else {
			tabs = append(tabs, st.Muted.Render(" "+name+" "))
		}
	}
	head := st.Title.Render("Activity") + "  " + strings.Join(tabs, "")
	var filters []string
	if t := p.typeFilter(); t != "" && p.tab == tabEvents {
		filters = append(filters, "type="+t)
	}
	if s := p.sessionFilter(); s != "" && p.tab == tabToolCalls {
		filters = append(filters, "session="+s)
	}
	if p.query != "" {
		filters = append(filters, "search="+p.query)
	}
	if len(filters) > 0 {
		head += st.Warn.Render("  " + strings.Join(filters, " "))
	}
	lines := []string{ansi.Truncate(head, p.w, "…")}
	if p.searching {
		lines = append(lines, p.search.View())
	}
	body := p.h - len(lines)
	var rows []string
	var sel int
	switch p.tab {
	case tabEvents:
		rows, sel = p.eventRows(), p.sel[tabEvents]
	case tabRuns:
		rows, sel = p.runRows(), p.sel[tabRuns]
	case tabToolCalls:
		rows, sel = p.callRows(), p.sel[tabToolCalls]
	default:
		rows, sel = p.noteRows(), p.sel[tabNotifications]
	}
	if len(rows) == 0 {
		lines = append(lines, st.Muted.Render("  nothing yet"))
		return kit.FitHeight(strings.Join(lines, "\n"), p.h)
	}
	listH := body
	var detail []string
	if p.detail {
		listH = max(3, body/3)
		detail = p.detailLines(body - listH)
	}
	headN := len(lines)
	start := 0
	if sel >= listH {
		start = sel - listH + 1
	}
	for i := start; i < len(rows) && i < start+listH; i++ {
		r := ansi.Truncate(rows[i], p.w, "…")
		if i == sel {
			r = st.Selected.Render(kit.PadRight(ansi.Strip(r), p.w))
		}
		lines = append(lines, r)
	}
	if p.detail {
		lines = fitLines(lines, headN+listH)
		lines = append(lines, detail...)
	}
	return kit.FitHeight(strings.Join(lines, "\n"), p.h)
}

// fitLines pads or cuts a slice of lines to n.
func fitLines(lines []string, n int) []string {
	if len(lines) > n {
		return lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

func stamp(t time.Time) string { return t.Format("01-02 15:04:05") }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (p *Pane) eventRows() []string {
	st := p.m.Styles()
	var rows []string
	for _, e := range p.filteredEvents() {
		cause := ""
		if e.CausedBy != 0 {
			cause = st.Muted.Render(" ← #" + itoa(e.CausedBy))
		}
		rows = append(rows, fmt.Sprintf("%s %s %-24s%s %s", st.Muted.Render(fmt.Sprintf("#%-5d", e.Seq)), st.Muted.Render(stamp(e.Time)),
			e.Type, cause, st.Muted.Render(oneLine(e.Payload))))
	}
	return rows
}

func (p *Pane) runRows() []string {
	st := p.m.Styles()
	var rows []string
	for _, r := range p.filteredRuns() {
		var out string
		switch r.Outcome {
		case "done":
			if r.Delivered {
				out = st.Profit.Render("✓ delivered → " + kit.OrDash(r.Detail))
			} else {
				out = st.Warn.Render("✓ done, not delivered")
			}
		case "skip":
			out = st.Muted.Render("– skipped: " + r.Detail)
		case "error":
			out = st.Error.Render("✗ " + oneLine(r.Detail))
		case "abandoned":
			out = st.Error.Render("✗ abandoned (r retries)")
		case "queued":
			out = st.Muted.Render("… queued")
		default:
			out = st.Accent.Render("… running")
		}
		dur := ""
		if r.Duration > 0 {
			dur = st.Muted.Render(" " + r.Duration.Round(time.Millisecond).String())
		}
		prompt := kit.PadRight(ansi.Truncate(oneLine(r.Prompt), 36, "…"), 36)
		rows = append(rows, fmt.Sprintf("%s %-9s %s  %s%s", st.Muted.Render(stamp(r.Time)), r.Source, prompt, out, dur))
	}
	return rows
}

func (p *Pane) callRows() []string {
	st := p.m.Styles()
	var rows []string
	for _, c := range p.filteredCalls() {
		status := st.Profit.Render("ok ")
		if c.Error {
			status = st.Error.Render("err")
		}
		rows = append(rows, fmt.Sprintf("%s %s %-22s %6s  %-16s %s", st.Muted.Render(stamp(c.Time)), status, c.Name,
			c.Duration.Round(time.Millisecond).String(), c.Session, st.Muted.Render(oneLine(c.Input))))
	}
	return rows
}

func (p *Pane) noteRows() []string {
	st := p.m.Styles()
	var rows []string
	for _, n := range p.filteredNotes() {
		where := st.Warn.Render("not delivered")
		if n.Delivered {
			to := n.Channel
			if n.To != "" {
				to += ":" + n.To
			}
			where = st.Profit.Render("→ " + to)
		} else if n.Channel != "" {
			where = st.Warn.Render("✗ " + n.Channel + " failed")
		}
		rows = append(rows, fmt.Sprintf("%s %-9s %s  %s", st.Muted.Render(stamp(n.Time)), kit.OrDash(n.Source), where, oneLine(n.Text)))
	}
	return rows
}

// detailLines renders the selected item in full, h lines.
func (p *Pane) detailLines(h int) []string {
	st := p.m.Styles()
	var out []string
	sep := st.Muted.Render(strings.Repeat("─", max(0, p.w)))
	out = append(out, sep)
	switch p.tab {
	case tabEvents:
		evs := p.filteredEvents()
		if i := p.sel[tabEvents]; i < len(evs) {
			e := evs[i]
			out = append(out, st.Accent.Render(fmt.Sprintf("#%d %s  %s", e.Seq, e.Type, e.Time.Format(time.RFC3339))))
			if chain := p.causeChain(e); chain != "" {
				out = append(out, st.Muted.Render("caused by "+chain+"  (c to follow)"))
			}
			out = append(out, strings.Split(prettyJSON(e.Payload), "\n")...)
		}
	case tabRuns:
		runs := p.filteredRuns()
		if i := p.sel[tabRuns]; i < len(runs) {
			r := runs[i]
			out = append(out, st.Accent.Render(fmt.Sprintf("run #%d %s · %s %s", r.Seq, r.Source, r.Outcome, r.Detail)), r.Prompt)
		}
	case tabToolCalls:
		calls := p.filteredCalls()
		if i := p.sel[tabToolCalls]; i < len(calls) {
			c := calls[i]
			out = append(out, st.Accent.Render(fmt.Sprintf("%s · %s · %s · %s", c.Name, c.Session, c.Duration.Round(time.Millisecond), c.Time.Format(time.RFC3339))),
				st.Muted.Render("arguments"))
			out = append(out, strings.Split(prettyJSON(c.Input), "\n")...)
			label := "result"
			if c.Error {
				label = "error"
			}
			out = append(out, st.Muted.Render(label))
			out = append(out, strings.Split(prettyJSON(c.Output), "\n")...)
		}
	default:
		notes := p.filteredNotes()
		if i := p.sel[tabNotifications]; i < len(notes) {
			out = append(out, strings.Split(notes[i].Text, "\n")...)
		}
	}
	for i := range out {
		out[i] = ansi.Truncate(out[i], p.w, "…")
	}
	return fitLines(out, h)
}

// causeChain lists the causes of e that are loaded: "#12 cron.fire ← #9 …".
func (p *Pane) causeChain(e ActivityEvent) string {
	bySeq := make(map[int64]ActivityEvent, len(p.events))
	for _, x := range p.events {
		bySeq[x.Seq] = x
	}
	var parts []string
	for c, n := e.CausedBy, 0; c != 0 && n < 8; n++ {
		x, ok := bySeq[c]
		if !ok {
			parts = append(parts, "#"+itoa(c)+" (not loaded)")
			break
		}
		parts = append(parts, "#"+itoa(c)+" "+x.Type)
		c = x.CausedBy
	}
	return strings.Join(parts, " ← ")
}
