package kit

import (
	"image/color"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Styles holds every colour and style the UI uses; nothing else in tui
// names a colour. It is rebuilt when the terminal reports its background.
type Styles struct {
	Dark bool

	App         lipgloss.Style
	Pane        lipgloss.Style
	PaneFocused lipgloss.Style
	// Frame and FrameFocused colour the frame's border runes.
	Frame        lipgloss.Style
	FrameFocused lipgloss.Style
	Title        lipgloss.Style
	TitleDim     lipgloss.Style
	Muted        lipgloss.Style
	Text         lipgloss.Style
	Accent       lipgloss.Style
	Selected     lipgloss.Style
	Profit       lipgloss.Style
	Loss         lipgloss.Style
	Warn         lipgloss.Style
	Error        lipgloss.Style
	// Alert is a state that must not be missed (trading halted): light
	// text on red.
	Alert     lipgloss.Style
	User      lipgloss.Style
	Assistant lipgloss.Style
	Tool      lipgloss.Style
	Unread    lipgloss.Style
	StatusBar lipgloss.Style
	StatusKey lipgloss.Style
	Dialog    lipgloss.Style
	Help      lipgloss.Style
	Chart     lipgloss.Style
	// Input styles the chat's multi-line editor.
	Input textarea.Styles
}

// NewStyles builds the palette for a dark or light background.
func NewStyles(dark bool) Styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(darkHex)) }
	fg := c("#1f2328", "#e6edf3")
	muted := c("#6e7781", "#8b949e")
	accent := c("#0550ae", "#58a6ff")
	border := c("#d0d7de", "#30363d")
	green := c("#116329", "#3fb950")
	red := c("#a40e26", "#f85149")
	yellow := c("#7d4e00", "#d29922")
	purple := c("#6639ba", "#bc8cff")
	selBg := c("#ddf4ff", "#1f3a5f")
	barBg := c("#eaeef2", "#161b22")

	input := textarea.Styles{
		Focused: textarea.StyleState{Base: lipgloss.NewStyle(), Text: lipgloss.NewStyle().Foreground(fg),
			Prompt: lipgloss.NewStyle().Foreground(accent), Placeholder: lipgloss.NewStyle().Foreground(muted),
			CursorLine: lipgloss.NewStyle(), EndOfBuffer: lipgloss.NewStyle().Foreground(muted),
			Selection: lipgloss.NewStyle().Background(selBg)},
		Blurred: textarea.StyleState{Base: lipgloss.NewStyle(), Text: lipgloss.NewStyle().Foreground(muted),
			Prompt: lipgloss.NewStyle().Foreground(muted), Placeholder: lipgloss.NewStyle().Foreground(muted),
			CursorLine: lipgloss.NewStyle().Foreground(muted), EndOfBuffer: lipgloss.NewStyle().Foreground(muted),
			Selection: lipgloss.NewStyle().Background(selBg)},
		Cursor: textarea.CursorStyle{Color: accent, Shape: tea.CursorBlock},
	}
	pane := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(border).Padding(0, 1)
	return Styles{
		Dark:         dark,
		App:          lipgloss.NewStyle().Foreground(fg),
		Pane:         pane,
		PaneFocused:  pane.BorderForeground(accent),
		Frame:        lipgloss.NewStyle().Foreground(border),
		FrameFocused: lipgloss.NewStyle().Foreground(accent),
		Title:        lipgloss.NewStyle().Bold(true).Foreground(accent),
		TitleDim:     lipgloss.NewStyle().Bold(true).Foreground(muted),
		Muted:        lipgloss.NewStyle().Foreground(muted),
		Text:         lipgloss.NewStyle().Foreground(fg),
		Accent:       lipgloss.NewStyle().Foreground(accent),
		Selected:     lipgloss.NewStyle().Background(selBg).Foreground(fg).Bold(true),
		Profit:       lipgloss.NewStyle().Foreground(green),
		Loss:         lipgloss.NewStyle().Foreground(red),
		Warn:         lipgloss.NewStyle().Foreground(yellow),
		Error:        lipgloss.NewStyle().Foreground(red).Bold(true),
		Alert:        lipgloss.NewStyle().Background(red).Foreground(c("#ffffff", "#0d1117")).Bold(true),
		User:         lipgloss.NewStyle().Foreground(accent).Bold(true),
		Assistant:    lipgloss.NewStyle().Foreground(purple).Bold(true),
		Tool:         lipgloss.NewStyle().Foreground(muted),
		Unread:       lipgloss.NewStyle().Foreground(accent).Bold(true),
		StatusBar:    lipgloss.NewStyle().Background(barBg).Foreground(fg),
		StatusKey:    lipgloss.NewStyle().Background(barBg).Foreground(accent).Bold(true),
		Dialog:       lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(yellow).Padding(1, 2),
		Help:         lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(1, 2),
		Chart:        lipgloss.NewStyle().Foreground(green),
		Input:        input,
	}
}
