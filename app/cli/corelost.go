package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/alice-trading/alice/core/jsonl"
)

// logStartMsg is the log record a core writes first when it starts.
const logStartMsg = "Core starting"

// maxLogScan bounds how far back coreLostMessage reads the log.
const maxLogScan = 20000

// coreLostMessage is what an attached client says when the core went away
// without telling it (kill -9, a crash): `alice logs` is named only when
// the log has warnings or errors after the core's last start.
func coreLostMessage(logPath string) string {
	const msg = "the core stopped unexpectedly (killed?)"
	if n := problemsSinceStart(logPath); n > 0 {
		return fmt.Sprintf("%s; `alice logs` shows %d warning(s) or error(s) from its last run", msg, n)
	}
	return msg
}

// problemsSinceStart counts the records at warning level or above after
// the last logStartMsg (0 when the log cannot be read or has no start).
func problemsSinceStart(logPath string) int {
	n, seen, started := 0, 0, false
	_ = jsonl.Each(logPath, func(line []byte) bool {
		var r struct {
			Level string `json:"level"`
			Msg   string `json:"msg"`
		}
		if json.Unmarshal(line, &r) != nil {
			return true
		}
		if r.Msg == logStartMsg {
			started = true
			return false
		}
		var lv slog.Level
		if lv.UnmarshalText([]byte(r.Level)) == nil && lv >= slog.LevelWarn {
			n++
		}
		seen++
		return seen < maxLogScan
	})
	if !started {
		return 0
	}
	return n
}
