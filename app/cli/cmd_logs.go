package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alice-trading/alice/app"
	"github.com/alice-trading/alice/config"
	"github.com/alice-trading/alice/core/jsonl"
)

// runLogs is `alice logs [--lines N] [--follow] [--level L]`: the end of
// alice.log, one pretty line per JSON record.
func runLogs(e *env, _ []string) int {
	paths, err := config.ResolvePaths(e.home)
	if err != nil {
		return e.errorf("%v", err)
	}
	n := 50
	if s := e.flag("lines"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || n < 0 {
			fmt.Fprintf(e.stderr, "alice logs: --lines wants a number ≥ 0, got %q\n", s)
			return 2
		}
	}
	min := slog.LevelDebug
	if s := e.flag("level"); s != "" {
		if err := min.UnmarshalText([]byte(s)); err != nil {
			fmt.Fprintf(e.stderr, "alice logs: --level wants debug, info, warn or error, got %q\n", s)
			return 2
		}
	}
	path := filepath.Join(paths.Logs, app.LogName)
	lines, err := lastLines(path, n, min)
	if err != nil {
		return e.errorf("%v (has alice run with this home yet? see `alice config path`)", err)
	}
	for _, l := range lines {
		fmt.Fprintln(e.stdout, l)
	}
	if e.flag("follow") == "" {
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := followLog(ctx, path, min, e.stdout, 250*time.Millisecond); err != nil {
		return e.errorf("%v", err)
	}
	return 0
}

// lastLines returns the last n records at or above min, pretty-printed.
// It reads backwards (jsonl.Each), so a large log costs what is shown.
func lastLines(path string, n int, min slog.Level) ([]string, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err // no log yet: the caller says where it should be
	}
	var out []string
	err := jsonl.Each(path, func(line []byte) bool {
		if s, ok := prettyLine(line, min); ok {
			out = append(out, s)
		}
		return len(out) < n
	})
	if err != nil {
		return nil, err
	}
	slices.Reverse(out)
	return out, nil
}

// followLog prints records appended after now until ctx ends, reopening
// the file when it is rotated (it shrinks or is replaced).
func followLog(ctx context.Context, path string, min slog.Level, w io.Writer, poll time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { f.Close() }()
	off, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	var pending []byte
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if st, err := os.Stat(path); err == nil {
			cur, _ := f.Stat()
			if !os.SameFile(st, cur) || st.Size() < off {
				f.Close()
				if f, err = os.Open(path); err != nil {
					return err
				}
				off, pending = 0, nil
			}
		}
		buf := make([]byte, 64<<10)
		for {
			k, err := f.ReadAt(buf, off)
			off += int64(k)
			pending = append(pending, buf[:k]...)
			if err != nil || k < len(buf) {
				break
			}
		}
		for {
			i := bytes.IndexByte(pending, '\n')
			if i < 0 {
				break
			}
			if s, ok := prettyLine(pending[:i], min); ok {
				fmt.Fprintln(w, s)
			}
			pending = pending[i+1:]
		}
	}
}

// prettyLine renders one slog JSON record as
// "15:04:05.000 WARN  message  key=value …"; lines that are not JSON are
// shown as they are.
func prettyLine(b []byte, min slog.Level) (string, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "", false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return string(b), true
	}
	var lvl slog.Level
	if s, ok := m["level"].(string); ok {
		if lvl.UnmarshalText([]byte(s)) != nil {
			lvl = slog.LevelInfo
		}
	}
	if lvl < min {
		return "", false
	}
	ts := ""
	if s, ok := m["time"].(string); ok {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			ts = t.Local().Format("01-02 15:04:05.000")
		} else {
			ts = s
		}
	}
	msg, _ := m["msg"].(string)
	delete(m, "time")
	delete(m, "level")
	delete(m, "msg")
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %-5s %s", ts, lvl.String(), msg)
	for _, k := range keys {
		v := m[k]
		var s string
		switch x := v.(type) {
		case string:
			s = x
			if strings.ContainsAny(s, " \t\"=") || s == "" {
				s = strconv.Quote(s)
			}
		default:
			jb, _ := json.Marshal(x)
			s = string(jb)
		}
		fmt.Fprintf(&sb, "  %s=%s", k, s)
	}
	return sb.String(), true
}
