#!/usr/bin/env bash
# A hostile agent and a careless config against the real `alice serve`,
# through the official MCP TypeScript SDK client (hostile.mjs): what the
# guards check is what executes. Not part of `make test` (needs npm and
# kills the core with SIGKILL); run it directly:
#
#   ALICE_BIN=bin/alice bash scripts/mcp/hostile.sh
#
# 1. `alice check` and `alice serve` refuse a misspelt guard type and an
#    unknown account key, naming file, key and the nearest known name.
# 2. hostile.mjs attack: the cashQty bypass, bad numbers, read-only, the
#    AI-trading switch, stale/foreign hashes, pushing twice, a refused
#    modify, a close above max-order-value.
# 3. kill -9 of the core after staging, after committing, while a push
#    awaits a person, and right after a push; after each restart the work
#    is there and executes once (or stays frozen until decided).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ALICE_BIN=${ALICE_BIN:?set ALICE_BIN to an alice binary}
WORK=$(mktemp -d /tmp/alice-hostile.XXXXXX)
PID=""
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

. "$HERE/node.sh"
mcp_node_setup hostile.mjs

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
FAIL=0

accounts() { # guardType extraKey
	cat <<EOF
[
 {"id":"sim-auto","presetId":"simulator","autoApprove":true,$2"guards":[{"type":"$1","options":{"maxValue":5000}},{"type":"max-position-size","options":{"maxPercentOfEquity":25}}]},
 {"id":"sim-manual","presetId":"simulator","guards":[{"type":"max-order-value","options":{"maxValue":5000}}]},
 {"id":"sim-ro","presetId":"simulator","readOnly":true,"guards":[]}
]
EOF
}

HOME_DIR="$WORK/home"
CFG="$HOME_DIR/config"
mkdir -p "$CFG"
PORT=$(free_port)
printf '{"host":"127.0.0.1","port":%d,"maxRequestBytes":8388608}\n' "$PORT" >"$CFG/mcp.json"
echo '{"mcpAsk":{"enabled":false}}' >"$CFG/connectors.json"
echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}' >"$CFG/news.json"
URL="http://127.0.0.1:$PORT/mcp"

echo "== a careless config"
refused() { # what expected-regex...
	local what=$1 out rc
	shift
	set +e
	out=$("$ALICE_BIN" check --home "$HOME_DIR" 2>&1)
	rc=$?
	set -e
	local ok=1
	[ "$rc" -ne 0 ] || ok=0
	for re in "$@"; do echo "$out" | grep -qE -- "$re" || ok=0; done
	if [ "$ok" -eq 1 ]; then echo "  ok   alice check refuses $what (rc $rc): $(echo "$out" | head -n 1 | cut -c1-200)"; else
		echo "  FAIL alice check on $what (rc $rc): $out"
		FAIL=1
	fi
}
accounts max-order-valu "" >"$CFG/accounts.json"
refused 'guard type "max-order-valu"' 'accounts.json' '\[0\]\.guards\[0\]\.type' 'did you mean "max-order-value"'
set +e
out=$(timeout 20 "$ALICE_BIN" serve --home "$HOME_DIR" 2>&1)
rc=$?
set -e
if [ "$rc" -ne 0 ] && echo "$out" | grep -q 'max-order-value'; then echo "  ok   alice serve refuses to start on it (rc $rc)"; else
	echo "  FAIL alice serve with a misspelt guard (rc $rc): $out"
	FAIL=1
fi
accounts max-order-value '"zzzJunk":1,' >"$CFG/accounts.json"
refused 'unknown account key "zzzJunk"' 'accounts.json' 'zzzJunk'
accounts max-order-value '"readonly":true,' >"$CFG/accounts.json"
refused 'a misspelt "readonly"' 'did you mean "readOnly"'
accounts max-order-value "" >"$CFG/accounts.json"
"$ALICE_BIN" check --home "$HOME_DIR" >/dev/null && echo "  ok   the corrected file passes"

start() {
	"$ALICE_BIN" serve --home "$HOME_DIR" >>"$WORK/serve.log" 2>&1 &
	PID=$!
	local hp=127.0.0.1:$PORT
	for _ in $(seq 1 150); do
		if (exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	echo "alice serve did not come up"; tail -n 20 "$WORK/serve.log"; exit 1
}
crash() {
	kill -9 "$PID"
	wait "$PID" 2>/dev/null || true
	PID=""
}

start
echo "== hostile agent (TypeScript SDK client) against $URL"
(cd "$NODE_DIR" && node hostile.mjs attack "$URL" "$CFG") || FAIL=1

for what in staged committed awaiting; do
	echo "== kill -9 after the order was $what"
	res=$(cd "$NODE_DIR" && node hostile.mjs stage "$URL" "$what") || FAIL=1
	echo "$res" | grep -v -E '^(HASH|HELD)='
	hash=$(echo "$res" | sed -n 's/^HASH=//p')
	heldBefore=$(echo "$res" | sed -n 's/^HELD=//p')
	crash
	start
	(cd "$NODE_DIR" && node hostile.mjs after "$URL" "$what" "$hash" "$heldBefore") || FAIL=1
done

echo "== kill -9 right after a push"
res=$(cd "$NODE_DIR" && node hostile.mjs stage "$URL" committed) || FAIL=1
hash=$(echo "$res" | sed -n 's/^HASH=//p')
heldBefore=$(echo "$res" | sed -n 's/^HELD=//p')
(cd "$NODE_DIR" && node -e '
import("@modelcontextprotocol/sdk/client/index.js").then(async ({ Client }) => {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const c = new Client({ name: "h22-hostile", version: "0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(process.argv[1])));
  const r = await c.callTool({ name: "tradingPush", arguments: { source: "sim-auto" } });
  console.log("  pushed:", r.content[0].text.slice(0, 160));
  process.exit(0);
});' "$URL")
crash
start
(cd "$NODE_DIR" && node -e '
import("@modelcontextprotocol/sdk/client/index.js").then(async ({ Client }) => {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const [url, hash, before] = process.argv.slice(1);
  const c = new Client({ name: "h22-hostile", version: "0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  const call = async (name, args) => JSON.parse((await c.callTool({ name, arguments: args })).content[0].text.replace(/^Error: .*/s, "null") || "null");
  const rows = ((await call("orderHistory", { source: "sim-auto", limit: 200 })) || []).filter((x) => x.commitHash === hash);
  const st = (await call("tradingStatus", { source: "sim-auto" }))["sim-auto"];
  const pos = ((await call("getPortfolio", { source: "sim-auto" }))["sim-auto"].positions || []).find((p) => p.contract.symbol === "MSFT");
  const held = pos ? Number(pos.quantity) : 0;
  const ok = rows.length === 1 && rows[0].filledQty === "5" && !st.pendingHash && held === Number(before) + 5;
  console.log(ok ? "  ok  " : "  FAIL", `after the restart: commit ${hash} executed once (rows ${rows.length}, held ${before} -> ${held}, pending ${st.pendingHash || "none"})`);
  process.exit(ok ? 0 : 1);
});' "$URL" "$hash" "$heldBefore") || FAIL=1

if [ "$FAIL" -ne 0 ]; then
	echo "== serve log (tail)"; tail -n 30 "$WORK/serve.log"
	echo "hostile: FAILED"
	exit 1
fi
echo "hostile: all checks passed"
