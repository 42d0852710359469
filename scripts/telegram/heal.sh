#!/usr/bin/env bash
# Telegram that heals, end to end against the real telegram-test-api Bot
# API emulator: `alice serve` starts with Telegram pointed at a closed
# loopback port (its start-up line, log and `alice doctor` must say the
# Bot API is not reachable), the emulator then starts on that port, and a
# person's /status must be answered within 30 s of the emulator starting.
# Prints the recovery time. Stops everything it started, by PID.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "heal.sh: $*"; echo "--- serve output"; cat "$work/serve.out" 2>/dev/null || true; exit 1; }

cd "$here"
[ -d node_modules/telegram-test-api ] || npm ci --no-audit --no-fund >/dev/null
cd "$root"
go build -o "$work/alice" .

# A free loopback port nobody listens on (yet).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
token="4242:heal-test"
home="$work/home"
mkdir -p "$home/config"
echo '{"port":0}' >"$home/config/mcp.json"
echo '{"enabled":false,"intervalMinutes":10,"maxInMemory":10,"retentionDays":1,"feeds":[]}' >"$home/config/news.json"
printf '{"mcpAsk":{"enabled":false},"telegram":{"enabled":true,"botToken":"%s","chatIds":[4242],"apiBaseUrl":"http://127.0.0.1:%s"}}\n' "$token" "$port" >"$home/config/connectors.json"

"$work/alice" serve --home "$home" >"$work/serve.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 150); do grep -q serving "$work/serve.out" && break; sleep 0.2; done
grep -q serving "$work/serve.out" || fail "alice serve did not start"
grep -q "telegram: Bot API not reachable" "$work/serve.out" || fail "serve's start-up line does not say the Bot API is unreachable"
echo "serve says: $(grep 'telegram:' "$work/serve.out")"
log=$(find "$home" -name alice.log | head -1)
grep -q "Telegram Bot API not reachable" "$log" || fail "the log has no Telegram line"
doctor=$("$work/alice" doctor --home "$home" 2>&1 || true)
echo "$doctor" | grep -q "✗ telegram" || { echo "$doctor"; fail "alice doctor does not report Telegram"; }
echo "doctor says: $(echo "$doctor" | grep -A1 '✗ telegram' | tr -s ' ' | tr '\n' ' ')"
sleep 3 # let it fail a few more times: the point is recovering after a while down

TELEGRAM_EMULATOR_PORT="$port" node "$here/emulator.mjs" >"$work/emulator.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do grep -qs ready "$work/emulator.out" && break; sleep 0.1; done
grep -q ready "$work/emulator.out" || fail "the emulator did not start"
started=$(date +%s.%N)
curl -fsS -X POST -H 'Content-Type: application/json' "http://127.0.0.1:$port/sendMessage" \
	-d "{\"botToken\":\"$token\",\"date\":$(date +%s),\"text\":\"/status\",\"from\":{\"id\":4242,\"first_name\":\"Me\",\"is_bot\":false},\"chat\":{\"id\":4242,\"type\":\"private\",\"first_name\":\"Me\"}}" >/dev/null
answered=""
while [ "$(echo "$(date +%s.%N) - $started < 30" | bc)" = 1 ]; do
	reply=$(curl -fsS -X POST -H 'Content-Type: application/json' "http://127.0.0.1:$port/getUpdates" -d "{\"token\":\"$token\",\"chatId\":4242}" || true)
	if echo "$reply" | grep -q '"AI: '; then answered=$(date +%s.%N); break; fi
	sleep 0.2
done
[ -n "$answered" ] || fail "/status was not answered within 30 s of the emulator starting"
printf 'recovered: /status answered %.1f s after the Bot API emulator started\n' "$(echo "$answered - $started" | bc)"
grep -q "Telegram Bot API reachable again" "$log" || fail "the log does not record the recovery"
echo "log says: $(grep -o '"msg":"Telegram Bot API reachable again[^"]*"[^}]*' "$log" | head -1)"
