#!/usr/bin/env bash
# Record the real claude and codex CLIs answering a prompt, for the
# screen-equality corpus (workspace/testdata/terminal, checked by workspace
# TestScreenCorpus against tmux 3.3a):
#   claude-answer         claude 100x30: prompt typed, spinner, a long
#                         streamed markdown answer (heading, list, code, table)
#   claude-answer-resize  the same, resized to 80x24 while the answer streams
#   codex-answer          codex 100x30, the same prompt and answer
#   codex-answer-resize   the same, resized to 140x40 while the answer streams
#   claude-answer-cut     claude-answer-resize cut at its resize: the
#                         reflowed screen before claude redraws (no CLI runs)
#   claude-answer-grow    claude-answer, resized to 140x40 after the answer
#   codex-answer-shrink   codex-answer, resized to 80x24 after the answer
# Neither CLI has credentials here, so both talk to scripts/agentmock (a
# loopback-only stand-in for the Anthropic Messages and OpenAI Responses
# streaming APIs) and run with fresh, isolated homes: claude's
# ~/.claude.json is pre-seeded (onboarding done, the workspace trusted, the
# dummy API key approved); codex gets a CODEX_HOME outside /tmp (it refuses
# helper binaries under /tmp) whose config.toml selects a "mock" provider
# (wire_api="responses") with a model codex 0.169 knows and offers no
# upgrade from (gpt-6-sol: gpt-5.5 brings up an upgrade dialog, an unknown
# name a metadata warning), trusts the workspace and turns off the
# app-server daemon that would otherwise outlive the recording. Both run with the
# environment alice gives agents (TMUX unset, TERM=xterm-256color,
# COLORTERM=truecolor, TERM_PROGRAM=alice). Each recording is made by
# scripts/terminal/record.sh.
#
# The CLIs (the versions of the stored recordings):
#   npm install --prefix DIR @anthropic-ai/claude-code@2.1.197 @openai/codex@0.169.0
#   CLAUDE_BIN=DIR/node_modules/.bin/claude CODEX_BIN=DIR/node_modules/.bin/codex \
#     scripts/terminal/record-agents.sh [NAME...]      # default: all seven
# (CLAUDE_BIN and CODEX_BIN default to claude and codex on PATH.)
# Then `go test ./workspace -run TestScreenCorpusCheckpoints -update` takes
# the new recordings' checkpoints (what tmux shows part-way through).
set -euo pipefail
cd "$(dirname "$0")/../.."
CLAUDE_BIN=$(command -v "${CLAUDE_BIN:-claude}") || { echo "claude not found (set CLAUDE_BIN)"; exit 2; }
CODEX_BIN=$(command -v "${CODEX_BIN:-codex}") || { echo "codex not found (set CODEX_BIN)"; exit 2; }
NAMES=("$@")
[ ${#NAMES[@]} -gt 0 ] || NAMES=(claude-answer claude-answer-resize claude-answer-cut claude-answer-grow codex-answer codex-answer-resize codex-answer-shrink)

WORK=$(mktemp -d /var/tmp/alice-record-agents.XXXXXX)
MOCK_PID=
cleanup() {
	[ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
go build -o "$WORK/agentmock" ./scripts/agentmock
"$WORK/agentmock" -addr 127.0.0.1:0 -think 1.5s -word-delay 25ms >"$WORK/mock.out" 2>"$WORK/mock.log" &
MOCK_PID=$!
for _ in $(seq 100); do
	grep -q listening "$WORK/mock.out" 2>/dev/null && break
	sleep 0.1
done
URL=$(sed -n 's/^agentmock listening on //p' "$WORK/mock.out")
[ -n "$URL" ] || { echo "agentmock did not start"; cat "$WORK/mock.log"; exit 1; }

PROMPT='Explain a moving average crossover strategy'
AGENT_ENV="env -u TMUX -u TMUX_PANE TERM=xterm-256color COLORTERM=truecolor TERM_PROGRAM=alice"

# fresh_homes makes a new workspace folder and homes for one recording.
fresh_homes() {
	RUN=$WORK/$1
	mkdir -p "$RUN/ws" "$RUN/home" "$RUN/codex-home"
	cat >"$RUN/home/.claude.json" <<EOF
{"hasCompletedOnboarding": true,
 "customApiKeyResponses": {"approved": ["sk-ant-mock"], "rejected": []},
 "projects": {"$RUN/ws": {"hasTrustDialogAccepted": true}}}
EOF
	cat >"$RUN/codex-home/config.toml" <<EOF
model = "gpt-6-sol"
model_provider = "mock"

[model_providers.mock]
name = "mock"
base_url = "$URL/v1"
wire_api = "responses"
env_key = "MOCK_KEY"

[projects."$RUN/ws"]
trust_level = "trusted"

[features]
daemon_auto_start = false
EOF
}

for name in "${NAMES[@]}"; do
	fresh_homes "$name"
	CLAUDE="cd '$RUN/ws' && $AGENT_ENV HOME='$RUN/home' ANTHROPIC_API_KEY=sk-ant-mock ANTHROPIC_BASE_URL=$URL DISABLE_AUTOUPDATER=1 '$CLAUDE_BIN'"
	CODEX="cd '$RUN/ws' && $AGENT_ENV HOME='$RUN/home' CODEX_HOME='$RUN/codex-home' MOCK_KEY=mock '$CODEX_BIN'"
	# The prompt is typed halfway (after start-up); the answer starts 1.5 s
	# later and streams for about 6 s; a resize lands 3 s after the prompt's
	# Enter (mid-answer) or 9 s after it (the answer done).
	case $name in
	claude-answer) KEY_PAUSE=0.5 scripts/terminal/record.sh "$name" 100 30 22 "$CLAUDE" "$PROMPT" Enter ;;
	claude-answer-resize) KEY_PAUSE=0.5 RESIZE=80x24 RESIZE_DELAY=3 scripts/terminal/record.sh "$name" 100 30 22 "$CLAUDE" "$PROMPT" Enter ;;
	claude-answer-cut) CUT_FROM=claude-answer-resize scripts/terminal/record.sh "$name" ;;
	claude-answer-grow) KEY_PAUSE=0.5 RESIZE=140x40 RESIZE_DELAY=9 scripts/terminal/record.sh "$name" 100 30 22 "$CLAUDE" "$PROMPT" Enter ;;
	codex-answer) KEY_PAUSE=0.5 scripts/terminal/record.sh "$name" 100 30 22 "$CODEX" "$PROMPT" Enter ;;
	codex-answer-resize) KEY_PAUSE=0.5 RESIZE=140x40 RESIZE_DELAY=3 scripts/terminal/record.sh "$name" 100 30 22 "$CODEX" "$PROMPT" Enter ;;
	codex-answer-shrink) KEY_PAUSE=0.5 RESIZE=80x24 RESIZE_DELAY=9 scripts/terminal/record.sh "$name" 100 30 22 "$CODEX" "$PROMPT" Enter ;;
	*) echo "unknown recording $name"; exit 2 ;;
	esac
done
echo "agentmock requests:"
sed -E 's/^agentmock [0-9:.]+ ([A-Z]+ [^ ]+).*/  \1/' "$WORK/mock.log" | sort | uniq -c
