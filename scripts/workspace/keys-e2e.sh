#!/usr/bin/env bash
# Workspace terminal end to end through the real binary in tmux: start a
# shell in a workspace from the Workspaces pane (pane attach, not zoom),
# check `stty size` equals the pane's inner size, type
# `echo ABC xyz ~!@#$%^&*()_+ é` and see it echoed exactly, then kill the
# session from the pane and check no process is left behind.
# Needs tmux. Uses a throw-away ALICE_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v tmux >/dev/null || { echo "keys-e2e: tmux is required"; exit 1; }

WORK=$(mktemp -d /tmp/alice-keys-e2e.XXXXXX)
SOCK="alice-keys-e2e-$$"
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

go build -o "$WORK/alice" .
HOME_DIR="$WORK/home"
mkdir -p "$HOME_DIR/config"
echo '{"port":0}' >"$HOME_DIR/config/mcp.json"
echo '{"mcpAsk":{"enabled":false}}' >"$HOME_DIR/config/connectors.json"
echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":100,"retentionDays":7,"feeds":[]}' >"$HOME_DIR/config/news.json"

COLS=140 ROWS=40
tmux -L "$SOCK" new-session -d -x $COLS -y $ROWS "SHELL=/bin/sh ALICE_HOME='$HOME_DIR' '$WORK/alice'; echo ALICE-EXITED rc=\$?; sleep 60"

screen() { tmux -L "$SOCK" capture-pane -p; }
wait_for() { # wait_for TEXT [seconds]
	local deadline=$((SECONDS + ${2:-15}))
	while [ $SECONDS -lt $deadline ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.2
	done
	echo "keys-e2e: timed out waiting for: $1"; echo "---- screen ----"; screen; exit 1
}
wait_line() { # wait_line EXACT-LINE: a pane line equal to it (frame and trailing spaces ignored)
	local deadline=$((SECONDS + 15))
	while [ $SECONDS -lt $deadline ]; do
		screen | sed 's/^│ //; s/ *│ *$//; s/ *$//' | grep -qxF -- "$1" && return 0
		sleep 0.2
	done
	echo "keys-e2e: no line equal to: $1"; echo "---- screen ----"; screen; exit 1
}
keys() { tmux -L "$SOCK" send-keys "$@"; }
step() { echo "== $*"; }

step "create a workspace and start a shell"
wait_for "Workspaces"
keys M-4
wait_for "No workspaces yet"
keys n
wait_for "New workspace"
keys "keys-ws" Tab Enter
wait_for "no sessions"
keys s
wait_for "● input"
sleep 0.5

step "stty size in the just-started session equals the pane's inner size"
# The pane is the inside of the frame (window minus tab bar, borders,
# footer and status bar; minus border and padding at each side), less the
# pane's own title line.
keys -l "stty size"
keys Enter
wait_line "$((ROWS - 6)) $((COLS - 4))"

step "every character arrives: upper case, shifted symbols, UTF-8"
TEXT='ABC xyz ~!@#$%^&*()_+ é'
keys -l "echo '$TEXT'"
keys Enter
wait_line "$TEXT"
keys -l "echo XyZ ABC abc"
keys Enter
wait_line "XyZ ABC abc"

step "kill the session from the pane"
keys C-q
wait_for "detached"
keys Down
keys K
wait_for "Kill session sh1?"
sleep 0.8 # the confirmation ignores keys until input is quiet
keys y
wait_for "session sh1 killed"
wait_for "sh1   stopped"
left=""
for p in /proc/[0-9]*; do
	case "$(readlink "$p/cwd" 2>/dev/null)" in "$HOME_DIR"/*) left="$left ${p#/proc/}" ;; esac
done
[ -z "$left" ] || { echo "keys-e2e: processes left behind after kill:$left"; exit 1; }

step "quit"
keys C-c
wait_for "ALICE-EXITED rc=0" 10
echo "keys-e2e: all steps passed"
