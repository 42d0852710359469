package agent

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ToolCallRecord is one line of tool-calls.jsonl (the reference format:
// {seq,id,sessionId,name,input,output,status,durationMs,timestamp}).
type ToolCallRecord struct {
	Seq        int64           `json:"seq"`
	ID         string          `json:"id"`
	SessionID  string          `json:"sessionId"`
	Name       string          `json:"name"`
	Input      json.RawMessage `json:"input"`
	Output     string          `json:"output"`
	Status     string          `json:"status"` // ok | error
	DurationMs int64           `json:"durationMs"`
	Timestamp  string          `json:"timestamp"`
}

// maxLoggedOutput caps the output kept per call so the log stays small.
const maxLoggedOutput = 4000

// ToolLog appends tool calls to a JSONL file. The sequence number
// continues from the last line after a restart; one write per line under
// a mutex keeps lines whole.
type ToolLog struct {
	path string
	mu   sync.Mutex
	seq  int64
	init bool
	now  func() time.Time
}

// NewToolLog logs to path (created on first write).
func NewToolLog(path string) *ToolLog { return &ToolLog{path: path, now: time.Now} }

// Append writes one record, assigning Seq and Timestamp.
func (l *ToolLog) Append(r ToolCallRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.init {
		l.seq = lastSeq(l.path)
		l.init = true
	}
	l.seq++
	r.Seq = l.seq
	if r.Timestamp == "" {
		r.Timestamp = l.now().UTC().Format(time.RFC3339Nano)
	}
	if len(r.Input) == 0 {
		r.Input = json.RawMessage("{}")
	}
	r.Output = clip(r.Output, maxLoggedOutput)
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write(append(line, '\n'))
	return err
}

// lastSeq reads the seq of the last whole line (0 for a new file); a torn
// tail line is ignored.
func lastSeq(path string) int64 {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return 0
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0
	}
	const window = 64 * 1024
	off := max(0, info.Size()-window)
	buf := make([]byte, info.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return 0
	}
	var best int64
	for _, line := range splitLines(buf) {
		var r struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(line, &r) == nil && r.Seq > best {
			best = r.Seq
		}
	}
	return best
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
	return append(out, b[start:])
}
