package settings_test

import (
	"strings"
	"testing"

	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"
)

// requireHint checks that the pane's last row that is not blank is the
// form's key hints.
func requireHint(t *testing.T, screen string) {
	t.Helper()
	rows := frameRows(screen)
	for len(rows) > 1 && strings.Trim(rows[len(rows)-1], "│ ") == "" {
		rows = rows[:len(rows)-1]
	}
	require.Contains(t, rows[len(rows)-1], "│ tab/enter next field · shift+tab b", "the key-hint line stays\n%s", screen)
}

// frameRows are the screen rows inside the frame (the pane's rows).
func frameRows(screen string) []string {
	rows := strings.Split(screen, "\n")
	return rows[2 : len(rows)-3] // tab bar, top border; bottom border, footer, status bar
}

// focusedRow is the frame row holding the focused field's marker.
func focusedRow(t *testing.T, screen string) string {
	t.Helper()
	for _, r := range frameRows(screen) {
		if strings.Contains(r, "▸ ") {
			return r
		}
	}
	require.Fail(t, "no focused field on screen", "%s", screen)
	return ""
}

// A form taller than the pane shows a window onto it: the cron form's
// error (under the preview, at the bottom) at 80x24 is in view together
// with the focused field, and the key-hint line stays.
func TestFormWindowShowsErrorAt80x24(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Send(tuitest.WindowSize(80, 24))
	h.Key("]", "]", "a", "tab", "tab", "tab")
	h.TypeText("nonsense 日本")
	h.Key("ctrl+s")
	s := h.Screen()
	require.Contains(t, s, `✗ target "nonsense 日本": start with alice, oneshot or session`, s)
	require.Contains(t, focusedRow(t, s), "Runs in", s)
	requireHint(t, s)
	require.Contains(t, s, "↑ ", "rows hidden above are marked\n%s", s)
	golden.RequireEqual(t, []byte(s))
}

// At 40x12 every field of the profile and cron forms, in turn, is in view
// while focused, what is typed into it shows, and the hint line stays.
func TestFormWindowFollowsFocusAt40x12(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		open   []string
		fields int
	}{{"profile", []string{"a"}, 6}, {"cron", []string{"]", "]", "a"}, 5}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newSettingsHarness(t)
			h.Send(tuitest.WindowSize(40, 12))
			h.Key(tc.open...)
			for range tc.fields {
				s := h.Screen()
				focusedRow(t, s)
				requireHint(t, s)
				h.Key("tab")
			}
		})
	}
	h, _ := newSettingsHarness(t)
	h.Send(tuitest.WindowSize(40, 12))
	h.Key("a", "tab", "tab")
	h.TypeText("gpt-x")
	s := h.Screen()
	row := focusedRow(t, s)
	require.Contains(t, row, "Model", s)
	require.Contains(t, row, "gpt-x", s)
	require.Contains(t, s, "↓ ", "rows hidden below are marked\n%s", s)
	golden.RequireEqual(t, []byte(s))
}

// A form that fits is drawn whole, without markers (the goldens at 100x30
// and 160x45 hold it).
func TestFormFitsWithoutMarkers(t *testing.T) {
	t.Parallel()
	h, _ := newSettingsHarness(t)
	h.Send(tuitest.WindowSize(100, 30))
	h.Key("a")
	s := h.Screen()
	require.NotContains(t, s, "↑ ", s)
	require.NotContains(t, s, "↓ ", s)
	requireHint(t, s)
}
