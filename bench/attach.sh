#!/usr/bin/env bash
# Attach relay vs tmux attach: attach-to-first-frame and keystroke echo
# (relay, --foreground, tmux), interleaved, medians.
#   RUNS=7 ECHO=40 bench/attach.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "bench/attach.sh: tmux is required"; exit 1; }
WORK=$(mktemp -d /tmp/alice-attachbench-bin.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/alice" .
go run ./bench/attach -alice "$WORK/alice" -runs "${RUNS:-7}" -echo "${ECHO:-40}"
