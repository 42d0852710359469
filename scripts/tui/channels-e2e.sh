#!/usr/bin/env bash
# Channels end to end through the real binary in tmux: chat on the default
# channel, create a channel with /channel new, chat there, switch back
# through the ctrl+s browser, and the browser lists both channels with the
# titles their first messages gave them (message counts too). Then rename a
# session in the browser and check channels.json and the session file.
# Then Settings → Channels: Research gets another AI profile and placeOrder
# picked off from the tool list; in Research the model is the other one and
# a buy is refused, while the default channel still stages the order.
# Needs tmux. Uses a throw-away ALICE_HOME and free ports.
set -euo pipefail
cd "$(dirname "$0")/../.."
E2E=channels-e2e
# shellcheck source=scripts/lib/tmux.sh
source scripts/lib/tmux.sh

build_alice
start_mockllm
write_home
printf '{"activeProfile":"mock","profiles":{"mock":{"backend":"openai","model":"mock","baseUrl":"%s"},"other":{"backend":"openai","model":"other-model","baseUrl":"%s"}}}\n' "$LLM_URL" "$LLM_URL" >"$HOME_DIR/config/ai-provider.json"
start_alice 120 32

step "start"
wait_for "Ask Alice"
step "default channel: a first message"
keys "morning plan for tech" Enter
wait_for "You said: morning plan for tech"
step "/channel new Research"
keys "/channel new Research" Enter
wait_for "channel Research"
keys "earnings calendar ideas" Enter
wait_for "You said: earnings calendar ideas"
screen | grep -qF "morning plan for tech" && fail "the new channel shows the default channel's messages"
step "ctrl+s lists both channels with their titles"
keys C-s
wait_for "Sessions"
wait_for "morning plan for tech"
wait_for "earnings calendar ideas"
wait_for_re "Research .*2 msgs"
wait_for_re "Alice .*2 msgs"
step "switch back to the default channel from the browser"
keys "morning"
wait_until "$WAIT" sh -c '! grep -qF "earnings calendar ideas"' || fail "search did not filter the list"
keys Enter
wait_for "You said: morning plan for tech"
screen | grep -qF "You said: earnings calendar ideas" && fail "the default channel shows the Research messages"
step "the browser again: rename the Research session"
keys C-s
wait_for "earnings calendar ideas"
keys "earnings"
wait_until "$WAIT" sh -c '! grep -qF "morning plan for tech"' || fail "search did not filter the list"
keys C-r
wait_for "New title"
keys C-u "Q3 earnings" Enter
wait_for "Q3 earnings"
keys Escape
wait_until "$WAIT" sh -c '! grep -qF "filter ›"' || fail "esc did not close the browser"
wait_for "You said: morning plan for tech"
wait_file "$HOME_DIR/config/channels.json" '"label": "Research"'
wait_file "$HOME_DIR/data/sessions/tui/research.jsonl" '"title":"Q3 earnings"' # written by the rename's command
step "Settings → Channels: Research on the other profile, placeOrder off"
keys M-8
wait_for "AI provider"
keys "["
wait_for "Research (research)"
keys Down
wait_for "▸ Research (research)"
keys e
wait_for "Channel Research (research)"
keys Tab Right Right
wait_for "‹ other ›"
keys C-s
wait_for_re "Research \(research\) +other"
keys o
wait_for "Tools off in Research"
keys /
keys "placeorder"
wait_for "▸ [ ] placeOrder"
keys Enter Space
wait_for "▸ [x] placeOrder"
keys C-s
wait_for "Research: 1 tool off"
wait_file "$HOME_DIR/config/channels.json" '"placeOrder"'
wait_file "$HOME_DIR/config/channels.json" '"profile": "other"'
step "Research answers through the other profile and refuses placeOrder"
keys M-1
wait_for "Ask Alice"
keys "/channel Research" Enter
wait_for "# Research · other (openai other-model)"
keys "which model" Enter
wait_for "This is model other-model."
keys "buy 10 AAPL" Enter
wait_for "tool placeOrder is disabled for this channel"
step "the default channel still trades"
keys "/channel Alice" Enter
wait_for "# Alice · mock (openai mock)"
keys "buy 10 AAPL" Enter
wait_for "Approve it in the Portfolio pane"
wait_for "[1 pending]"
step "quit"
quit_alice
echo "$E2E: all steps passed"
