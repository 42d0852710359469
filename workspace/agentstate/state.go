// Package agentstate tells what an agent CLI running in a workspace
// session is doing — working, waiting for a person, idle, done, errored or
// exited — from what the child tells its terminal: window titles (OSC 0/2;
// Claude Code puts a spinner in front of its title while it works), OSC 9;4
// progress, the bell and OSC 9 / 777 / 99 notifications. Per-agent screen
// rules, kept as data (rules/<agent>.json, overridable from the config
// dir), are the fallback for agents that signal nothing.
//
// A Tracker is fed the raw output batches of one session, its process
// lifecycle and (periodically) its screen text; it reports transitions
// through a callback. It does no IO and starts no goroutine.
package agentstate

import "fmt"

// State is what an agent session is doing, as a person would describe it.
type State int

// States, ordered roughly by how much they need attention.
const (
	Unknown  State = iota // nothing known yet
	Idle                  // at its prompt, nothing new since you last looked
	Working               // busy: spinner title, progress, "esc to interrupt"
	NeedsYou              // asked for a person: bell, notification, a permission dialog
	Done                  // finished a piece of work since you last looked
	Errored               // crashed, failed to start, or shows an error
	Exited                // the process ended cleanly or was stopped
)

var stateNames = [...]string{"unknown", "idle", "working", "needs-you", "done", "errored", "exited"}

// String is the wire name ("needs-you").
func (s State) String() string {
	if s < 0 || int(s) >= len(stateNames) {
		return fmt.Sprintf("state(%d)", int(s))
	}
	return stateNames[s]
}

// ParseState reads a wire name.
func ParseState(name string) (State, error) {
	for i, n := range stateNames {
		if n == name {
			return State(i), nil
		}
	}
	return Unknown, fmt.Errorf("unknown state %q (want one of idle, working, needs-you, done, errored, exited)", name)
}

// MarshalText makes State a JSON string.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText parses a JSON string.
func (s *State) UnmarshalText(b []byte) error {
	v, err := ParseState(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Glyph is a one-cell symbol that differs by shape, not only colour, so
// the state reads on a monochrome terminal and for colour-blind people.
func (s State) Glyph() string {
	switch s {
	case Working:
		return "◐"
	case NeedsYou:
		return "!"
	case Done:
		return "✓"
	case Errored:
		return "✗"
	case Exited:
		return "■"
	case Idle:
		return "○"
	}
	return "·"
}

// Alerting reports whether entering s should notify a person.
func (s State) Alerting() bool { return s == NeedsYou || s == Done || s == Errored }
