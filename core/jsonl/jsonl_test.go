package jsonl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestHealTable(t *testing.T) {
	cases := []struct {
		name      string
		content   string
		want      string
		wantTorn  string // content of the .torn file ("" = none)
		wantCut   int64
		salvaged  bool
		untouched bool
	}{
		{name: "empty", content: "", want: "", untouched: true},
		{name: "clean", content: "{\"a\":1}\n{\"a\":2}\n", want: "{\"a\":1}\n{\"a\":2}\n", untouched: true},
		{name: "torn object", content: "{\"a\":1}\n{\"a\":", want: "{\"a\":1}\n", wantTorn: "{\"a\":\n", wantCut: 5},
		{name: "only a fragment", content: "{\"a\"", want: "", wantTorn: "{\"a\"\n", wantCut: 4},
		{name: "complete value without newline is salvaged", content: "{\"a\":1}\n{\"a\":2}", want: "{\"a\":1}\n{\"a\":2}\n", salvaged: true},
		{name: "garbage after last newline", content: "{\"a\":1}\n\x00\x00\x00", want: "{\"a\":1}\n", wantTorn: "\x00\x00\x00\n", wantCut: 3},
		{name: "corrupt middle line is kept", content: "{\"a\":1}\nnot json\n{\"a\":3}\n{", want: "{\"a\":1}\nnot json\n{\"a\":3}\n", wantTorn: "{\n", wantCut: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x.jsonl")
			if err := os.WriteFile(p, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := Open(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep := f.HealReport()
			if rep.Cut != c.wantCut || rep.Salvaged != c.salvaged || rep.Healed() == c.untouched {
				t.Fatalf("report = %+v, want cut %d salvaged %v", rep, c.wantCut, c.salvaged)
			}
			got, _ := os.ReadFile(p)
			if string(got) != c.want {
				t.Fatalf("file = %q, want %q", got, c.want)
			}
			torn, err := os.ReadFile(p + TornSuffix)
			if c.wantTorn == "" {
				if err == nil {
					t.Fatalf("unexpected torn file %q", torn)
				}
			} else if string(torn) != c.wantTorn {
				t.Fatalf("torn = %q, want %q", torn, c.wantTorn)
			}
			// The next append starts on a clean line.
			if err := f.AppendJSON(map[string]int{"n": 9}); err != nil {
				t.Fatal(err)
			}
			got, _ = os.ReadFile(p)
			if !strings.HasSuffix(string(got), "\n{\"n\":9}\n") && string(got) != "{\"n\":9}\n" {
				t.Fatalf("after append: %q", got)
			}
		})
	}
}

func TestHealTwiceKeepsBothFragments(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(p, []byte("{\"a\":1}\n{\"b\""), 0o600)
	if _, err := Heal(p); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"c\":[1,")
	f.Close()
	if _, err := Heal(p); err != nil {
		t.Fatal(err)
	}
	torn, _ := os.ReadFile(p + TornSuffix)
	if string(torn) != "{\"b\"\n{\"c\":[1,\n" {
		t.Fatalf("torn = %q", torn)
	}
}

// FuzzHeal checks the healing invariants on arbitrary bytes: afterwards the
// file is empty or ends with a newline; every complete line before the
// tear is kept byte for byte; kept + cut bytes equal the original.
func FuzzHeal(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"a\":"))
	f.Add([]byte("{}"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte("x\ny\nz"))
	f.Add([]byte("{\"a\":1}\n\"str\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := Heal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if len(got) > 0 && got[len(got)-1] != '\n' {
			t.Fatalf("healed file does not end with a newline: %q", got)
		}
		complete := data[:bytes.LastIndexByte(data, '\n')+1]
		if !bytes.HasPrefix(got, complete) {
			t.Fatalf("complete lines changed: %q -> %q", data, got)
		}
		tail := data[len(complete):]
		switch {
		case len(tail) == 0:
			if rep.Healed() || !bytes.Equal(got, data) {
				t.Fatalf("clean file touched: %+v %q", rep, got)
			}
		case rep.Salvaged:
			if !bytes.Equal(got, append(append([]byte{}, data...), '\n')) || !json.Valid(bytes.TrimSpace(tail)) {
				t.Fatalf("bad salvage %q -> %q", data, got)
			}
		default:
			if !bytes.Equal(got, complete) || rep.Cut != int64(len(tail)) {
				t.Fatalf("cut wrong: %q -> %q (%+v)", data, got, rep)
			}
			torn, _ := os.ReadFile(p + TornSuffix)
			if !bytes.Equal(torn, append(bytes.ReplaceAll(tail, []byte{'\n'}, []byte{' '}), '\n')) {
				t.Fatalf("torn file %q, tail %q", torn, tail)
			}
		}
		// Healing is idempotent.
		if rep2, err := Heal(p); err != nil || rep2.Healed() {
			t.Fatalf("second heal: %+v %v", rep2, err)
		}
	})
}

func TestConcurrentWritersKeepLinesWhole(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.jsonl")
	f, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A second File on the same path (another store instance) must not
	// interleave with the first either: O_APPEND single writes.
	g, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const writers, per = 8, 200
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			target := f
			if w%2 == 1 {
				target = g
			}
			pad := strings.Repeat("x", 100+w*500) // lines of different sizes
			for i := 0; i < per; i++ {
				if err := target.AppendJSON(map[string]any{"w": w, "i": i, "pad": pad}, map[string]any{"w": w, "i": i, "second": true}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	n := 0
	err = f.Forward(func(line []byte) bool {
		var v struct {
			W, I   int
			Second bool
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("line %d is not whole: %q", n, clipBytes(line))
		}
		seen[fmt.Sprint(v.W, v.I, v.Second)] = true
		n++
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != writers*per*2 || len(seen) != n {
		t.Fatalf("lines = %d distinct %d, want %d", n, len(seen), writers*per*2)
	}
}

func clipBytes(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

func TestForeignFragmentMidRunIsTerminatedNotCut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.jsonl")
	f, _ := Open(p, Options{})
	require1(t, f.AppendJSON(1))
	fd, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	fd.WriteString(`{"half":`)
	fd.Close()
	require1(t, f.AppendJSON(2))
	got, _ := os.ReadFile(p)
	if string(got) != "1\n{\"half\":\n2\n" {
		t.Fatalf("got %q", got)
	}
	lines, _ := Tail(p, 0, func(l []byte) bool { return json.Valid(l) })
	if len(lines) != 2 {
		t.Fatalf("valid lines %q", lines)
	}
}

func require1(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestAppendRefusesNewlines(t *testing.T) {
	f, _ := Open(filepath.Join(t.TempDir(), "n.jsonl"), Options{})
	if err := f.Append([]byte("{}\n{}")); err != ErrNewline {
		t.Fatalf("err = %v", err)
	}
}

// TestBackwardMatchesForward writes lines of random lengths (some longer
// than a block) and checks the backward scan returns exactly the forward
// lines in reverse, ignoring a partial trailing write.
func TestBackwardMatchesForward(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		p := filepath.Join(t.TempDir(), fmt.Sprintf("b%d.jsonl", trial))
		var want []string
		var buf bytes.Buffer
		n := r.IntN(300)
		for i := 0; i < n; i++ {
			size := r.IntN(2000)
			if r.IntN(40) == 0 {
				size = blockSize + r.IntN(3*blockSize)
			}
			if r.IntN(15) == 0 {
				buf.WriteString("\n") // blank lines are skipped
			}
			line := fmt.Sprintf(`{"i":%d,"p":"%s"}`, i, strings.Repeat("y", size))
			want = append(want, line)
			buf.WriteString(line + "\n")
		}
		if trial%3 == 0 {
			buf.WriteString(`{"partial":`) // an append in progress
		}
		os.WriteFile(p, buf.Bytes(), 0o600)
		var got []string
		if err := Each(p, func(l []byte) bool { got = append(got, string(l)); return true }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("trial %d: got %d lines, want %d", trial, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[len(want)-1-i] {
				t.Fatalf("trial %d: line %d differs", trial, i)
			}
		}
		var fwd int
		Forward(p, func([]byte) bool { fwd++; return true })
		if fwd != len(want) {
			t.Fatalf("forward saw %d lines, want %d", fwd, len(want))
		}
	}
}

func TestTailAndSince(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.jsonl")
	f, _ := Open(p, Options{})
	for i := 1; i <= 10; i++ {
		typ := "msg"
		if i == 4 || i == 7 {
			typ = "boundary"
		}
		f.AppendJSON(map[string]any{"i": i, "type": typ})
	}
	ids := func(lines [][]byte) []int {
		var out []int
		for _, l := range lines {
			var v struct{ I int }
			json.Unmarshal(l, &v)
			out = append(out, v.I)
		}
		return out
	}
	isBoundary := func(l []byte) bool { return bytes.Contains(l, []byte(`"boundary"`)) }
	odd := func(l []byte) bool {
		var v struct{ I int }
		json.Unmarshal(l, &v)
		return v.I%2 == 1
	}
	cases := []struct {
		name string
		get  func() ([][]byte, error)
		want []int
	}{
		{"last 3", func() ([][]byte, error) { return f.Tail(3, nil) }, []int{8, 9, 10}},
		{"all", func() ([][]byte, error) { return f.Tail(0, nil) }, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"more than there are", func() ([][]byte, error) { return f.Tail(50, nil) }, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"last 2 odd", func() ([][]byte, error) { return f.Tail(2, odd) }, []int{7, 9}},
		{"since last boundary", func() ([][]byte, error) { return f.Since(isBoundary) }, []int{7, 8, 9, 10}},
		{"since a boundary that never occurs", func() ([][]byte, error) {
			return f.Since(func([]byte) bool { return false })
		}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines, err := c.get()
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(lines); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	missing, err := Tail(filepath.Join(t.TempDir(), "none.jsonl"), 5, nil)
	if err != nil || len(missing) != 0 {
		t.Fatalf("missing file: %v %v", missing, err)
	}
}

func TestRewrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.jsonl")
	f, _ := Open(p, Options{Sync: true})
	f.AppendJSON(1, 2, 3)
	err := f.Rewrite(func(old *File) ([][]byte, error) {
		var keep [][]byte
		old.Forward(func(l []byte) bool {
			if string(l) != "2" {
				keep = append(keep, append([]byte{}, l...))
			}
			return true
		})
		return keep, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "1\n3\n" {
		t.Fatalf("got %q", got)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
}
