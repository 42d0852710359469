#!/usr/bin/env bash
# Real-client check: the claude CLI, run inside an alice workspace, must report
# both MCP servers from the generated .mcp.json as connected.
#
# Usage: scripts/workspace/claude-mcp-check.sh <workspace-dir>
#   <workspace-dir> is a workspace created by a running alice
#   (<data>/workspaces/<id>), so its .mcp.json points at alice's /mcp and
#   /mcp/<id>.
# claude comes from $CLAUDE_BIN, else PATH, else (ALICE_INSTALL_CLAUDE=1) an npm
# install into ${ALICE_CLAUDE_PREFIX:-/tmp/alice-claude}. HOME is a throwaway
# directory, so the real ~/.claude is never touched.
# Exit 0 when both servers are connected; the `claude mcp list` output is printed.
set -euo pipefail

ws=${1:?usage: $0 <workspace-dir>}
[ -f "$ws/.mcp.json" ] || { echo "no .mcp.json in $ws" >&2; exit 2; }
[ -f "$ws/.claude/settings.local.json" ] || { echo "no .claude/settings.local.json in $ws (claude would ask for approval)" >&2; exit 2; }

bin=${CLAUDE_BIN:-$(command -v claude || true)}
if [ -z "$bin" ]; then
  prefix=${ALICE_CLAUDE_PREFIX:-/tmp/alice-claude}
  if [ ! -x "$prefix/node_modules/.bin/claude" ]; then
    if [ "${ALICE_INSTALL_CLAUDE:-0}" != 1 ]; then
      echo "claude CLI not found; set CLAUDE_BIN or ALICE_INSTALL_CLAUDE=1" >&2
      exit 2
    fi
    mkdir -p "$prefix"
    (cd "$prefix" && npm init -y >/dev/null && npm install --no-audit --no-fund @anthropic-ai/claude-code >/dev/null)
  fi
  bin=$prefix/node_modules/.bin/claude
fi

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
echo "claude: $("$bin" --version)"
out=$(cd "$ws" && HOME=$home CLAUDE_CONFIG_DIR=$home/.claude DISABLE_AUTOUPDATER=1 timeout 60 "$bin" mcp list 2>&1) || {
  echo "$out"; echo "claude mcp list failed" >&2; exit 1; }
echo "$out"
ok=0
grep -Eq '^alice: .*Connected' <<<"$out" || { echo "FAIL: alice (global /mcp) not connected" >&2; ok=1; }
grep -Eq '^alice-workspace: .*/mcp/[^ ]+ .*Connected' <<<"$out" || { echo "FAIL: alice-workspace (/mcp/<wsId>) not connected" >&2; ok=1; }
[ $ok = 0 ] && echo "OK: claude connects to both alice MCP servers"
exit $ok
