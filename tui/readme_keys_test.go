package tui_test

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	"charm.land/bubbles/v2/key"
	"github.com/alice-trading/alice/core/channel"
	"github.com/alice-trading/alice/tui/internal/tuitest"
	"github.com/stretchr/testify/require"
)

// README's "Using it" section names each pane's keys in backticks; every
// key it names must be a real binding of that pane (or a global one), so
// the README cannot drift from the UI (it once said `g` for git while the
// pane used `l`).
func TestReadmeKeysMatchThePanes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	h := tuitest.NewHarness(t, 120, 40)
	keymap := h.M.KeyMap()
	km := reflect.Indirect(reflect.ValueOf(keymap))
	common := map[string]bool{}
	collect(km.FieldByName("Global"), common, map[uintptr]bool{})
	collect(km.FieldByName("Overlay"), common, map[uintptr]bool{})
	collect(km.FieldByName("Dialog"), common, map[uintptr]bool{})

	sections := paneSections(string(raw))
	require.Len(t, sections, len(h.M.Tabs), "README describes every pane")
	code := regexp.MustCompile("`([^`]+)`")
	keyLike := regexp.MustCompile(`^(?:(?:ctrl|alt|shift)\+\S+|[a-zA-Z0-9?/\[\]+\-]|enter|esc|tab|space|del|backspace|pgup|pgdn|home|end|f1)$`)
	var missing []string
	for _, tab := range h.M.Tabs {
		body, ok := sections[tab.Name]
		require.True(t, ok, "README has a bullet for %s", tab.Name)
		have := map[string]bool{}
		for k := range common {
			have[k] = true
		}
		collect(reflect.ValueOf(tab.P), have, map[uintptr]bool{})
		if a, ok := tab.P.(interface{ AllKeys() []key.Binding }); ok {
			collect(reflect.ValueOf(a.AllKeys()), have, map[uintptr]bool{})
		}
		if f := km.FieldByName(tab.Name); f.IsValid() {
			collect(f, have, map[uintptr]bool{})
		}
		if tab.Name == "Workspaces" {
			collect(km.FieldByName("Workspaces"), have, map[uintptr]bool{})
		}
		for _, m := range code.FindAllStringSubmatch(body, -1) {
			if !keyLike.MatchString(m[1]) {
				continue
			}
			k := m[1]
			if alias, ok := map[string]string{"del": "delete", "pgdn": "pgdown"}[k]; ok {
				k = alias
			}
			if strings.HasPrefix(k, "alt+") && len(k) == 5 && k[4] >= '1' && k[4] <= '9' {
				continue // go to pane N (global)
			}
			if !have[k] {
				missing = append(missing, tab.Name+": `"+m[1]+"`")
			}
		}
	}
	require.Empty(t, missing, "README names keys its pane does not have")
	// The first chat channel: README names it as the UI does.
	require.Contains(t, string(raw), "labelled \""+channel.DefaultLabel+"\"", "README names the default channel's label")
}

// paneSections splits README's "Using it" bullets by pane name.
func paneSections(readme string) map[string]string {
	out := map[string]string{}
	head := regexp.MustCompile(`^- \*\*([A-Za-z]+)\*\* \(` + "`alt\\+[1-9]`")
	var name string
	var body []string
	flush := func() {
		if name != "" {
			out[name] = strings.Join(body, "\n")
		}
	}
	for _, line := range strings.Split(readme, "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			flush()
			name, body = m[1], []string{line}
			continue
		}
		if name != "" && (strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "#")) {
			flush()
			name = ""
		}
		if name != "" {
			body = append(body, line)
		}
	}
	flush()
	return out
}

// collect adds every key of every key.Binding reachable from v (struct
// fields, pointers, slices), skipping interfaces (the host behind a pane
// would reach every other pane's keys).
func collect(v reflect.Value, into map[string]bool, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		collect(v.Elem(), into, seen)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(key.Binding{}) {
			if !v.CanInterface() {
				if !v.CanAddr() {
					return
				}
				v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem() // an unexported field
			}
			for _, k := range v.Interface().(key.Binding).Keys() {
				into[k] = true
			}
			return
		}
		for i := range v.NumField() {
			collect(v.Field(i), into, seen)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collect(v.Index(i), into, seen)
		}
	}
}
