package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// enterDelay separates typed text from the Enter that submits it: agent
// TUIs such as Claude Code treat text and a carriage return arriving in
// one burst as a paste and insert a newline instead of submitting.
// pasteEnterDelay is the longer wait after a bracketed paste, which Claude
// Code 2.1 keeps open for well over half a second (measured: 0.6 s is not
// enough, 1 s is).
const (
	enterDelay      = 150 * time.Millisecond
	pasteEnterDelay = 1200 * time.Millisecond
)

// MaxSendBytes bounds one Send.
const MaxSendBytes = 16 << 10

// ErrSessionNotInWorkspace is returned when a session id names a session
// of another workspace.
var ErrSessionNotInWorkspace = errors.New("session does not belong to this workspace")

// Send types text into a live session without attaching, then, when enter
// is set, presses Enter after a pause. One-line text is typed as keys;
// text with line breaks is pasted (bracketed when the child asked for it)
// so the breaks do not submit it early. It counts as a person acting on
// the session.
func (m *Manager) Send(sessionID, text string, enter bool) error {
	if len(text) > MaxSendBytes {
		return fmt.Errorf("text is %d bytes; at most %d can be sent at once", len(text), MaxSendBytes)
	}
	if text == "" && !enter {
		return errors.New("nothing to send: give text, or enter to press Enter")
	}
	s, ok := m.Session(sessionID)
	if !ok {
		return fmt.Errorf("%w: %s (start or resume it first)", ErrSessionNotFound, sessionID)
	}
	if st, _ := s.State(); st != StateRunning && st != StateStarting && st != StateRestarting {
		return fmt.Errorf("%w: %s is %s", ErrSessionNotRunning, s.Name(), st)
	}
	m.AcknowledgeAgent(s.ID())
	delay := enterDelay
	switch {
	case strings.ContainsAny(text, "\r\n"):
		s.Paste(text)
		delay = pasteEnterDelay
	case text != "":
		if err := s.Input([]byte(text)); err != nil {
			return err
		}
	}
	if enter {
		if text != "" {
			time.Sleep(delay)
		}
		if err := s.Input([]byte("\r")); err != nil {
			return err
		}
	}
	return nil
}

// ResolveSession finds a live session of a workspace by id or by name
// (c1, x2, sh1).
func (m *Manager) ResolveSession(wsID, idOrName string) (*Session, error) {
	w, ok := m.Get(wsID)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrWorkspaceNotFound, wsID)
	}
	if s, ok := m.Session(idOrName); ok {
		if s.WorkspaceID() != w.ID {
			return nil, fmt.Errorf("%w: %s", ErrSessionNotInWorkspace, idOrName)
		}
		return s, nil
	}
	for _, s := range m.Sessions(w.ID) {
		if s.Name() == idOrName {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: no live session %q in %s", ErrSessionNotFound, idOrName, w.Tag)
}

// readyQuiet is how long an agent must have been silent, after drawing
// something, before a first prompt is typed into it.
const readyQuiet = 700 * time.Millisecond

// WaitReady blocks until a session has drawn its first screen and gone
// quiet (so a first prompt is not typed into a half-started TUI), the
// session stops, ctx ends or timeout passes. It reports whether it saw
// the session ready.
func (m *Manager) WaitReady(ctx context.Context, sessionID string, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-deadline.C:
			return false
		case <-tk.C:
		}
		t, ok := m.status.get(sessionID)
		if !ok {
			return false
		}
		if st, _ := t.s.State(); st != StateRunning {
			if st == StateStarting || st == StateRestarting {
				continue
			}
			return false
		}
		last := t.lastOut.Load()
		if last == 0 || time.Since(time.Unix(0, last)) < readyQuiet {
			continue
		}
		if t.s.Title() != "" || strings.TrimSpace(strings.Join(t.s.ScreenText(-1), "")) != "" {
			return true
		}
	}
}
