#!/usr/bin/env bash
# End-to-end Settings flow through the real binary in tmux, as a new user
# would: start alice with NO AI provider, add one through Settings (alt+8),
# then the next chat message goes to it (scripted mock LLM). Finally
# `alice check` passes on the files the pane wrote.
# Needs tmux. Uses a throw-away ALICE_HOME and free ports.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v tmux >/dev/null || { echo "settings-e2e: tmux is required"; exit 1; }

WORK=$(mktemp -d /tmp/alice-settings-e2e.XXXXXX)
SOCK="alice-settings-e2e-$$"
LLM_PID=""
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null || true
	[ -n "$LLM_PID" ] && kill "$LLM_PID" 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

go build -o "$WORK/alice" .
go build -o "$WORK/mockllm" ./scripts/mockllm
"$WORK/mockllm" -addr 127.0.0.1:0 >"$WORK/llm.out" 2>&1 &
LLM_PID=$!
for _ in $(seq 50); do grep -q listening "$WORK/llm.out" && break; sleep 0.1; done
LLM_URL=$(awk '/listening/{print $4}' "$WORK/llm.out")

HOME_DIR="$WORK/home"
mkdir -p "$HOME_DIR/config"
# No ai-provider.json: the user adds the provider through the pane.
echo '{"port":0}' >"$HOME_DIR/config/mcp.json"
echo '{"mcpAsk":{"enabled":false}}' >"$HOME_DIR/config/connectors.json"
echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":100,"retentionDays":7,"feeds":[]}' >"$HOME_DIR/config/news.json"

tmux -L "$SOCK" new-session -d -x 140 -y 40 "SHELL=/bin/sh OPENAI_API_KEY= ANTHROPIC_API_KEY= ALICE_HOME='$HOME_DIR' '$WORK/alice'; echo ALICE-EXITED rc=\$?; sleep 60"

screen() { tmux -L "$SOCK" capture-pane -p; }
wait_for() { # wait_for TEXT [seconds]
	local deadline=$((SECONDS + ${2:-15}))
	while [ $SECONDS -lt $deadline ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.2
	done
	echo "settings-e2e: timed out waiting for: $1"; echo "---- screen ----"; screen; exit 1
}
keys() { tmux -L "$SOCK" send-keys "$@"; }
step() { echo "== $*"; }

step "start without a provider"
wait_for "8 Settings"
step "settings: add an AI profile"
keys M-8
wait_for "No profiles yet"
keys a
wait_for "Add AI profile"
keys "mock" Tab Tab "mock-from-pane" Tab "$LLM_URL"
keys C-s
wait_for "● mock"
wait_for "mock-from-pane"
step "settings: test the profile"
keys t
wait_for "answered in"
step "chat: the next message goes to the new profile"
keys M-1
wait_for "mock (openai mock-from-pane)"
keys "hello from settings" Enter
wait_for "You said: hello from settings"
step "quit"
keys C-c
sleep 0.5
screen | grep -qF "Quit alice?" && keys y
wait_for "ALICE-EXITED rc=0" 10
step "alice check passes on the files the pane wrote"
ALICE_HOME="$HOME_DIR" "$WORK/alice" check
grep -q '"mock-from-pane"' "$HOME_DIR/config/ai-provider.json" || { echo "settings-e2e: profile not in ai-provider.json"; exit 1; }
echo "settings-e2e: all steps passed"
