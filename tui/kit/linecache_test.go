package kit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLineCacheTransformsOnlyChangedLines(t *testing.T) {
	t.Parallel()
	var calls []string
	f := func(s string) string { calls = append(calls, s); return strings.ToUpper(s) }
	var c LineCache
	tests := []struct {
		name, key string
		lines     []string
		want      []string
		called    []string
	}{
		{"first frame: every line", "w80", []string{"a", "b", "c"}, []string{"A", "B", "C"}, []string{"a", "b", "c"}},
		{"one line changed", "w80", []string{"a", "x", "c"}, []string{"A", "X", "C"}, []string{"x"}},
		{"nothing changed", "w80", []string{"a", "x", "c"}, []string{"A", "X", "C"}, nil},
		{"a line moved: compared by index", "w80", []string{"x", "a", "c"}, []string{"X", "A", "C"}, []string{"x", "a"}},
		{"key changed: every line", "w100", []string{"x", "a", "c"}, []string{"X", "A", "C"}, []string{"x", "a", "c"}},
		{"line count changed: every line", "w100", []string{"x", "a"}, []string{"X", "A"}, []string{"x", "a"}},
	}
	for _, tt := range tests {
		calls = nil
		got := c.Map(tt.key, tt.lines, f)
		require.Equal(t, tt.want, got, tt.name)
		require.Equal(t, tt.called, calls, tt.name)
	}
}
