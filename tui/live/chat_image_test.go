package live

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alice-trading/alice/app/apptest"
)

func TestMediaPathStaysInTheDataDir(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	data := a.Paths().Data
	require.Equal(t, filepath.Join(data, "media", "ab.png"), c.mediaPath("media/ab.png"))
	for _, ref := range []string{"../../etc/passwd", "..", "https://example.com/x.png", "/abs/x.png", ""} {
		require.Equal(t, ref, c.mediaPath(ref), "shown as written: %q", ref)
	}
}
