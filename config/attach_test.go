package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// What is saved is what loads: an SSH port of 0 (any free port) stays 0
// instead of coming back as the default 2222.
func TestAttachRoundTrip(t *testing.T) {
	t.Parallel()
	for _, port := range []int{0, 2222, 2200} {
		s := NewStore(t.TempDir())
		want := DefaultAttach()
		want.SSH.Enabled, want.SSH.Port = true, port
		require.NoError(t, Save(s, AttachFile, want))
		got, err := s.Attach()
		require.NoError(t, err)
		require.Equal(t, want, got, "port %d", port)
	}
}
