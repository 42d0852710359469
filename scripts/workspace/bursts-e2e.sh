#!/usr/bin/env bash
# Key bursts across attach, detach and the full-screen zoom, through the
# real binary in tmux: each burst is one `tmux send-keys` call, so its keys
# reach alice faster than sessions open and zooms start. What a raw reader
# in the session gets, and where alice ends up, must be what a person
# typing the keys one by one, slowly, would get:
#   ctrl+q Enter ctrl+q Enter x      attached again, the session gets x
#   ctrl+q z a b ctrl+q              the list; the session got ab
#   ctrl+q z a b ctrl+q Enter c d ctrl+q z e ctrl+q Enter f
#                                    attached again; the session got abcdef
# (black-box reports: the first ended detached with the last Enter and x
# lost; the others left the zoom open or gave keys to the workspace list,
# where d opened the diff view.)
# Needs tmux. Uses a throw-away ALICE_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=bursts-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh
RUNS=${BURST_RUNS:-5}

build_alice
write_home
start_alice 120 40

step "create a workspace and start a shell"
wait_for "Workspaces"
new_shell_workspace "bursts-ws"

# read_raw N TAG: the attached shell reads N raw bytes into $WORK/got and
# then prints TAG-done-42; returns once the terminal is raw (bytes typed
# from then on wait in it for head). The markers are computed so the
# command line, echoed as typed, does not match them.
read_raw() {
	rm -f "$WORK/got"
	keys -l "stty raw -echo; echo $2-ready-\$((6*7)); head -c $1 > '$WORK/got'; stty sane; echo $2-done-\$((6*7))"
	keys Enter
	wait_for "$2-ready-42"
}

# got WANT TAG: the reader finished with exactly WANT.
got() {
	wait_for "$2-done-42"
	[ "$(cat "$WORK/got")" = "$1" ] || fail "the session got '$(cat -v "$WORK/got")', want '$1'"
}

attached() { wait_until "$WAIT" grep -qF "sh1 · running · ctrl+q detach"; }

for i in $(seq 1 "$RUNS"); do
	step "run $i: ctrl+q Enter ctrl+q Enter x"
	read_raw 1 "r$i-a"
	keys C-q Enter C-q Enter x
	got x "r$i-a"
	attached || fail "not attached after the burst"

	step "run $i: ctrl+q z a b ctrl+q"
	read_raw 2 "r$i-b"
	keys C-q z a b C-q
	wait_until "$WAIT" grep -qF "enter attach" || fail "the list is not shown after the burst"
	keys Enter # back to the session: its reader ends with the two bytes it got
	got ab "r$i-b"
	attached || fail "not attached again"

	step "run $i: ctrl+q z a b ctrl+q Enter c d ctrl+q z e ctrl+q Enter f"
	read_raw 6 "r$i-c"
	keys C-q z a b C-q Enter c d C-q z e C-q Enter f
	got abcdef "r$i-c"
	attached || fail "not attached after the burst"
done

keys C-q
wait_for "enter attach"
quit_alice
echo "bursts-e2e: all steps passed"
