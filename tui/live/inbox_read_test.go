package live

import (
	"os"
	"testing"

	"github.com/alice-trading/alice/app/apptest"
	"github.com/alice-trading/alice/tui/inbox"
	"github.com/stretchr/testify/require"
)

var _ inbox.InboxReadCore = (*Core)(nil)

func TestInboxReadMarksPersistInTheDataDir(t *testing.T) {
	t.Parallel()
	a := apptest.Start(t, nil)
	c := New(a)
	seen, err := c.InboxSeen()
	require.NoError(t, err)
	require.Empty(t, seen)
	require.NoError(t, c.SaveInboxSeen([]string{"e1", "e2"}))
	seen, err = New(a).InboxSeen()
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"e1": true, "e2": true}, seen)
	_, err = os.Stat(a.Paths().DataPath("inbox", "read.json"))
	require.NoError(t, err, "stored next to the inbox entries")
}
