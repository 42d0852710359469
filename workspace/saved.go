package workspace

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// SavedOutput is what a paused session printed before it stopped, for
// reading it without restarting the session: the scrollback saved when a
// shell session paused (state/scrollback/<ws>/<sid>.bin), replayed into
// an emulator of cols×rows, as styled lines (the scrolled-off lines, then
// the screen without its blank bottom rows). ok is false when nothing was
// saved (agent sessions keep no scrollback; their history lives with the
// agent). A session that runs has no saved output: read it live.
func (m *Manager) SavedOutput(id string, cols, rows int) (lines []string, ok bool, err error) {
	m.mu.Lock()
	_, live := m.sessions[id]
	rec, found := m.findRecordLocked(id)
	m.mu.Unlock()
	switch {
	case live:
		return nil, false, fmt.Errorf("session %s is running: read it live", id)
	case !found:
		return nil, false, fmt.Errorf("%w: %s", ErrSessionNotFound, id)
	case rec.ScrollbackFile == "":
		return nil, false, nil
	}
	b, err := os.ReadFile(rec.ScrollbackFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	t := NewTerminal(cols, rows, m.log)
	defer t.Close()
	t.Feed(b)
	lines = t.ScrollbackStyled()
	screen := strings.Split(t.Render(), "\n")
	for len(screen) > 0 && strings.TrimSpace(ansi.Strip(screen[len(screen)-1])) == "" {
		screen = screen[:len(screen)-1]
	}
	return append(lines, screen...), true, nil
}
