#!/usr/bin/env bash
# Workspace terminal end to end through the real binary in tmux: start a
# shell in a workspace from the Workspaces pane (pane attach, not zoom),
# check `stty size` equals the pane's inner size, type
# `echo ABC xyz ~!@#$%^&*()_+ é` and see it echoed exactly, then kill the
# session from the pane and check no process is left behind.
# Needs tmux. Uses a throw-away ALICE_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=keys-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
write_home
COLS=140 ROWS=40
start_alice $COLS $ROWS

step "create a workspace and start a shell"
wait_for "Workspaces"
new_shell_workspace "keys-ws"

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
wait_confirm # the confirmation ignores keys until input is quiet
keys y
wait_for "session sh1 killed"
wait_for "sh1   stopped"
no_processes_left " after kill"

step "quit: alice asks (it stops the core for all clients), y confirms"
quit_alice
echo "keys-e2e: all steps passed"
