package app

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLiveTokenKeepsTheLastGoodValue(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	val, err := "a", error(nil)
	lt := newLiveToken("a", func() (string, error) { return val, err })
	lt.now = func() time.Time { return now }
	lt.checked = now
	require.Equal(t, "a", lt.Get())
	val = "b"
	require.Equal(t, "a", lt.Get(), "re-read at most once a second")
	now = now.Add(time.Second)
	require.Equal(t, "b", lt.Get())
	val, err = "", errors.New("malformed mcp.json")
	now = now.Add(time.Second)
	require.Equal(t, "b", lt.Get(), "a broken file never opens the port")
}
