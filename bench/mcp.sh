#!/usr/bin/env bash
# tools/call throughput and p99 latency on loopback against the real
# `alice serve` (calculate, a pure tool, so the number measures the MCP path).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d /tmp/alice-bench.XXXXXX)
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$WORK"' EXIT
go build -o "$WORK/alice" .
mkdir -p "$WORK/home/config"
echo '{"port":0}' >"$WORK/home/config/mcp.json"
echo '{"mcpAsk":{"enabled":false}}' >"$WORK/home/config/connectors.json"
echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}' >"$WORK/home/config/news.json"
ALICE_HOME="$WORK/home" "$WORK/alice" serve >"$WORK/serve.out" 2>&1 &
PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/serve.out" && break; sleep 0.1; done
URL=$(awk '/^MCP listening on/{print $4}' "$WORK/serve.out")
echo "== MCP tools/call against alice serve ($URL)"
go run ./bench/mcp -url "$URL" -tool calculate -args '{"expression":"(150.25 * 10) / 3"}' -n "${N:-5000}" -c "${C:-8}"
