#!/usr/bin/env bash
# The outer terminal is left as found: run alice in a 100x30 tmux window,
# attach a shell in the Workspaces pane, type into it, detach, grow the
# window to 140x40, zoom the session full screen (z) and come back
# (ctrl+q), shrink to 90x25, then quit. Afterwards the window must show
# nothing of alice (only the line the wrapper prints after it exits) and
# the terminal modes alice set must be off again: alternate screen, mouse
# reporting, application cursor/keypad keys, hidden cursor.
# Needs tmux. Uses a throw-away ALICE_HOME. Not yet run by make test: it
# still fails — after a zoom (z) at a grown size and quit, the list
# pane's frame is left on the outer screen (issue #23).
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=restore-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
write_home
start_alice 100 30

step "attach a shell and type into it"
wait_for "Workspaces"
keys M-4
wait_for "No workspaces yet"
keys n
wait_for "New workspace"
keys "restore-ws" Tab Enter
wait_for "no sessions"
keys s
wait_for "sh1 · running · ctrl+q"
keys -l "echo restore-marker-1"
keys Enter
wait_for "restore-marker-1" 10

step "detach, grow to 140x40, zoom and come back, shrink to 90x25"
keys C-q
wait_for "detached"
tmux -L "$SOCK" resize-window -x 140 -y 40
wait_until 10 awk 'END { exit !(NR >= 40) }' || fail "window did not grow"
keys Down
keys z
wait_for "restore-marker-1" 10
keys C-q
wait_for "Workspaces" 10
tmux -L "$SOCK" resize-window -x 90 -y 25
sleep 0.5

step "quit"
keys C-c
wait_for "y confirm" 10
keys y
wait_for "ALICE-EXITED rc=0" 15

step "nothing of alice is left on the screen"
left=$(screen | grep -v '^ *$' | grep -v 'ALICE-EXITED rc=0' || true)
[ -z "$left" ] || { echo "$E2E: left on the outer screen after quit:"; echo "$left"; exit 1; }

step "the modes alice set are reset"
modes=$(tmux -L "$SOCK" display -p 'alt=#{alternate_on} mouse=#{mouse_any_flag} sgr=#{mouse_sgr_flag} ckeys=#{keypad_cursor_flag} keypad=#{keypad_flag} cursor=#{cursor_flag}')
[ "$modes" = "alt=0 mouse=0 sgr=0 ckeys=0 keypad=0 cursor=1" ] || { echo "$E2E: modes after quit: $modes"; exit 1; }
echo "restore-e2e: all steps passed"
