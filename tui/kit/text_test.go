package kit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExpandTabsToTabStops(t *testing.T) {
	t.Parallel()
	require.Equal(t, "plain", ExpandTabs("plain"))
	require.Equal(t, "a       b", ExpandTabs("a\tb"))
	require.Equal(t, "        x\nab      y", ExpandTabs("\tx\nab\ty"), "columns restart on each line")
	// Wide runes count by their cells: "héllo 日本" is 10 cells, so the tab
	// reaches column 16.
	require.Equal(t, "héllo 日本      Tab 🚀", ExpandTabs("héllo 日本\tTab 🚀"))
	require.Equal(t, "12345678        9", ExpandTabs("12345678\t9"), "a tab on a stop goes to the next")
}
