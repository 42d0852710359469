package workspaces

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/stretchr/testify/require"
)

// Input read after a zoom's detach key comes back as the events the
// terminal reader would have made of it, in order.
func TestReplayInputDecodesWhatFollowedTheDetachKey(t *testing.T) {
	t.Parallel()
	require.Nil(t, replayInput(nil))
	cmd := replayInput([]byte("\x1b1ab\x1b[A\x1b\x1b\x1b\x1b[B"))
	require.NotNil(t, cmd)
	// tea.Sequence's message is an unexported slice of commands.
	seq := reflect.ValueOf(cmd())
	require.Equal(t, reflect.Slice, seq.Kind())
	var got []string
	for i := range seq.Len() {
		ev, ok := seq.Index(i).Interface().(tea.Cmd)().(uv.KeyPressEvent)
		require.True(t, ok)
		got = append(got, ev.String())
	}
	require.Equal(t, []string{"alt+1", "a", "b", "up", "esc", "esc", "esc", "down"}, got)
}
