#!/usr/bin/env bash
# End-to-end Settings flow through the real binary in tmux, as a new user
# would: start alice with NO AI provider, add one through Settings (alt+8),
# then the next chat message goes to it (scripted mock LLM). Finally
# `alice check` passes on the files the pane wrote.
# Needs tmux. Uses a throw-away ALICE_HOME and free ports.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=settings-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
start_mockllm
write_home # no ai-provider.json: the user adds the provider through the pane
start_alice 140 40 OPENAI_API_KEY= ANTHROPIC_API_KEY=

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
quit_alice
step "alice check passes on the files the pane wrote"
ALICE_HOME="$HOME_DIR" "$WORK/alice" check
grep -q '"mock-from-pane"' "$HOME_DIR/config/ai-provider.json" || { echo "settings-e2e: profile not in ai-provider.json"; exit 1; }
echo "settings-e2e: all steps passed"
