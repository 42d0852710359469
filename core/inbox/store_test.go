package inbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "inbox", "entries.jsonl"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestAppendValidation(t *testing.T) {
	s := newStore(t)
	cases := []struct {
		name string
		e    Entry
		err  string
	}{
		{"no workspace", Entry{Comments: "hi"}, "workspaceId is required"},
		{"nothing to show", Entry{WorkspaceID: "w", Comments: "  "}, "at least one doc"},
		{"empty doc path", Entry{WorkspaceID: "w", Docs: []Doc{{Path: ""}}}, "non-empty"},
		{"absolute doc", Entry{WorkspaceID: "w", Docs: []Doc{{Path: "/etc/passwd"}}}, "relative"},
		{"escaping doc", Entry{WorkspaceID: "w", Docs: []Doc{{Path: "a/../../x.md"}}}, "escapes"},
		{"comments only", Entry{WorkspaceID: "w", Comments: "hello"}, ""},
		{"doc only", Entry{WorkspaceID: "w", Docs: []Doc{{Path: "notes/a.md"}}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Append(tc.e)
			if tc.err != "" {
				require.ErrorIs(t, err, ErrInvalidEntry)
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.NotEmpty(t, got.ID)
			require.NotZero(t, got.TS)
		})
	}
	p, err := s.List(ListOptions{})
	require.NoError(t, err)
	require.Len(t, p.Entries, 2, "only valid entries are stored")
}

func TestListNewestFirstWithCursorAndFilter(t *testing.T) {
	s := newStore(t)
	var ids []string
	for i := 0; i < 5; i++ {
		ws := "a"
		if i%2 == 1 {
			ws = "b"
		}
		e, err := s.Append(Entry{WorkspaceID: ws, Comments: fmt.Sprint(i)})
		require.NoError(t, err)
		ids = append(ids, e.ID)
	}
	p, err := s.List(ListOptions{Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []string{"4", "3"}, comments(p.Entries))
	require.True(t, p.HasMore)

	require.Equal(t, ids[3], p.NextCursor, "the cursor for the next page")
	p, err = s.List(ListOptions{Limit: 2, Before: p.NextCursor})
	require.NoError(t, err)
	require.Equal(t, []string{"2", "1"}, comments(p.Entries))
	require.True(t, p.HasMore)

	p, err = s.List(ListOptions{Limit: 2, Before: ids[1]})
	require.NoError(t, err)
	require.Equal(t, []string{"0"}, comments(p.Entries))
	require.False(t, p.HasMore)
	require.Empty(t, p.NextCursor)

	p, err = s.List(ListOptions{WorkspaceID: "a"})
	require.NoError(t, err)
	require.Equal(t, []string{"4", "2", "0"}, comments(p.Entries))

	_, err = s.List(ListOptions{Before: "nope"})
	require.ErrorIs(t, err, ErrNotFound)
}

func comments(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Comments)
	}
	return out
}

func TestDeleteKeepsUnparseableLinesAndEmitsEvents(t *testing.T) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := s.Subscribe(ctx)

	a, err := s.Append(Entry{WorkspaceID: "w", Comments: "a"})
	require.NoError(t, err)
	got := <-ev
	require.Equal(t, EventAppended, got.Kind)
	require.Equal(t, a.ID, got.Entry.ID)

	// A foreign/garbage line in the middle must survive a delete.
	f, err := os.OpenFile(s.Path(), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("not json at all\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	b, err := s.Append(Entry{WorkspaceID: "w", Comments: "b"})
	require.NoError(t, err)
	<-ev

	require.NoError(t, s.Delete(a.ID))
	got = <-ev
	require.Equal(t, Event{Kind: EventRemoved, ID: a.ID}, got)
	require.ErrorIs(t, s.Delete(a.ID), ErrNotFound)

	raw, err := os.ReadFile(s.Path())
	require.NoError(t, err)
	require.Contains(t, string(raw), "not json at all\n")
	require.NotContains(t, string(raw), a.ID)
	p, err := s.List(ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"b"}, comments(p.Entries))
	_, err = s.Get(b.ID)
	require.NoError(t, err)
}

func TestTornTailIsToleratedAndTerminated(t *testing.T) {
	s := newStore(t)
	_, err := s.Append(Entry{WorkspaceID: "w", Comments: "before crash"})
	require.NoError(t, err)
	f, err := os.OpenFile(s.Path(), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"workspaceId":"w","comm`) // crash mid-write
	require.NoError(t, err)
	require.NoError(t, f.Close())

	p, err := s.List(ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"before crash"}, comments(p.Entries))

	_, err = s.Append(Entry{WorkspaceID: "w", Comments: "after crash"})
	require.NoError(t, err)
	p, err = s.List(ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"after crash", "before crash"}, comments(p.Entries))
}

func TestTornTailIsCutOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "entries.jsonl")
	s, err := Open(path, nil)
	require.NoError(t, err)
	_, err = s.Append(Entry{WorkspaceID: "w", Comments: "kept"})
	require.NoError(t, err)
	clean, _ := os.ReadFile(path)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"workspaceId":"w","comm`)
	f.Close()
	s2, err := Open(path, nil) // a restart
	require.NoError(t, err)
	after, _ := os.ReadFile(path)
	require.Equal(t, string(clean), string(after))
	torn, _ := os.ReadFile(path + ".torn")
	require.Equal(t, `{"workspaceId":"w","comm`+"\n", string(torn))
	p, err := s2.List(ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"kept"}, comments(p.Entries))
}

func TestConcurrentAppendsFromTwoStores(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "entries.jsonl")
	s1, err := Open(path, nil)
	require.NoError(t, err)
	s2, err := Open(path, nil) // a second writer on the same file
	require.NoError(t, err)
	const n = 40
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s := s1
			if i%2 == 0 {
				s = s2
			}
			_, err := s.Append(Entry{WorkspaceID: "w", Comments: strings.Repeat("x", 2000) + fmt.Sprint(i)})
			require.NoError(t, err)
		}(i)
	}
	wg.Wait()
	p, err := s1.List(ListOptions{Limit: MaxLimit})
	require.NoError(t, err)
	require.Len(t, p.Entries, n, "no line was lost or interleaved")
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	// A writer that sees another's line still in flight starts its own on
	// a fresh line, so a blank line may appear (readers skip it); every
	// non-blank line is one whole entry.
	whole := 0
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(l) != "" {
			whole++
		}
	}
	require.Equal(t, n, whole)
}

func TestSubscribeEndsOnClose(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "e.jsonl"), nil)
	require.NoError(t, err)
	ch := s.Subscribe(context.Background())
	require.NoError(t, s.Close())
	select {
	case _, ok := <-ch:
		require.False(t, ok)
	case <-time.After(30 * time.Second):
		t.Fatal("subscription not closed")
	}
}
