package kit

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Action is one thing the command palette (ctrl+p) can do. Every feature
// should be reachable here, so panes contribute their actions by
// implementing actionProvider; the root adds the global ones.
type Action struct {
	ID    string // stable, unique: "chat.compact", "pane.inbox"
	Title string // what the user reads: "Compact this session"
	Group string // shown dimmed: "Chat", "Go to", "App"
	// Key is the binding shown next to the title ("ctrl+s"); empty when
	// the action has no direct key.
	Key string
	// Keywords are extra words the fuzzy filter matches ("exit" for Quit).
	Keywords string
	// Run executes on the UI goroutine inside Update (it may change the
	// model, e.g. focus a pane) and returns the Cmd that does the IO.
	Run func() tea.Cmd
}

// KeyOf is the help key of a binding, for Action.Key.
func KeyOf(b key.Binding) string { return b.Help().Key }

// Press runs a pane binding as if its first key were typed, so a palette
// entry does exactly what the key does.
func Press(p Pane, b key.Binding) tea.Cmd {
	keys := b.Keys()
	if len(keys) == 0 {
		return nil
	}
	return p.Update(keyPress(keys[0]))
}

// keyPress builds the KeyPressMsg for a binding key string ("ctrl+s",
// "enter", "a").
func keyPress(k string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(k, "ctrl+"):
			mod |= tea.ModCtrl
			k = k[5:]
			continue
		case strings.HasPrefix(k, "alt+"):
			mod |= tea.ModAlt
			k = k[4:]
			continue
		case strings.HasPrefix(k, "shift+"):
			mod |= tea.ModShift
			k = k[6:]
			continue
		}
		break
	}
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"home": tea.KeyHome, "end": tea.KeyEnd, "backspace": tea.KeyBackspace}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(k)[0]
	if mod == 0 {
		return tea.KeyPressMsg{Code: r, Text: k}
	}
	return tea.KeyPressMsg{Code: r, Mod: mod}
}
