package agent

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/alice-trading/alice/core/jsonl"
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

// ToolLog appends tool calls to a JSONL file (core/jsonl). The sequence
// number continues from the last line after a restart (read from the end
// of the file); a torn tail is healed when the log is first used.
type ToolLog struct {
	path string
	mu   sync.Mutex
	file *jsonl.File
	seq  int64
	now  func() time.Time
}

// NewToolLog logs to path (created on first write).
func NewToolLog(path string) *ToolLog { return &ToolLog{path: path, now: time.Now} }

// Append writes one record, assigning Seq and Timestamp.
func (l *ToolLog) Append(r ToolCallRecord) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		f, err := jsonl.Open(l.path, jsonl.Options{})
		if err != nil {
			return err
		}
		seq, err := lastSeq(f)
		if err != nil {
			return err
		}
		l.file, l.seq = f, seq
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
	return l.file.AppendJSON(r)
}

// lastSeq is the seq of the newest line that has one (0 for a new file).
func lastSeq(f *jsonl.File) (int64, error) {
	var seq int64
	err := jsonl.Each(f.Path(), func(line []byte) bool {
		var r struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(line, &r) == nil && r.Seq > 0 {
			seq = r.Seq
			return false
		}
		return true
	})
	return seq, err
}
