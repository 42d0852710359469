#!/usr/bin/env bash
# Detach and attach, tmux-style, through the real binary: `alice serve`
# runs the core; `alice` clients attach over the data dir's unix socket
# and leave it running when they detach; two clients of different sizes
# see the same approval and one decides it; OpenSSH attaches over TCP with
# an authorized key and a wrong key is refused; quitting from a client
# stops the core and leaves no process behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=attach-e2e
source scripts/lib/tmux.sh
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || { echo "$E2E: OpenSSH client required"; exit 1; }

build_alice
start_mockllm
write_home
printf '{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"mock","baseUrl":"%s"}}}\n' "$LLM_URL" >"$HOME_DIR/config/ai-provider.json"
echo '{"ssh":{"enabled":true,"host":"127.0.0.1","port":0}}' >"$HOME_DIR/config/attach.json"
ssh-keygen -q -t ed25519 -N '' -f "$WORK/good" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$WORK/bad" >/dev/null
cp "$WORK/good.pub" "$HOME_DIR/config/authorized_keys"

# on SESSION: screen and keys for a named tmux session.
on_screen() { tmux -L "$SOCK" capture-pane -p -t "$1"; }
on_keys() { local s=$1; shift; tmux -L "$SOCK" send-keys -t "$s" "$@"; }
on_wait() { # on_wait SESSION TEXT [seconds]
	local deadline=$((SECONDS + ${3:-$WAIT}))
	while [ $SECONDS -lt $deadline ]; do
		on_screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.2
	done
	echo "$E2E: timed out waiting for '$2' on $1"; echo "---- $1 ----"; on_screen "$1"; exit 1
}
client() { # client NAME COLS ROWS COMMAND...
	local name=$1 cols=$2 rows=$3
	shift 3
	tmux -L "$SOCK" new-session -d -s "$name" -x "$cols" -y "$rows" "SHELL=/bin/sh ALICE_HOME='$HOME_DIR' $*; echo CLIENT-EXITED rc=\$?; sleep 60"
}

step "alice serve runs the core headless"
ALICE_HOME="$HOME_DIR" "$WORK/alice" serve >"$WORK/serve.out" 2>&1 &
SERVE_PID=$!
deadline=$((SECONDS + WAIT))
until grep -q serving "$WORK/serve.out"; do
	[ $SECONDS -lt $deadline ] || { echo "$E2E: serve did not start"; cat "$WORK/serve.out"; exit 1; }
	sleep 0.1
done
SSH_PORT=$(sed -n 's/.*"ssh:\/\/127.0.0.1:\([0-9]*\)".*/\1/p' "$HOME_DIR/data/alice.lock.json")
[ -n "$SSH_PORT" ] || { echo "$E2E: no ssh listener recorded"; cat "$HOME_DIR/data/alice.lock.json"; exit 1; }

step "a client attaches, starts a shell session with a counter, detaches"
client one 120 35 "'$WORK/alice'"
on_wait one "Ask Alice"
on_keys one M-4
on_wait one "No workspaces yet"
on_keys one n
on_wait one "New workspace"
on_keys one "counter" Tab Enter
on_wait one "no sessions"
on_keys one s
on_wait one "● input"
deadline=$((SECONDS + WAIT))
until on_screen one | is_prompt; do
	[ $SECONDS -lt $deadline ] || { echo "$E2E: no shell prompt"; on_screen one; exit 1; }
	sleep 0.2
done
on_keys one 'i=0; while :; do i=$((i+1)); echo tick-$i; sleep 0.5; done' Enter
on_wait one "tick-3"
on_keys one C-q
on_wait one "detached"
on_keys one C-z
on_wait one "the core keeps running"
on_wait one "CLIENT-EXITED rc=0"
kill -0 "$SERVE_PID" || { echo "$E2E: the core stopped on detach"; exit 1; }
# Ticks come every 0.5 s: let a few go by with no client attached (the
# second client attached 42 ms after the first left, before tick-4).
sleep 1.5

step "a second client attaches: the counter kept running, its scrollback is intact"
client two 100 30 "'$WORK/alice' attach"
on_wait two "Ask Alice"
on_keys two M-4
on_wait two "counter"
on_keys two Enter
on_wait two "tick-1"
last_tick() { on_screen two | grep -o 'tick-[0-9]*' | tail -1 | cut -d- -f2; }
n1=$(last_tick)
[ "$n1" -gt 3 ] || { echo "$E2E: the counter did not run while detached (tick-$n1)"; on_screen two; exit 1; }
deadline=$((SECONDS + WAIT))
until [ "$(last_tick)" -gt "$n1" ]; do
	[ $SECONDS -lt $deadline ] || { echo "$E2E: the counter is not running (still tick-$n1)"; on_screen two; exit 1; }
	sleep 0.2
done
on_keys two C-q
on_wait two "detached"

step "two clients at different sizes see the same approval; one approves it"
client three 140 40 "'$WORK/alice' attach"
on_wait three "Ask Alice"
on_keys two M-1
on_keys two "buy 10 AAPL" Enter
on_wait two "Approve it in the Portfolio pane"
on_keys two M-3
on_keys three M-3
on_wait two "Pending approval"
on_wait three "Pending approval"
on_keys three a
on_wait three "Approve and execute these orders?"
deadline=$((SECONDS + WAIT)) # keys count once input is quiet
until on_screen three | grep -qE "$CONFIRM_READY"; do
	[ $SECONDS -lt $deadline ] || { echo "$E2E: the confirmation never accepted keys"; on_screen three; exit 1; }
	sleep 0.2
done
on_keys three y
on_wait three "Trading log"
deadline=$((SECONDS + WAIT))
while on_screen two | grep -qF "Pending approval"; do
	[ $SECONDS -lt $deadline ] || { echo "$E2E: the approval stayed on the other client"; on_screen two; exit 1; }
	sleep 0.2
done
on_screen two | grep -qE "AAPL +long +10 " || on_wait two "AAPL"

step "OpenSSH attaches over TCP with an authorized key; a wrong key is refused"
SSH_OPTS=(-p "$SSH_PORT" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o LogLevel=ERROR)
client four 90 28 "ssh -t -i '$WORK/good' ${SSH_OPTS[*]} 127.0.0.1"
on_wait four "Ask Alice"
on_keys four C-z
on_wait four "CLIENT-EXITED rc=0"
if ssh -i "$WORK/bad" "${SSH_OPTS[@]}" -o BatchMode=yes 127.0.0.1 true 2>"$WORK/bad.err"; then
	echo "$E2E: a wrong key was accepted"; exit 1
fi
grep -q "Permission denied" "$WORK/bad.err" || { echo "$E2E: unexpected refusal: $(cat "$WORK/bad.err")"; exit 1; }

step "quit from a client: the core stops, nothing is left"
on_keys three C-c
on_wait three "Quit alice?"
on_wait three "This stops the core for all clients"
on_wait three "MCP :"
on_wait three "sh1 in workspace counter"
on_keys three y
on_wait three "CLIENT-EXITED rc=0"
on_wait two "CLIENT-EXITED"
deadline=$((SECONDS + WAIT))
while kill -0 "$SERVE_PID" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
kill -0 "$SERVE_PID" 2>/dev/null && { echo "$E2E: the core still runs after quit"; exit 1; }
wait "$SERVE_PID" || true
[ -S "$HOME_DIR/data/attach/alice.sock" ] && { echo "$E2E: the socket outlived the core"; exit 1; }
no_processes_left " after quit"
echo "$E2E: all steps passed"
