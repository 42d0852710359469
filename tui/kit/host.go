package kit

import (
	"context"
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Host is what a pane needs from the root model: the shared look, keys,
// clock and context, and the root's overlays (dialog, progress, focus).
// The root model implements it; panes never see the root type.
type Host interface {
	// Styles is the current palette (rebuilt when the background changes).
	Styles() *Styles
	KeyMap() *KeyMap
	Clock() time.Time
	// AppContext ends when the program quits.
	AppContext() context.Context
	// OpenDialog shows a confirmation that ignores stray keys for a grace
	// period; onYes runs when the person confirms.
	OpenDialog(title, body string, onYes tea.Cmd)
	// OpenDialogWhile is OpenDialog for a decision that can be taken
	// elsewhere (another client, Telegram): the dialog closes with a note
	// as soon as valid reports false.
	OpenDialogWhile(title, body string, onYes tea.Cmd, valid func() bool)
	// BeginWork shows a spinner labelled label until EndWork(id).
	BeginWork(id, label string) tea.Cmd
	EndWork(id string)
	EndWorkPrefix(prefix string)
	// GoAndPress makes a palette action that focuses p and presses b.
	GoAndPress(p Pane, b key.Binding) func() tea.Cmd
	// Show focuses p's tab.
	Show(p Pane)
	// LoadStatus re-reads the status bar's listeners and provider.
	LoadStatus() tea.Cmd
	// Provider is the status bar's AI provider text.
	Provider() string
	// ReloadPortfolio re-reads the Portfolio pane.
	ReloadPortfolio() tea.Cmd
}

// Pane is what every pane implements; the root routes keys by focus.
//
// Optional extras a pane may implement (checked by type assertion):
//   - loader:         load() tea.Cmd, run at start-up (Init)
//   - actionProvider: Actions() []Action, listed in the command palette
//   - badger:         Badge() string, shown after the tab title ("(2)")
type Pane interface {
	SetSize(w, h int)
	Focus()
	Blur()
	Update(msg tea.Msg) tea.Cmd
	View() string
	ShortHelp() []key.Binding
	// Capturing reports that the pane wants every key (typing into an
	// input, an attached terminal), so global single-letter keys are off.
	Capturing() bool
}

// LinesPane is a Pane that can hand its view over as lines, exactly h of
// them (the rows of View, fitted to h). The root frames lines, so a pane
// whose screen is made of lines anyway (an attached session) saves
// joining them only to have them split again, several times per frame.
// The slice may be the pane's own: read it, do not keep or change it.
type LinesPane interface {
	ViewLines(h int) []string
}

// ErrDetached is the cause with which a client's AppContext ends when the
// person detaches (or the terminal goes away) from a core that keeps
// running: work the core does for that client, a chat turn, goes on.
var ErrDetached = errors.New("the client detached; the core keeps running")
