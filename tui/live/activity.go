package live

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/alice-trading/alice/tui/activity"
)

var _ activity.ActivityCore = (*Core)(nil)

// RecentEvents returns the newest event-log entries from the in-memory
// ring (the last 500), oldest first.
func (c *Core) RecentEvents(limit int) ([]activity.ActivityEvent, error) {
	evs := c.activity.Recent()
	if limit > 0 && len(evs) > limit {
		evs = evs[len(evs)-limit:]
	}
	out := make([]activity.ActivityEvent, len(evs))
	for i, e := range evs {
		out[i] = activity.ActivityEvent{Seq: e.Seq, Time: time.UnixMilli(e.TS), Type: e.Type, Payload: string(e.Payload), CausedBy: e.CausedBy}
	}
	return out, nil
}

// toolLogTail caps how much of tool-calls.jsonl one read looks at.
const toolLogTail = 2 << 20

// ToolCalls reads the newest records of data/tool-calls/tool-calls.jsonl;
// a torn last line (a writer mid-append) is skipped.
func (c *Core) ToolCalls(limit int) ([]activity.ToolCallRecord, error) {
	path := filepath.Join(c.a.Paths().Data, "tool-calls", "tool-calls.jsonl")
	lines, err := tailLines(path, toolLogTail)
	if err != nil {
		return nil, err
	}
	var out []activity.ToolCallRecord
	for _, l := range lines {
		var r struct {
			Seq        int64           `json:"seq"`
			SessionID  string          `json:"sessionId"`
			Name       string          `json:"name"`
			Input      json.RawMessage `json:"input"`
			Output     string          `json:"output"`
			Status     string          `json:"status"`
			DurationMs int64           `json:"durationMs"`
			Timestamp  string          `json:"timestamp"`
		}
		if json.Unmarshal(l, &r) != nil || r.Name == "" {
			continue
		}
		ts, _ := time.Parse(time.RFC3339Nano, r.Timestamp)
		out = append(out, activity.ToolCallRecord{Seq: r.Seq, Session: r.SessionID, Name: r.Name, Input: string(r.Input), Output: r.Output,
			Error: r.Status == "error", Duration: time.Duration(r.DurationMs) * time.Millisecond, Time: ts})
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

// tailLines returns the whole lines in the last max bytes of path (none
// for a missing file). The first line of a partial window is dropped.
func tailLines(path string, max int64) ([][]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := st.Size() - max
	if off < 0 {
		off = 0
	}
	buf := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	lines := bytes.Split(buf, []byte{'\n'})
	if off > 0 && len(lines) > 0 {
		lines = lines[1:]
	}
	return lines, nil
}

// NotificationLog returns stored notifications and whether each reached
// its channel. A notification with no channel had no connector; one whose
// agent run reported delivered:false failed to send.
func (c *Core) NotificationLog(limit int) ([]activity.NotificationRecord, error) {
	ns, err := c.connectors.Recent(limit)
	if err != nil {
		return nil, err
	}
	failed := map[string]bool{}
	for _, e := range c.activity.Recent() {
		if e.Type != "agent.work.done" {
			continue
		}
		var p struct {
			Reply     string `json:"reply"`
			Delivered bool   `json:"delivered"`
		}
		if json.Unmarshal(e.Payload, &p) == nil && !p.Delivered {
			failed[strings.TrimSpace(p.Reply)] = true
		}
	}
	out := make([]activity.NotificationRecord, len(ns))
	for i, n := range ns {
		out[i] = activity.NotificationRecord{Time: time.UnixMilli(n.TS), Text: n.Text, Source: n.Source, Channel: n.Channel, To: n.To,
			Delivered: n.Channel != "" && !failed[strings.TrimSpace(n.Text)]}
	}
	return out, nil
}

var _ activity.WorkRetrier = (*Core)(nil)

// RetryWork retries a failed or abandoned task of the work queue.
func (c *Core) RetryWork(taskID string) (string, error) { return c.a.RetryWork(taskID) }
