package workspace

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/alice-trading/alice/workspace/agentstate"
)

// HumanNotifier delivers a notification to the people's channels only
// (TUI toast, Telegram), never to an agent connector, as plain text: an
// alert quotes the agent's own words and screen, which a Markdown surface
// must show literally (no bold "approved" lines, no links).
// connector.Center.NotifyHumansPlain satisfies it.
type HumanNotifier interface {
	NotifyHumansPlain(ctx context.Context, text, urgency, source string) (string, error)
}

// AlertSource is the notification source of agent alerts.
const AlertSource = "workspace"

// AlertOptions tunes the alerter; zero values take the defaults.
type AlertOptions struct {
	// Settle is how long a state must hold before it is announced, so a
	// flicker (a bell answered at once, a crash that respawns into the
	// same error) makes one alert or none. Default 1.5 s.
	Settle time.Duration
	// PerSession is the least time between two alerts of one session.
	// Default 1 min.
	PerSession time.Duration
	// PerMinute caps alerts across all sessions. Default 6.
	PerMinute int
	// ScreenLines is how many screen lines an alert quotes. Default 6.
	ScreenLines int
	Logger      *slog.Logger
	Now         func() time.Time
}

// Alerter turns agent state transitions into notifications for people:
// entering needs-you, done or errored sends one notification with the
// workspace, the agent and the last screen lines. Alerts that the rate
// limits hold back are counted and mentioned in the next one.
type Alerter struct {
	m    *Manager
	n    HumanNotifier
	opts AlertOptions

	mu         sync.Mutex
	pending    map[string]pendingAlert // by session id
	lastAlert  map[string]time.Time    // by session id
	recent     []time.Time             // alerts in the last minute
	suppressed int
	wake       chan struct{} // capacity 1: an alert became pending
}

type pendingAlert struct {
	status AgentStatus
	at     time.Time
}

// NewAlerter subscribes to m's agent state changes. Call Run to deliver.
func NewAlerter(m *Manager, n HumanNotifier, opts AlertOptions) *Alerter {
	if opts.Settle <= 0 {
		opts.Settle = 1500 * time.Millisecond
	}
	if opts.PerSession <= 0 {
		opts.PerSession = time.Minute
	}
	if opts.PerMinute <= 0 {
		opts.PerMinute = 6
	}
	if opts.ScreenLines <= 0 {
		opts.ScreenLines = 6
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &Alerter{m: m, n: n, opts: opts, pending: map[string]pendingAlert{}, lastAlert: map[string]time.Time{},
		wake: make(chan struct{}, 1)}
	m.OnAgentState(a.observe)
	return a
}

// observe runs on session goroutines: it only records.
func (a *Alerter) observe(c AgentStateChange) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c.To.State.Alerting() {
		a.pending[c.To.SessionID] = pendingAlert{status: c.To, at: a.opts.Now()}
		select {
		case a.wake <- struct{}{}:
		default:
		}
	} else {
		delete(a.pending, c.To.SessionID)
	}
}

// Run delivers settled alerts until ctx ends. It ticks only while an
// alert is pending; otherwise it sleeps until one is.
func (a *Alerter) Run(ctx context.Context) {
	every := max(a.opts.Settle/4, 20*time.Millisecond)
	tk := time.NewTicker(every)
	tk.Stop()
	defer tk.Stop()
	ticking := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.wake:
			if !ticking {
				tk.Reset(every)
				ticking = true
			}
			continue
		case <-tk.C:
			a.flush(ctx)
		}
		a.mu.Lock()
		idle := len(a.pending) == 0
		a.mu.Unlock()
		if idle {
			tk.Stop()
			ticking = false
		}
	}
}

// flush sends every pending alert whose state has held for Settle.
func (a *Alerter) flush(ctx context.Context) {
	now := a.opts.Now()
	var due []AgentStatus
	a.mu.Lock()
	for id, p := range a.pending {
		if now.Sub(p.at) >= a.opts.Settle {
			due = append(due, p.status)
			delete(a.pending, id)
		}
	}
	a.mu.Unlock()
	for _, st := range due {
		cur, ok := a.m.AgentStatus(st.SessionID)
		if !ok || cur.State != st.State {
			continue // moved on before it settled
		}
		if a.m.Watched(cur.SessionID) {
			continue // a person is attached to it and sees it already
		}
		if !a.allow(st.SessionID, now) {
			continue
		}
		text := a.text(cur)
		if ch, err := a.n.NotifyHumansPlain(ctx, text, urgencyOf(cur.State), AlertSource); err != nil {
			a.opts.Logger.Warn("workspace alert not delivered", "session", cur.SessionID, "state", cur.State.String(), "err", err)
		} else {
			a.opts.Logger.Info("workspace alert", "session", cur.SessionID, "state", cur.State.String(), "channels", ch)
		}
	}
}

// allow applies the per-session and global limits, counting what they
// hold back.
func (a *Alerter) allow(sessionID string, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	kept := a.recent[:0]
	for _, t := range a.recent {
		if now.Sub(t) < time.Minute {
			kept = append(kept, t)
		}
	}
	a.recent = kept
	for id, t := range a.lastAlert { // forget sessions whose window has passed
		if now.Sub(t) >= a.opts.PerSession {
			delete(a.lastAlert, id)
		}
	}
	if last, ok := a.lastAlert[sessionID]; ok && now.Sub(last) < a.opts.PerSession {
		a.suppressed++
		return false
	}
	if len(a.recent) >= a.opts.PerMinute {
		a.suppressed++
		return false
	}
	a.lastAlert[sessionID] = now
	a.recent = append(a.recent, now)
	return true
}

func urgencyOf(s agentstate.State) string {
	if s == agentstate.Done {
		return "normal"
	}
	return "important"
}

// alertVerb says what happened, for the states that alert.
func alertVerb(s agentstate.State) string {
	switch s {
	case agentstate.NeedsYou:
		return "needs you"
	case agentstate.Done:
		return "is done"
	case agentstate.Errored:
		return "errored"
	}
	return s.String()
}

// text is the notification: who, what, why, and the bottom of the screen.
func (a *Alerter) text(st AgentStatus) string {
	tag := st.WorkspaceID
	if w, ok := a.m.Get(st.WorkspaceID); ok {
		tag = w.DisplayName()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s Workspace %s · %s (%s) %s", st.State.Glyph(), tag, st.Name, st.Agent, alertVerb(st.State))
	if d := strings.TrimSpace(st.Detail); d != "" && d != "bell" {
		fmt.Fprintf(&b, ": %s", clip(d, 200))
	}
	if s, ok := a.m.Session(st.SessionID); ok {
		lines := s.ScreenText(a.opts.ScreenLines)
		if len(lines) > 0 {
			b.WriteString("\n")
			for _, l := range lines {
				b.WriteString("│ " + clip(l, 160) + "\n")
			}
		}
	}
	a.mu.Lock()
	if a.suppressed > 0 {
		fmt.Fprintf(&b, "(%d more workspace alert(s) held back by the rate limit)\n", a.suppressed)
		a.suppressed = 0
	}
	a.mu.Unlock()
	return strings.TrimRight(b.String(), "\n")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
