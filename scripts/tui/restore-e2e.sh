#!/usr/bin/env bash
# The outer terminal is left as found (issue #23): run alice in a 100x30
# tmux window, attach a shell in the Workspaces pane, type into it, detach,
# grow the window to 140x40, zoom the session full screen (z), have it turn
# on terminal modes (cursor and keypad keys, mouse, hidden cursor), resize
# while zoomed (the zoomed shell also switches to the alternate screen and
# back, as vim or less do), come back (ctrl+q) and detach the client
# (ctrl+z); the window must show only the line printed before alice and
# alice's farewell line, and every mode must be off.
# Then attach again, shrink to 90x25 and quit: again nothing of alice may
# be left and the modes alice set (alternate screen, mouse reporting,
# cursor/keypad keys, hidden cursor) must be off.
# tmux 3.3a copies rows of an alternate screen that was resized while in
# use onto the main screen when it is left (vim and less leave their rows
# behind the same way); alice erases it before leaving it.
# Needs tmux. Uses a throw-away ALICE_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=restore-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
write_home
# Two runs of alice in one window: the first detaches, the second quits.
tmux -L "$SOCK" new-session -d -x 100 -y 30 \
	"echo BEFORE-ALICE; SHELL=/bin/sh ALICE_HOME='$HOME_DIR' '$WORK/alice'; echo ALICE-DETACHED rc=\$?; read _; SHELL=/bin/sh ALICE_HOME='$HOME_DIR' '$WORK/alice'; echo ALICE-EXITED rc=\$?; sleep 60"

# only_lines LINE...: the window shows these lines and nothing else.
only_lines() {
	local left
	left=$(screen | grep -v '^ *$' | grep -vxF "$(printf '%s\n' "$@")" || true)
	[ -z "$left" ] || { echo "$E2E: left on the outer screen:"; echo "$left"; echo "---- screen ----"; screen; exit 1; }
}
# modes_off: the terminal modes a full-screen program may set are off.
modes_off() {
	local modes
	modes=$(tmux -L "$SOCK" display -p 'alt=#{alternate_on} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}#{mouse_all_flag} sgr=#{mouse_sgr_flag} ckeys=#{keypad_cursor_flag} keypad=#{keypad_flag} cursor=#{cursor_flag} insert=#{insert_flag} origin=#{origin_flag} wrap=#{wrap_flag}')
	[ "$modes" = "alt=0 mouse=0000 sgr=0 ckeys=0 keypad=0 cursor=1 insert=0 origin=0 wrap=1" ] || { echo "$E2E: modes $1: $modes"; exit 1; }
}
DETACHED="alice: detached; the core keeps running (\`alice\` attaches again, \`alice stop\` stops it)"
STOPPED="alice: the core has stopped (its MCP ports, schedules and workspace sessions with it)"

step "attach a shell and type into it"
wait_for "Workspaces"
new_shell_workspace "restore-ws"
keys -l "echo restore-marker-1"
keys Enter
wait_for "restore-marker-1"

step "detach the session, grow to 140x40, zoom, set modes, resize, come back"
keys C-q
wait_for "detached"
tmux -L "$SOCK" resize-window -x 140 -y 40
wait_until "$WAIT" awk 'END { exit !(NR >= 40) }' || fail "window did not grow"
keys Down
keys z
# The zoom shows the session's screen from the top row; the pane's
# thumbnail shows the marker too, so waiting for the marker alone let the
# keys below reach the list before the zoom had started (1 run in 6 lost
# them).
wait_until "$WAIT" awk 'NR == 1 { exit !/^[#$] echo restore-marker-1/ }' || fail "the zoom never showed the session"
keys -l "printf '\033[?1049hALT-SCREEN\033[?1049l\033[?1h\033=\033[?1000h\033[?1006h\033[?25l'; echo zoom-\$((40+2))"
keys Enter
wait_for "zoom-42"
tmux -L "$SOCK" resize-window -x 120 -y 35
wait_until "$WAIT" awk 'END { exit !(NR == 35) }' || fail "window did not resize"
keys C-q
wait_for "Workspaces"

step "detach the client: nothing of alice left, modes off"
keys C-z
wait_for "ALICE-DETACHED rc=0"
only_lines "BEFORE-ALICE" "$DETACHED" "ALICE-DETACHED rc=0"
screen | grep -qx "BEFORE-ALICE" || fail "the line printed before alice is gone"
modes_off "after detach"

step "attach again, shrink to 90x25, quit"
keys Enter
wait_for "Workspaces"
tmux -L "$SOCK" resize-window -x 90 -y 25
wait_for "ctrl+c"
keys C-c
wait_for "Quit alice?" # it stops the core for all clients, so it asks
wait_for "This stops the core for all clients"
keys y
wait_for "ALICE-EXITED rc=0"

step "nothing of alice is left on the screen, modes off"
only_lines "BEFORE-ALICE" "$DETACHED" "ALICE-DETACHED rc=0" "$STOPPED" "ALICE-EXITED rc=0"
screen | grep -qx "BEFORE-ALICE" || fail "the line printed before alice is gone"
modes_off "after quit"
echo "restore-e2e: all steps passed"
