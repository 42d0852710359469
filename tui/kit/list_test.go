package kit_test

import (
	"testing"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/stretchr/testify/assert"
)

func TestReplaceKeepsTheItem(t *testing.T) {
	t.Parallel()
	id := func(s string) string { return s }
	for _, tc := range []struct {
		name      string
		before    []string
		sel       int
		after     []string
		want      int
		wantOnKey string
	}{
		{"insert above", []string{"a", "b", "c"}, 1, []string{"new", "a", "b", "c"}, 2, "b"},
		{"re-sort", []string{"a", "b", "c"}, 0, []string{"c", "b", "a"}, 2, "a"},
		{"removed: neighbour at the same row", []string{"a", "b", "c"}, 1, []string{"a", "c"}, 1, "c"},
		{"removed last: clamped", []string{"a", "b", "c"}, 2, []string{"a", "b"}, 1, "b"},
		{"emptied", []string{"a"}, 0, nil, 0, ""},
		{"first load", nil, 0, []string{"a", "b"}, 0, "a"},
		{"out of range before", []string{"a"}, 5, []string{"a", "b"}, 1, "b"},
	} {
		items, sel := tc.before, tc.sel
		kit.Replace(&items, &sel, tc.after, id)
		assert.Equal(t, tc.want, sel, tc.name)
		assert.Equal(t, tc.wantOnKey, kit.KeyAt(items, id, sel), tc.name)
	}
	assert.Equal(t, 0, kit.Reselect([]string{"x", "y"}, id, "gone", 0), "a new search starts at its best match")
}
