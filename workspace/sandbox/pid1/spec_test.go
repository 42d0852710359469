package pid1

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpecRoundTrip(t *testing.T) {
	for _, s := range []Spec{
		{Path: "/bin/sh", Args: []string{"sh"}, UID: 0, GID: 0, Hide: []string{"/h"}},
		{
			Path: "/usr/bin/claude", Args: []string{"claude", "", "--x=1:2", "12:ab", "a\nb", "日本 🙂"},
			Dir: "/w/ws 1/é", Hide: []string{"/home/u/.config/alice", "/tmp/alice-1000"},
			Keep: []string{"/home/u/.local/share/alice/workspaces/w1"}, ReadOnly: []string{"/usr/bin/alice", "/x:y"},
			UID: 1000, GID: 1001, InitOnly: []string{"GOMAXPROCS=1", "GORACE=atexit_sleep_ms=0"},
		},
		{Probe: true, Hide: []string{"/tmp/p"}, Keep: []string{"/tmp/p/keep"}, Absent: []string{"/tmp/p/secret"}, UID: 123456789},
	} {
		got, err := Decode(s.Encode())
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := Spec{Path: "/bin/sh", Hide: []string{"/h"}}.Encode()
	for name, v := range map[string]string{
		"empty":        "",
		"no program":   Spec{Hide: []string{"/h"}}.Encode(),
		"torn":         good[:len(good)-2],
		"long length":  "999:path",
		"no colon":     "4path7:/bin/sh",
		"unknown key":  good + "3:foo1:x",
		"key only":     good + "3:dir",
		"bad uid":      good + "3:uid2:-1",
		"huge length":  "9999999999:path",
		"not a number": "x:path",
	} {
		_, err := Decode(v)
		assert.Error(t, err, name)
	}
}

func TestItoa(t *testing.T) {
	for _, n := range []int{0, 7, 10, 4096, -3, 1 << 40} {
		assert.Equal(t, strconv.Itoa(n), itoa(n))
	}
}

// TestImportsStayFew: the init's cost in every session rests on this
// package importing nothing but the runtime's first packages (the package
// doc): a new import such as path/filepath, strings or encoding/json
// makes Go run the init after the heavy package initialisers of alice,
// about 1 MB more per session.
func TestImportsStayFew(t *testing.T) {
	allowed := map[string]bool{"errors": true, "os": true, "os/signal": true, "runtime": true, "syscall": true, "time": true, "unsafe": true}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, f := range files {
		if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		require.NoError(t, err)
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			assert.True(t, allowed[p], "%s imports %s", f, p)
		}
	}
}
