#!/usr/bin/env bash
# Terminal output throughput: `cat` of a large file through an alice
# workspace session (pty → coalescing feeder → x/vt) until the screen shows
# a sentinel, side by side with tmux and a raw pty in one run. Goal:
# alice/tmux ≤ 1.0.
#   SIZE_MB=100 COLOURED=0 RUNS=3 bench/terminal.sh
# Through the whole TUI (bench/tuiterm: alice in tmux beside a bare tmux
# pane of the same inner size; echo, full-screen frames, cat, idle CPU,
# RSS; prints alice/tmux):
#   bench/terminal.sh tui [-runs 5 -echo 40 -n 2000 -idle 30s -mb 10]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "bench/terminal.sh: tmux is required"; exit 1; }
if [ "${1:-}" = tui ]; then
	shift
	BIN=$(mktemp -d /tmp/alice-tuibench-bin.XXXXXX)
	trap 'rm -rf "$BIN"' EXIT
	go build -o "$BIN/alice" . && go build -o "$BIN/tuiterm" ./bench/tuiterm
	"$BIN/tuiterm" -alice "$BIN/alice" "$@"
	exit
fi
command -v script >/dev/null || { echo "bench/terminal.sh: script (util-linux) is required"; exit 1; }
WORK=$(mktemp -d /tmp/alice-termbench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SIZE_MB=${SIZE_MB:-100}
FILE="$WORK/big.txt"
# Lines of 99 printable characters (100 bytes with the newline); the
# coloured variant puts an SGR colour every 10 characters.
awk -v n=$((SIZE_MB * 10000)) -v col="${COLOURED:-0}" 'BEGIN {
  s = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz!@#"
  for (i = 0; i < n; i++) {
    if (col == 1) {
      line = ""
      for (j = 0; j < 9; j++) line = line sprintf("\033[3%dm%s", (i + j) % 8, substr(s, j * 10 + 1, 10))
      print line "\033[m" substr(s, 91, 9)
    } else print substr(s, (i % 7) + 1, 92) sprintf("%07d", i % 10000000)
  }
}' >"$FILE"
go run ./bench/terminal -file "$FILE" -runs "${RUNS:-3}" -cols "${COLS:-160}" -rows "${ROWS:-45}"
