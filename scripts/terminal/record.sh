#!/usr/bin/env bash
# Record a program's terminal output for the screen-equality corpus
# (workspace/testdata/terminal, checked by workspace TestScreenCorpus):
# runs COMMAND in a tmux pane of COLSxROWS, keeps every byte it wrote
# (pipe-pane) for SECONDS, optionally types KEYS (tmux send-keys syntax)
# halfway, then replays the bytes through a fresh tmux pane in raw mode and
# stores what tmux shows (header "cols rows cursorX cursorY", then
# capture-pane -p -e -N) next to the stream.
# With RESIZE=COLSxROWS the pane is resized after the keys; the stream's
# byte count at that moment goes to NAME.resize ("offset fromCols fromRows
# toCols toRows") and the replay resizes its pane at the same byte (the
# test does the same). RESIZE_DELAY (seconds, 0.5 by default) is the pause
# between the keys and the resize, so a resize can land in the middle of a
# streamed answer. With KEY_PAUSE=SECONDS each KEYS argument is sent on its
# own, that long apart (codex takes text and Enter typed in one burst as a
# paste and does not submit it).
#   scripts/terminal/record.sh NAME COLS ROWS SECONDS 'COMMAND' [KEYS...]
# Example: scripts/terminal/record.sh codex-start 100 30 6 'codex'
#   RESIZE=100x30 scripts/terminal/record.sh vim-resize 80 24 4 'vim -u NONE /etc/services'
# With CUT_FROM=OTHER nothing runs: NAME is OTHER's recording cut at its
# resize (the screen just after the resize, before the program redraws),
# replayed through tmux the same way.
#   CUT_FROM=claude-answer-resize scripts/terminal/record.sh claude-answer-cut
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 5 ] || { [ -n "${CUT_FROM:-}" ] && [ $# -eq 1 ]; } || { echo "usage: $0 NAME COLS ROWS SECONDS COMMAND [KEYS...]"; exit 2; }
NAME=$1
OUT=workspace/testdata/terminal
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/alice-record.XXXXXX)
SOCK="alice-record-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true; tmux -L "$SOCK-replay" kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
printf 'set -g status off\n' >"$WORK/tmux.conf"
if [ -n "${CUT_FROM:-}" ]; then
	read -r OFFSET COLS ROWS FINAL_COLS FINAL_ROWS <"$OUT/$CUT_FROM.resize"
	head -c "$OFFSET" "$OUT/$CUT_FROM.stream" >"$WORK/stream"
	cp "$OUT/$CUT_FROM.resize" "$OUT/$NAME.resize"
	RESIZE=${FINAL_COLS}x$FINAL_ROWS
else
	COLS=$2 ROWS=$3 SECS=$4 CMD=$5
	shift 5
	T() { tmux -L "$SOCK" -f "$WORK/tmux.conf" "$@"; }
	# The program starts only after pipe-pane is on, so its first bytes are kept.
	T new-session -d -x "$COLS" -y "$ROWS" "tmux -L $SOCK wait-for go; $CMD; sleep 3600"
	T pipe-pane -O "cat >'$WORK/stream'"
	T wait-for -S go
	sleep "$(awk "BEGIN{print $SECS/2}")"
	if [ -n "${KEY_PAUSE:-}" ]; then
		for k in "$@"; do
			T send-keys "$k"
			sleep "$KEY_PAUSE"
		done
	elif [ $# -gt 0 ]; then
		T send-keys "$@"
	fi
	rm -f "$OUT/$NAME.resize"
	FINAL_COLS=$COLS FINAL_ROWS=$ROWS
	if [ -n "${RESIZE:-}" ]; then
		sleep "${RESIZE_DELAY:-0.5}"
		FINAL_COLS=${RESIZE%x*} FINAL_ROWS=${RESIZE#*x}
		OFFSET=$(stat -c %s "$WORK/stream")
		T resize-window -x "$FINAL_COLS" -y "$FINAL_ROWS"
		echo "$OFFSET $COLS $ROWS $FINAL_COLS $FINAL_ROWS" >"$OUT/$NAME.resize"
	fi
	sleep "$(awk "BEGIN{print $SECS/2}")"
	T pipe-pane
	T kill-server
fi
cp "$WORK/stream" "$OUT/$NAME.stream"
# Replay through tmux in raw mode: the capture is of exactly these bytes.
R() { tmux -L "$SOCK-replay" -f "$WORK/tmux.conf" "$@"; }
if [ -n "${RESIZE:-}" ]; then
	R new-session -d -x "$COLS" -y "$ROWS" "stty raw -echo; head -c $OFFSET '$OUT/$NAME.stream'; tmux -L $SOCK-replay wait-for -S half; tmux -L $SOCK-replay wait-for resized; tail -c +$((OFFSET + 1)) '$OUT/$NAME.stream'; tmux -L $SOCK-replay wait-for -S fed; sleep 60"
	R wait-for half
	R resize-window -x "$FINAL_COLS" -y "$FINAL_ROWS"
	R wait-for -S resized
else
	R new-session -d -x "$COLS" -y "$ROWS" "stty raw -echo; cat '$OUT/$NAME.stream'; tmux -L $SOCK-replay wait-for -S fed; sleep 60"
fi
R wait-for fed
{ echo "$FINAL_COLS $FINAL_ROWS $(R display -p '#{cursor_x} #{cursor_y}')"; R capture-pane -p -e -N; } >"$OUT/$NAME.tmux"
echo "recorded $OUT/$NAME.stream ($(wc -c <"$OUT/$NAME.stream") bytes) and $NAME.tmux"
