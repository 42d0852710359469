package eventlog

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAppendRecentAndRecoverSequence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "event-log", "events.jsonl")
	l, err := Open(path)
	require.NoError(t, err)
	e1, err := l.Append("cron.fire", map[string]string{"jobId": "a"})
	require.NoError(t, err)
	e2, err := l.AppendCaused("agent.work.requested", map[string]string{"source": "cron"}, e1.Seq)
	require.NoError(t, err)
	require.Equal(t, int64(1), e1.Seq)
	require.Equal(t, int64(2), e2.Seq)
	require.Equal(t, int64(1), e2.CausedBy)
	require.NoError(t, l.Close())

	l, err = Open(path)
	require.NoError(t, err)
	defer l.Close()
	require.Equal(t, int64(2), l.LastSeq())
	require.Len(t, l.Recent(), 2)
	e3, err := l.Append("x", nil)
	require.NoError(t, err)
	require.Equal(t, int64(3), e3.Seq, "sequence continues after restart")
}

func TestTornTailIsDroppedAndLogContinues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	good := `{"seq":1,"ts":1,"type":"a","payload":{}}` + "\n" + `not json at all` + "\n" + `{"seq":2,"ts":2,"type":"b","payload":{}}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(good+`{"seq":3,"ts":3,"ty`), 0o600))
	l, err := Open(path)
	require.NoError(t, err)
	require.Equal(t, int64(2), l.LastSeq())
	require.Equal(t, int64(len(`{"seq":3,"ts":3,"ty`)), l.Healed().Cut)
	torn, err := os.ReadFile(path + ".torn")
	require.NoError(t, err)
	require.Equal(t, `{"seq":3,"ts":3,"ty`+"\n", string(torn), "the cut fragment is kept beside the log")
	e, err := l.Append("c", 1)
	require.NoError(t, err)
	require.Equal(t, int64(3), e.Seq)
	require.NoError(t, l.Close())
	all, err := readAll(path)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "c"}, types(all))
}

func TestCompleteTailWithoutNewlineIsKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"seq":7,"ts":1,"type":"a","payload":{}}`), 0o600))
	l, err := Open(path)
	require.NoError(t, err)
	e, _ := l.Append("b", nil)
	require.Equal(t, int64(8), e.Seq)
	require.NoError(t, l.Close())
	all, _ := readAll(path)
	require.Equal(t, []string{"a", "b"}, types(all))
}

func TestRingKeepsLast500(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "e.jsonl"))
	require.NoError(t, err)
	defer l.Close()
	for i := 0; i < RingSize+20; i++ {
		_, err := l.Append("t", i)
		require.NoError(t, err)
	}
	r := l.Recent()
	require.Len(t, r, RingSize)
	require.Equal(t, int64(21), r[0].Seq)
	require.Equal(t, int64(RingSize+20), r[len(r)-1].Seq)
	disk, err := l.Read(ReadOptions{AfterSeq: 510, Type: "t"})
	require.NoError(t, err)
	require.Len(t, disk, 10)
}

func TestConcurrentAppendsAndSubscribe(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "e.jsonl"))
	require.NoError(t, err)
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := l.Subscribe(ctx)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				_, err := l.Append("c", i)
				require.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	deadline := time.After(30 * time.Second)
	for len(seen) < 400 {
		select {
		case e := <-sub:
			seen[e.Seq] = true
		case <-deadline:
			t.Fatalf("only %d events delivered", len(seen))
		}
	}
	all, err := l.Read(ReadOptions{})
	require.NoError(t, err)
	require.Len(t, all, 400)
	for i, e := range all {
		require.Equal(t, int64(i+1), e.Seq, "file order matches sequence")
	}
}

func TestAppendRejectsBadInput(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "e.jsonl"))
	require.NoError(t, err)
	_, err = l.Append("", nil)
	require.Error(t, err)
	_, err = l.Append("x", func() {})
	require.Error(t, err)
	require.NoError(t, l.Close())
	_, err = l.Append("x", nil)
	require.Error(t, err)
}

func readAll(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, line := range splitLines(b) {
		var e Entry
		if json.Unmarshal(line, &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, b[start:i])
			start = i + 1
		}
	}
	if start < len(b) {
		out = append(out, b[start:])
	}
	return out
}

func types(es []Entry) []string {
	var s []string
	for _, e := range es {
		s = append(s, e.Type)
	}
	return s
}
