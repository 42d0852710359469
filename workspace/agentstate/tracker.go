package agentstate

import (
	"sync"
	"time"
)

// Lifecycle is the process side of a session, told by the supervisor.
type Lifecycle int

// Lifecycle values.
const (
	LifeRunning Lifecycle = iota // a child is running (or starting)
	LifeCrashed                  // exited non-zero or failed to start; may respawn
	LifeExited                   // exited cleanly or was stopped
)

// Snapshot is a Tracker's view at one moment.
type Snapshot struct {
	State    State     `json:"state"`
	Since    time.Time `json:"since"`
	Detail   string    `json:"detail,omitempty"` // why: the notification, the matched line, the exit reason
	Title    string    `json:"title,omitempty"`
	Progress int       `json:"progress"` // 0-100, -1 when none or indeterminate
}

// Change is a transition reported to the Tracker's callback.
type Change struct {
	From, To Snapshot
}

// Tracker derives one session's State. Its methods are safe for
// concurrent use; onChange is called without the lock held, in the
// caller's goroutine, once per transition.
type Tracker struct {
	rules    *Rules
	now      func() time.Time
	onChange func(Change)

	mu        sync.Mutex
	scan      Scanner
	sigs      []Signal
	life      Lifecycle
	lifeWhy   string
	title     string
	titleSt   State
	progress  Progress
	progVal   int
	attention string // non-empty while a bell/notification is unanswered
	attnState State
	screenSt  State
	screenWhy string
	worked    bool // was Working since the person last acted
	cur       Snapshot
}

// NewTracker starts tracking with rules (nil = generic rules). now may be
// nil (time.Now); onChange may be nil.
func NewTracker(rules *Rules, now func() time.Time, onChange func(Change)) *Tracker {
	if rules == nil {
		rules = (*RuleSet)(nil).For("")
	}
	if now == nil {
		now = time.Now
	}
	t := &Tracker{rules: rules, now: now, onChange: onChange, progVal: -1}
	t.cur = Snapshot{State: rules.Default, Since: now(), Progress: -1}
	return t
}

// Snapshot returns the current state.
func (t *Tracker) Snapshot() Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cur
}

// Output feeds a raw output batch from the child.
func (t *Tracker) Output(p []byte) {
	t.mu.Lock()
	t.sigs = t.scan.Feed(p, t.sigs[:0])
	if len(t.sigs) == 0 {
		t.mu.Unlock()
		return
	}
	for _, s := range t.sigs {
		t.applyLocked(s)
	}
	t.finish()
}

func (t *Tracker) applyLocked(s Signal) {
	wasWorking := t.workingLocked()
	switch s.Kind {
	case SignalTitle:
		t.title = s.Text
		t.titleSt = t.rules.matchTitle(s.Text)
	case SignalProgress:
		t.progress, t.progVal = s.Progress, s.Value
	case SignalBell:
		if t.rules.Bell != Unknown {
			t.attention, t.attnState = "bell", t.rules.Bell
		}
	case SignalNotify:
		if t.rules.Notify != Unknown {
			t.attention, t.attnState = s.Text, t.rules.Notify
		}
	}
	// A new burst of work after a bell answers it (the agent moved on).
	if !wasWorking && t.workingLocked() && s.Kind != SignalBell && s.Kind != SignalNotify {
		t.attention = ""
	}
}

func (t *Tracker) workingLocked() bool {
	return t.progress == ProgressNormal || t.progress == ProgressBusy || t.titleSt == Working
}

// Screen applies the screen rules to the current screen lines (top to
// bottom). Call it when the screen changed; it is cheap when nothing
// matches.
func (t *Tracker) Screen(lines []string) {
	st, why := t.rules.matchScreen(lines)
	t.mu.Lock()
	t.screenSt, t.screenWhy = st, why
	t.finish()
}

// Lifecycle records the process state; reason explains a crash or exit.
// A new process (Running after anything else) starts with a clean slate.
func (t *Tracker) Lifecycle(l Lifecycle, reason string) {
	t.mu.Lock()
	if l == LifeRunning && t.life != LifeRunning {
		t.title, t.titleSt = "", Unknown
		t.progress, t.progVal = ProgressNone, -1
		t.attention, t.worked = "", false
		t.scan = Scanner{}
	}
	t.life, t.lifeWhy = l, reason
	t.finish()
}

// Acknowledge records that a person acted on the session (typed, sent a
// prompt, attached): an unanswered bell is answered and Done becomes Idle.
func (t *Tracker) Acknowledge() {
	t.mu.Lock()
	t.attention, t.worked = "", false
	t.finish()
}

// finish recomputes the state, unlocks and reports a transition.
func (t *Tracker) finish() {
	st, why := t.resolveLocked()
	if st == Working {
		t.worked = true
	}
	if st == Idle && t.worked {
		st = Done
	}
	prog := -1
	if t.progress == ProgressNormal {
		prog = t.progVal
	}
	next := Snapshot{State: st, Since: t.cur.Since, Detail: why, Title: t.title, Progress: prog}
	prev := t.cur
	changed := next.State != prev.State
	if changed {
		next.Since = t.now()
	}
	t.cur = next
	cb := t.onChange
	t.mu.Unlock()
	if changed && cb != nil {
		cb(Change{From: prev, To: next})
	}
}

// resolveLocked orders the signals: the process lifecycle, then an error
// the child reported, then a request for a person, then a dialog on
// screen, then work in progress, then the remaining screen and title
// rules, then the agent's default.
func (t *Tracker) resolveLocked() (State, string) {
	switch t.life {
	case LifeCrashed:
		return Errored, t.lifeWhy
	case LifeExited:
		return Exited, t.lifeWhy
	}
	if t.progress == ProgressError {
		return Errored, "progress reported an error"
	}
	if t.attention != "" {
		return t.attnState, t.attention
	}
	if t.screenSt == NeedsYou {
		return NeedsYou, t.screenWhy
	}
	if t.workingLocked() {
		return Working, t.title
	}
	if t.screenSt != Unknown {
		return t.screenSt, t.screenWhy
	}
	if t.titleSt != Unknown {
		return t.titleSt, t.title
	}
	if t.progress == ProgressPaused {
		return Idle, "progress paused"
	}
	return t.rules.Default, ""
}
