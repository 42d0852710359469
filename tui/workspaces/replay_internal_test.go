package workspaces

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"
)

// Input read after a zoom's detach key comes back to the UI (TakeReplay)
// as the keys and pastes the terminal reader would have made of it, in
// order.
func TestReplayInputDecodesWhatFollowedTheDetachKey(t *testing.T) {
	t.Parallel()
	p := &Pane{}
	p.replayInput(nil)
	require.Empty(t, p.TakeReplay())
	p.replayInput([]byte("\x1b1ab\x1b[A\x1b\x1b\x1b\x1b[B\x1b[200~pasted\rtext\x1b[201~c"))
	var got []string
	for _, m := range p.TakeReplay() {
		switch m := m.(type) {
		case tea.KeyPressMsg:
			got = append(got, m.String())
		case tea.PasteMsg:
			got = append(got, "paste "+m.Content)
		default:
			t.Fatalf("replayed %T %v", m, m)
		}
	}
	require.Equal(t, []string{"alt+1", "a", "b", "up", "esc", "esc", "esc", "down", "paste pasted\rtext", "c"}, got)
	require.Empty(t, p.TakeReplay(), "taken once")
}
