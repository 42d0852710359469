package inbox

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadStateRoundTripAndErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inbox", "read.json")
	r := NewReadState(path)

	seen, err := r.Load()
	require.NoError(t, err, "no file yet: nothing seen")
	require.Empty(t, seen)

	require.NoError(t, r.Save([]string{"b", "a"}))
	seen, err = NewReadState(path).Load() // a fresh value, as after a restart
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"a": true, "b": true}, seen)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.JSONEq(t, `{"seen":["a","b"]}`, string(raw))

	require.NoError(t, r.Save([]string{"b"}), "the whole set is replaced: deleted entries drop out")
	seen, err = r.Load()
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"b": true}, seen)

	require.NoError(t, os.WriteFile(path, []byte(`{"seen":[`), 0o600))
	_, err = r.Load()
	require.ErrorContains(t, err, path, "a torn file names itself")
	require.NoError(t, r.Save([]string{"c"}), "and is replaced by the next save")
	seen, err = r.Load()
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"c": true}, seen)
}
