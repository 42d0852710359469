package watchlist

import (
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAddRemovePersist(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := Open(dir)
	items, err := s.List()
	require.NoError(t, err)
	require.Empty(t, items)

	_, err = s.Add(" aapl ", "")
	require.NoError(t, err)
	_, err = s.Add("BTC/USD", "crypto")
	require.NoError(t, err)
	items, err = s.Add("AAPL", "equity")
	require.NoError(t, err)
	require.Equal(t, []Item{{"AAPL", "equity"}, {"BTC/USD", "crypto"}}, items, "adding twice is a no-op")

	// A new store (a restart) reads the same list.
	again, err := Open(dir).List()
	require.NoError(t, err)
	require.Equal(t, items, again)

	items, err = s.Remove("aapl")
	require.NoError(t, err)
	require.Equal(t, []Item{{"BTC/USD", "crypto"}}, items)
	items, err = s.Remove("NOPE")
	require.NoError(t, err)
	require.Len(t, items, 1)
}

func TestBadInputLosesNothing(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	_, err := s.Add("MSFT", "")
	require.NoError(t, err)
	for _, bad := range []struct{ sym, class string }{{"", ""}, {"../etc", ""}, {"A B", ""}, {"MSFT", "bonds"}, {string(make([]byte, 30)), ""}} {
		_, err := s.Add(bad.sym, bad.class)
		require.Error(t, err, "%q/%q", bad.sym, bad.class)
	}
	items, err := s.List()
	require.NoError(t, err)
	require.Equal(t, []Item{{"MSFT", "equity"}}, items)

	for i := 0; len(items) < MaxItems; i++ {
		items, err = s.Add("S"+string(rune('A'+i/26))+string(rune('A'+i%26)), "")
		require.NoError(t, err)
	}
	_, err = s.Add("ONEMORE", "")
	require.ErrorContains(t, err, "at most")

	require.NoError(t, os.WriteFile(s.Path(), []byte("{broken"), 0o600))
	_, err = s.List()
	require.ErrorContains(t, err, s.Path())
	_, err = s.Add("X", "")
	require.Error(t, err, "a broken file is never overwritten")
	b, _ := os.ReadFile(s.Path())
	require.Equal(t, "{broken", string(b))
}

func TestConcurrentAddsKeepEveryItem(t *testing.T) {
	t.Parallel()
	s := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Add("T"+string(rune('A'+i)), "")
			require.NoError(t, err)
		}()
	}
	wg.Wait()
	items, err := s.List()
	require.NoError(t, err)
	require.Len(t, items, 20)
}
