#!/usr/bin/env bash
# End-to-end flow through the real binary in tmux, as a new user would:
#   chat → the (scripted) agent stages, commits and asks to push an order →
#   approve in Portfolio → the position shows; then create a shell
#   workspace, attach, type `echo hi`, see it, detach; quit cleanly.
# Needs tmux. Uses a throw-away ALICE_HOME and free ports.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
start_mockllm
write_home
printf '{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"mock","baseUrl":"%s"}}}\n' "$LLM_URL" >"$HOME_DIR/config/ai-provider.json"
start_alice 140 40

step "start"
wait_for "Ask Alice"
step "chat: a bracketed paste of three lines is sent as one three-line message"
tmux -L "$SOCK" set-buffer -b three "$(printf 'pl-one\npl-two\npl-three')"
tmux -L "$SOCK" paste-buffer -p -b three
wait_for "pl-three"
keys Enter
wait_for "You said:"
screen | awk '/pl-one/ && !a {a=NR} /pl-two/ && !b {b=NR} /pl-three/ && !c {c=NR} END {exit !(a && b == a+1 && c == b+1)}' ||
	{ echo "e2e: the sent message is not three consecutive lines"; screen; exit 1; }
step "chat: buy 10 AAPL"
keys "buy 10 AAPL" Enter
wait_for "Approve it in the Portfolio pane"
wait_for "⚙ tradingPush"
step "portfolio: approve the pending commit"
keys M-3
wait_for "Pending approval"
# A "y" already in flight when the dialog opens (sent with the "a" that
# opens it) must not approve: the confirmation ignores keys until input has
# been quiet for 500 ms, and says when it accepts them.
keys a y
wait_until "$WAIT" grep -qE "$CONFIRM_READY" || fail "the confirmation closed or never accepted keys (did the stray y approve?)"
screen | grep -qF "Approve and execute these orders?" || { echo "e2e: a stray key approved the order"; screen; exit 1; }
keys y
wait_for_re "AAPL +long +10 "
wait_for "Trading log"
screen | grep -q "Pending approval" && { echo "e2e: commit still pending"; exit 1; }
step "workspaces: create, start a shell, attach"
new_shell_workspace "e2e-ws"
keys "echo hi-from-e2e" Enter
# The output, on its own line (not just the typed command's echo).
wait_until "$WAIT" grep -qx "│ hi-from-e2e *│" || { echo "e2e: command output not on its own line"; screen; exit 1; }
step "detach"
keys C-q
wait_for "detached"
wait_for_re "sh1 +(running|idle)"
step "quit: a shell runs, so ctrl+c asks first and names it; a second ctrl+c quits"
keys C-c
wait_for "Quit alice?"
wait_for "This stops the core for all clients"
wait_for "sh1 in workspace e2e-ws"
keys C-c
wait_for "ALICE-EXITED rc=0"
# No orphans: nothing may still run inside the workspaces.
no_processes_left
echo "e2e: all steps passed"
