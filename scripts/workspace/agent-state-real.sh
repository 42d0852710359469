#!/usr/bin/env bash
# Real-client check of the agent state detector: the installed claude and
# codex CLIs run in alice workspace sessions with no credentials and no
# network; claude must end errored (never "working"), codex's sign-in menu
# must read as needs-you, and a claude turn against a local
# Anthropic-compatible stub must read working, then done.
#
# The CLIs come from PATH, else (ALICE_INSTALL_AGENTS=1) an npm install into
# ${ALICE_AGENTS_PREFIX:-/tmp/alice-agents}. Each test uses a throwaway HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v claude >/dev/null || ! command -v codex >/dev/null; then
  prefix=${ALICE_AGENTS_PREFIX:-/tmp/alice-agents}
  if [ ! -x "$prefix/node_modules/.bin/claude" ] || [ ! -x "$prefix/node_modules/.bin/codex" ]; then
    if [ "${ALICE_INSTALL_AGENTS:-0}" != 1 ]; then
      echo "claude/codex not on PATH; set ALICE_INSTALL_AGENTS=1 to npm-install them into $prefix" >&2
      exit 2
    fi
    mkdir -p "$prefix"
    (cd "$prefix" && npm init -y >/dev/null && npm install --no-audit --no-fund @anthropic-ai/claude-code @openai/codex >/dev/null)
  fi
  export PATH="$prefix/node_modules/.bin:$PATH"
fi
echo "claude $(claude --version) · $(codex --version)"
go test -race -count=1 -v -run 'TestRealClaudeWithoutKeyIsNeverWorking|TestRealClaudeTurnWorksThenDone|TestRealCodexSignInNeedsYou' ./workspace/ | grep -E '^(---|ok|FAIL)|ended|codex:|transitions'
