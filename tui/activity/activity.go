package activity

import (
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/alice-trading/alice/tui/kit"
)

// ActivityCore is what the Activity pane needs: the event log, the
// tool-call log and the notification log. tui/live reads them from the
// running core; every method is called from a Cmd.
type ActivityCore interface {
	// RecentEvents returns up to limit of the newest event-log entries,
	// oldest first.
	RecentEvents(limit int) ([]ActivityEvent, error)
	// ToolCalls returns up to limit of the newest tool calls, oldest first.
	ToolCalls(limit int) ([]ToolCallRecord, error)
	// NotificationLog returns up to limit of the newest notifications,
	// oldest first.
	NotificationLog(limit int) ([]NotificationRecord, error)
}

// WorkRetrier retries a failed or abandoned task of the durable work
// queue (a new task; the core refuses anything else with a clear error).
// Optional: without it the retry key says retries are unavailable.
type WorkRetrier interface {
	RetryWork(taskID string) (newTaskID string, err error)
}

// ActivityChangedEvent (from Core.Events) says the event log grew.
type ActivityChangedEvent struct{ Seq int64 }

// ActivityEvent is one event-log entry ({seq, ts, type, payload, causedBy}).
type ActivityEvent struct {
	Seq      int64
	Time     time.Time
	Type     string
	Payload  string // raw JSON
	CausedBy int64
}

// ToolCallRecord is one line of the tool-call log.
type ToolCallRecord struct {
	Seq      int64
	Session  string
	Name     string
	Input    string
	Output   string
	Error    bool
	Duration time.Duration
	Time     time.Time
}

// NotificationRecord is one stored notification and where it went.
type NotificationRecord struct {
	Time      time.Time
	Text      string
	Source    string
	Channel   string // "" when no connector took it
	To        string
	Delivered bool
}

// activityTab is the pane's sub-view.
type activityTab int

const (
	tabEvents activityTab = iota
	tabRuns
	tabToolCalls
	tabNotifications
	activityTabCount
)

var activityTabNames = [activityTabCount]string{"Events", "Runs", "Tool calls", "Notifications"}

// activityLimit is how much history one load reads.
const activityLimit = 500

// activityKeys are the Activity pane's bindings.
type activityKeys struct {
	PrevTab, NextTab, Up, Down, Top, Open, Back, Search, Filter, Cause, Session, Retry key.Binding
}

func DefaultActivityKeys() activityKeys {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return activityKeys{
		PrevTab: b("[", "previous tab", "[", "left", "h"),
		NextTab: b("]", "next tab", "]", "right", "l"),
		Up:      b("↑/k", "up", "up", "k"),
		Down:    b("↓/j", "down (older)", "down", "j"),
		Top:     b("home/g", "newest (follow)", "home", "g"),
		Open:    b("enter", "open details / JSON", "enter"),
		Back:    b("esc", "back", "esc"),
		Search:  b("/", "search", "/"),
		Filter:  b("f", "filter by type", "f"),
		Cause:   b("c", "go to cause (causedBy)", "c"),
		Session: b("s", "filter by session", "s"),
		Retry:   b("r", "retry failed run (Runs)", "r"),
	}
}

// activityPane shows what Alice is doing: the live event log, agent
// work runs with their outcomes, tool calls and notifications.
type Pane struct {
	m       kit.Host
	core    any
	w, h    int
	focused bool
	keys    activityKeys
	tab     activityTab

	events []ActivityEvent
	calls  []ToolCallRecord
	notes  []NotificationRecord

	sel       [activityTabCount]int // index into the filtered, newest-first list
	detail    bool
	searching bool
	search    textinput.Model
	query     string
	typeIdx   int // 0 = all types; else index into eventTypes()+1
	sessIdx   int // 0 = all sessions
}

func New(m kit.Host, core any) *Pane {
	in := textinput.New()
	in.Prompt = "/ "
	return &Pane{m: m, core: core, keys: DefaultActivityKeys(), search: in}
}

func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }
func (p *Pane) Focus()           { p.focused = true }
func (p *Pane) Blur()            { p.focused = false }
func (p *Pane) Capturing() bool  { return p.searching }

func (p *Pane) ShortHelp() []key.Binding {
	k := p.keys
	return []key.Binding{k.PrevTab, k.NextTab, k.Up, k.Down, k.Top, k.Open, k.Back, k.Search, k.Filter, k.Cause, k.Session, k.Retry}
}

type activityMsg struct {
	events []ActivityEvent
	calls  []ToolCallRecord
	notes  []NotificationRecord
	err    error
}

// Load reads all three logs in one Cmd.
func (p *Pane) Load() tea.Cmd {
	ac, ok := p.core.(ActivityCore)
	if !ok {
		return nil
	}
	return func() tea.Msg {
		var r activityMsg
		var err error
		if r.events, err = ac.RecentEvents(activityLimit); err != nil {
			r.err = err
		}
		if r.calls, err = ac.ToolCalls(activityLimit); err != nil && r.err == nil {
			r.err = err
		}
		if r.notes, err = ac.NotificationLog(activityLimit); err != nil && r.err == nil {
			r.err = err
		}
		return r
	}
}

func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case activityMsg:
		// Keep the selection on the same item while new ones arrive on top
		// (selection 0 follows the newest).
		before := p.selectedKeys()
		p.events, p.calls, p.notes = msg.events, msg.calls, msg.notes
		p.reselect(before)
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
	case retriedMsg:
		if msg.err != nil {
			return kit.ErrCmd(msg.err)
		}
		return tea.Batch(kit.FlashCmd("retry queued as task "+shortID(msg.newID)), p.Load())
	case tea.KeyPressMsg:
		return p.onKey(msg)
	case tea.PasteMsg:
		if !p.searching {
			return nil
		}
		var cmd tea.Cmd
		p.search, cmd = p.search.Update(tea.PasteMsg{Content: kit.OneLine(msg.Content)})
		p.query = strings.TrimSpace(p.search.Value())
		p.sel[p.tab] = 0
		return cmd
	}
	return nil
}

// shortID is the first 8 characters of a task id.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func (p *Pane) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.keys
	if p.searching {
		switch msg.String() {
		case "enter", "esc":
			p.searching = false
			p.search.Blur()
			if msg.String() == "esc" {
				p.search.SetValue("")
			}
			p.query = strings.TrimSpace(p.search.Value())
			p.sel[p.tab] = 0
			return nil
		}
		var cmd tea.Cmd
		p.search, cmd = p.search.Update(msg)
		p.query = strings.TrimSpace(p.search.Value())
		p.sel[p.tab] = 0
		return cmd
	}
	n := p.count()
	switch {
	case key.Matches(msg, k.Back):
		if p.detail {
			p.detail = false
		} else if p.query != "" {
			p.query = ""
			p.search.SetValue("")
		}
	case key.Matches(msg, k.PrevTab):
		p.tab = (p.tab + activityTabCount - 1) % activityTabCount
		p.detail = false
	case key.Matches(msg, k.NextTab):
		p.tab = (p.tab + 1) % activityTabCount
		p.detail = false
	case key.Matches(msg, k.Up):
		p.sel[p.tab] = max(0, p.sel[p.tab]-1)
	case key.Matches(msg, k.Down):
		p.sel[p.tab] = max(0, min(n-1, p.sel[p.tab]+1))
	case key.Matches(msg, k.Top):
		p.sel[p.tab] = 0
	case key.Matches(msg, k.Open):
		if n > 0 {
			p.detail = !p.detail
		}
	case key.Matches(msg, k.Search):
		p.searching = true
		return p.search.Focus()
	case key.Matches(msg, k.Filter):
		if p.tab == tabEvents {
			p.typeIdx = (p.typeIdx + 1) % (len(eventTypes(p.events)) + 1)
			p.sel[p.tab] = 0
		}
	case key.Matches(msg, k.Session):
		if p.tab == tabToolCalls {
			p.sessIdx = (p.sessIdx + 1) % (len(callSessions(p.calls)) + 1)
			p.sel[p.tab] = 0
		}
	case key.Matches(msg, k.Cause):
		return p.followCause()
	case key.Matches(msg, k.Retry):
		return p.retrySelected()
	}
	return nil
}

// retriedMsg is the answer to a retry.
type retriedMsg struct {
	newID string
	err   error
}

// retrySelected retries the selected run (Runs tab) in a Cmd.
func (p *Pane) retrySelected() tea.Cmd {
	if p.tab != tabRuns {
		return kit.FlashCmd("retry works on the Runs tab (])")
	}
	runs := p.filteredRuns()
	i := p.sel[tabRuns]
	if i >= len(runs) {
		return nil
	}
	r := runs[i]
	if r.Outcome != "error" && r.Outcome != "abandoned" {
		return kit.FlashCmd("only failed or abandoned runs can be retried")
	}
	if r.TaskID == "" {
		return kit.FlashCmd("this run is older than the work queue and cannot be retried")
	}
	wr, ok := p.core.(WorkRetrier)
	if !ok {
		return kit.FlashCmd("retries are not available in this core")
	}
	id := r.TaskID
	return func() tea.Msg {
		n, err := wr.RetryWork(id)
		return retriedMsg{newID: n, err: err}
	}
}

// followCause selects the event that caused the selected one.
func (p *Pane) followCause() tea.Cmd {
	if p.tab != tabEvents {
		return nil
	}
	evs := p.filteredEvents()
	i := p.sel[tabEvents]
	if i >= len(evs) || evs[i].CausedBy == 0 {
		return kit.FlashCmd("this event has no cause recorded")
	}
	cause := evs[i].CausedBy
	// The cause may be hidden by a filter: clear filters to show it.
	for _, try := range []bool{false, true} {
		if try {
			p.typeIdx, p.query = 0, ""
			p.search.SetValue("")
			evs = p.filteredEvents()
		}
		for j, e := range evs {
			if e.Seq == cause {
				p.sel[tabEvents] = j
				return nil
			}
		}
	}
	return kit.FlashCmd("the cause (#" + itoa(cause) + ") is older than the loaded events")
}

// count is the length of the current tab's filtered list.
func (p *Pane) count() int {
	switch p.tab {
	case tabEvents:
		return len(p.filteredEvents())
	case tabRuns:
		return len(p.filteredRuns())
	case tabToolCalls:
		return len(p.filteredCalls())
	}
	return len(p.filteredNotes())
}

// rowKeys names the rows of a tab's filtered, newest-first list (events
// and tool calls by sequence number, runs by their request, notifications
// by time and text), so reloads keep the cursor on the item.
func (p *Pane) rowKeys(tab activityTab) []string {
	var out []string
	switch tab {
	case tabEvents:
		for _, e := range p.filteredEvents() {
			out = append(out, strconv.FormatInt(e.Seq, 10))
		}
	case tabRuns:
		for _, r := range p.filteredRuns() {
			out = append(out, strconv.FormatInt(r.Seq, 10))
		}
	case tabToolCalls:
		for _, c := range p.filteredCalls() {
			out = append(out, strconv.FormatInt(c.Seq, 10))
		}
	default:
		for _, n := range p.filteredNotes() {
			out = append(out, n.Time.String()+"\x00"+n.Text)
		}
	}
	return out
}

func sameKey(s string) string { return s }

// selectedKeys names each tab's selected item; "" for a selection at the
// top, which then follows new items.
func (p *Pane) selectedKeys() [activityTabCount]string {
	var out [activityTabCount]string
	for tab := range activityTabCount {
		if p.sel[tab] > 0 {
			out[tab] = kit.KeyAt(p.rowKeys(tab), sameKey, p.sel[tab])
		}
	}
	return out
}

func (p *Pane) reselect(keys [activityTabCount]string) {
	for tab := range activityTabCount {
		if keys[tab] != "" {
			p.sel[tab] = kit.Reselect(p.rowKeys(tab), sameKey, keys[tab], p.sel[tab])
		}
	}
}
