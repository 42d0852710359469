# shellcheck shell=bash
# Shared prelude of the tmux-driven end-to-end scripts (scripts/tui/e2e.sh,
# scripts/tui/settings-e2e.sh, scripts/workspace/keys-e2e.sh and
# keys-diff.sh, …): a throw-away work folder and tmux server, an ALICE_HOME
# on free ports, the real binary started in tmux, and the helpers that read
# its screen and type into it.
#
# Use from the repository root, after `set -euo pipefail`:
#   E2E=keys-e2e; source scripts/lib/tmux.sh
# E2E names the script in messages, the work folder and the tmux socket.
# Everything started here goes when the script exits (trap cleanup EXIT).

command -v tmux >/dev/null || { echo "$E2E: tmux is required"; exit 1; }

# WAIT is how long (seconds) a wait for screen text lasts by default. The
# waits poll, so a generous deadline costs nothing when the text comes; it
# is there for a machine loaded by other work (CI on 2 cores, a full
# `go test -race ./...` beside it). Never sleep instead of waiting.
WAIT=${E2E_WAIT:-60}

WORK=$(mktemp -d "/tmp/alice-$E2E.XXXXXX")
SOCK="alice-$E2E-$$"
HOME_DIR="$WORK/home"
LLM_PID=""
LLM_URL=""
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	# tmux 3.3a leaves its socket file behind, also when the server ended
	# by itself.
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" 2>/dev/null || true
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
	local deadline=$((SECONDS + WAIT))
	until grep -q listening "$WORK/llm.out"; do
		[ $SECONDS -lt $deadline ] || { echo "$E2E: mockllm did not start"; cat "$WORK/llm.out"; exit 1; }
		sleep 0.1
	done
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
	wait_until "${2:-$WAIT}" grep -qF -- "$1" || fail "timed out waiting for: $1"
}
wait_for_re() { # wait_for_re REGEX [seconds]
	wait_until "${2:-$WAIT}" grep -qE -- "$1" || fail "timed out waiting for /$1/"
}
wait_gone() { # wait_gone TEXT [seconds]: the screen no longer shows TEXT
	wait_until "${2:-$WAIT}" sh -c '! grep -qF -- "$1"' sh "$1" || fail "still showing: $1"
}

# has_line LINE: stdin has a pane line equal to LINE, the pane frame and
# trailing spaces ignored.
unframe() { sed 's/^│ //; s/ *│ *$//; s/ *$//'; }
has_line() { unframe | grep -qxF -- "$1"; }
wait_line() { # wait_line EXACT-LINE [seconds]
	wait_until "${2:-$WAIT}" has_line "$1" || fail "no line equal to: $1"
}
# is_prompt: stdin has a pane line that ends in a shell prompt ("$" or
# "#": sh's bare one, or bash's user@host:dir one).
is_prompt() { unframe | grep -qE -- '[$#]$'; }
wait_prompt() { # wait_prompt: an attached shell is ready for input
	wait_until "$WAIT" is_prompt || fail "no shell prompt"
}

# new_shell_workspace TAG: open the Workspaces pane, create workspace TAG
# there, start a shell session in it (attached) and wait for its prompt.
new_shell_workspace() {
	keys M-4
	wait_for "No workspaces yet"
	keys n
	wait_for "New workspace"
	keys "$1" Tab Enter
	wait_for "no sessions" # the list (not the form still showing the typed tag)
	keys s
	wait_for "● input"
	wait_prompt
}

# wait_file FILE TEXT: FILE comes to contain TEXT (alice writes it from a
# command that runs after the key that asked for it).
wait_file() {
	local deadline=$((SECONDS + WAIT))
	until grep -qF -- "$2" "$1" 2>/dev/null; do
		[ $SECONDS -lt $deadline ] || { echo "$E2E: $1 never contained: $2"; cat "$1" 2>/dev/null; exit 1; }
		sleep 0.2
	done
}

# wait_confirm waits until an open confirmation accepts keys: it ignores
# them until input has been quiet for its grace period, then its box says
# so (the footer's key help shows the same words all along: match the box).
CONFIRM_READY='║ +y confirm · n/esc cancel'
wait_confirm() { wait_for_re "$CONFIRM_READY"; }

# quit_alice presses ctrl+c (again when alice asks "Quit alice?") until
# the window says alice exited with status 0.
quit_alice() {
	# `alice` is a client of a background core: quitting stops the core for
	# every client, so alice always asks, naming what stops (the MCP ports).
	keys C-c
	wait_for "Quit alice?"
	wait_for "This stops the core for all clients"
	wait_for "MCP :"
	keys y
	wait_for "ALICE-EXITED rc=0"
}

# no_processes_left fails the script if anything still runs with its
# working directory inside $HOME_DIR (a workspace's child outliving it)
# once $WAIT seconds have passed. It waits because a session's own
# processes can still be dying when alice has exited: a foreground job of
# the shell (the counter's `sleep`) has its own process group and gets the
# kernel's SIGHUP only as the shell exits. A process left behind stays.
no_processes_left() { # no_processes_left [" after …", said in the message]
	local left p deadline=$((SECONDS + WAIT))
	while :; do
		left=""
		for p in /proc/[0-9]*; do
			case "$(readlink "$p/cwd" 2>/dev/null)" in "$HOME_DIR"/*) left="$left ${p#/proc/}" ;; esac
		done
		[ -n "$left" ] && [ $SECONDS -lt $deadline ] || break
		sleep 0.2
	done
	[ -z "$left" ] || {
		echo "$E2E: processes left behind${1:-}:$left"
		for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null; echo; done
		exit 1
	}
}
