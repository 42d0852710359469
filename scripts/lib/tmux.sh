# shellcheck shell=bash
# Shared prelude of the tmux-driven end-to-end scripts (scripts/tui/e2e.sh,
# scripts/tui/settings-e2e.sh, scripts/workspace/keys-e2e.sh): a throw-away
# work folder and tmux server, an ALICE_HOME on free ports, the real binary
# started in tmux, and the helpers that read its screen and type into it.
#
# Use from the repository root, after `set -euo pipefail`:
#   E2E=keys-e2e; source scripts/lib/tmux.sh
# E2E names the script in messages, the work folder and the tmux socket.
# Everything started here goes when the script exits (trap cleanup EXIT).

command -v tmux >/dev/null || { echo "$E2E: tmux is required"; exit 1; }

WORK=$(mktemp -d "/tmp/alice-$E2E.XXXXXX")
SOCK="alice-$E2E-$$"
HOME_DIR="$WORK/home"
LLM_PID=""
LLM_URL=""
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	# `alice` starts its core in the background; stop it with the clients.
	[ -x "$WORK/alice" ] && ALICE_HOME="$HOME_DIR" "$WORK/alice" stop >/dev/null 2>&1 || true
	[ -n "$LLM_PID" ] && kill "$LLM_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

# build_alice builds the binary under test into $WORK/alice, or links
# $ALICE_BIN when the caller (the Go test) already built it.
build_alice() {
	if [ -n "${ALICE_BIN:-}" ]; then ln -s "$ALICE_BIN" "$WORK/alice"; else go build -o "$WORK/alice" .; fi
}

# start_mockllm runs the scripted OpenAI-compatible model on a free port
# ($MOCKLLM_BIN when set) and sets LLM_URL (and LLM_PID, for cleanup).
start_mockllm() {
	if [ -n "${MOCKLLM_BIN:-}" ]; then ln -s "$MOCKLLM_BIN" "$WORK/mockllm"; else go build -o "$WORK/mockllm" ./scripts/mockllm; fi
	"$WORK/mockllm" -addr 127.0.0.1:0 >"$WORK/llm.out" 2>&1 &
	LLM_PID=$!
	for _ in $(seq 50); do grep -q listening "$WORK/llm.out" && break; sleep 0.1; done
	LLM_URL=$(awk '/listening/{print $4}' "$WORK/llm.out")
}

# write_home writes $HOME_DIR's config: MCP on a free port, no Ask
# connector (never its fixed default port), no news feeds.
write_home() {
	mkdir -p "$HOME_DIR/config"
	echo '{"port":0}' >"$HOME_DIR/config/mcp.json"
	echo '{"mcpAsk":{"enabled":false}}' >"$HOME_DIR/config/connectors.json"
	echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":100,"retentionDays":7,"feeds":[]}' >"$HOME_DIR/config/news.json"
}

# start_alice COLS ROWS [VAR=value ...] runs alice on $HOME_DIR in a
# COLS×ROWS tmux window with /bin/sh as SHELL and the extra environment
# given; when alice exits the window shows "ALICE-EXITED rc=N".
start_alice() {
	local cols=$1 rows=$2
	shift 2
	tmux -L "$SOCK" new-session -d -x "$cols" -y "$rows" \
		"SHELL=/bin/sh $* ALICE_HOME='$HOME_DIR' '$WORK/alice'; echo ALICE-EXITED rc=\$?; sleep 60"
}

screen() { tmux -L "$SOCK" capture-pane -p; }
keys() { tmux -L "$SOCK" send-keys "$@"; }
step() { echo "== $*"; }

# fail MESSAGE prints it and the screen, and ends the script.
fail() { echo "$E2E: $1"; echo "---- screen ----"; screen; exit 1; }

# wait_until SECONDS COMMAND... polls: true once the screen piped into
# COMMAND succeeds, false when SECONDS have passed.
wait_until() {
	local deadline=$((SECONDS + $1))
	shift
	while [ $SECONDS -lt $deadline ]; do
		screen | "$@" && return 0
		sleep 0.2
	done
	return 1
}

wait_for() { # wait_for TEXT [seconds]
	wait_until "${2:-15}" grep -qF -- "$1" || fail "timed out waiting for: $1"
}
wait_for_re() { # wait_for_re REGEX [seconds]
	wait_until "${2:-15}" grep -qE -- "$1" || fail "timed out waiting for /$1/"
}

# has_line LINE: stdin has a pane line equal to LINE, the pane frame and
# trailing spaces ignored.
has_line() { sed 's/^│ //; s/ *│ *$//; s/ *$//' | grep -qxF -- "$1"; }
wait_line() { # wait_line EXACT-LINE [seconds]
	wait_until "${2:-15}" has_line "$1" || fail "no line equal to: $1"
}

# no_processes_left fails the script if anything still runs with its
# working directory inside $HOME_DIR (a workspace's child outliving it).
no_processes_left() { # no_processes_left [" after …", said in the message]
	local left="" p
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/cwd" 2>/dev/null)" in "$HOME_DIR"/*) left="$left ${p#/proc/}" ;; esac
	done
	[ -z "$left" ] || { echo "$E2E: processes left behind${1:-}:$left"; exit 1; }
}
