package git

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An OpenAlice commit.json is imported once into commits.jsonl and left
// exactly as it was; later pushes append one line each.
func TestOpenAliceHistoryImportedOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "commit.json")
	parent := "aaaa0001"
	old := history{Commits: []Commit{
		{Hash: "aaaa0001", Message: "first", Operations: []Operation{buy("AAPL", "1", "MKT")}, Results: []Result{{Action: PlaceOrder, Success: true, Status: StatusFilled}}, Timestamp: time.Unix(1, 0).UTC()},
		{Hash: "aaaa0002", ParentHash: &parent, Message: "second", Operations: []Operation{buy("MSFT", "2", "MKT")}, Results: []Result{{Action: PlaceOrder, Success: true, Status: StatusFilled}}, Timestamp: time.Unix(2, 0).UTC()},
	}}
	h := "aaaa0002"
	old.Head = &h
	raw, err := json.MarshalIndent(old, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, raw, 0o600))

	f := newFake()
	g := open(t, path, f)
	st := g.Status()
	assert.Equal(t, 2, st.CommitCount)
	assert.Equal(t, "aaaa0002", st.Head)
	_, err = g.Stage(buy("NVDA", "1", "MKT"))
	require.NoError(t, err)
	p, err := g.Commit("third")
	require.NoError(t, err)
	_, _, err = g.Push(context.Background(), p.Hash)
	require.NoError(t, err)

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(after), "commit.json is kept as it was")
	lines := strings.Split(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(dir, "commits.jsonl"))))), "\n")
	assert.Len(t, lines, 3, "two imported commits and the new one")

	g2 := open(t, path, f) // reopening does not import again
	assert.Equal(t, 3, g2.Status().CommitCount)
	assert.Equal(t, p.Hash, g2.Status().Head)
	c, ok := g2.Show("aaaa0001")
	require.True(t, ok)
	assert.Equal(t, "first", c.Message)
	lines = strings.Split(strings.TrimSpace(string(must(os.ReadFile(filepath.Join(dir, "commits.jsonl"))))), "\n")
	assert.Len(t, lines, 3)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// BenchmarkPush measures a push (stage, commit, push, history append)
// after 10 and after 100,000 commits: the append-only history makes its
// cost independent of the history's length.
func BenchmarkPush(b *testing.B) {
	for _, n := range []int{10, 100_000} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			seed := make([]byte, 0, n*200)
			for i := 0; i < n; i++ {
				c := Commit{Hash: fmt.Sprintf("%08x", i), Message: "seed", Operations: []Operation{buy("AAPL", "1", "MKT")},
					Results: []Result{{Action: PlaceOrder, Success: true, Status: StatusFilled}}, Timestamp: time.Unix(int64(i), 0).UTC()}
				line, _ := json.Marshal(c)
				seed = append(append(seed, line...), '\n')
			}
			require.NoError(b, os.WriteFile(filepath.Join(dir, "commits.jsonl"), seed, 0o600))
			f := newFake()
			g, err := Open(filepath.Join(dir, "commit.json"), Deps{Dispatch: f.dispatch, Now: time.Now})
			require.NoError(b, err)
			require.Equal(b, n, g.Status().CommitCount)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := g.Stage(buy("AAPL", "1", "MKT")); err != nil {
					b.Fatal(err)
				}
				p, err := g.Commit(fmt.Sprintf("bench %d", i))
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := g.Push(context.Background(), p.Hash); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
