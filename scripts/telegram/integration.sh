#!/usr/bin/env bash
# Runs the Telegram connector's integration test against the real
# telegram-test-api Bot API emulator: installs it (npm ci), starts it on a
# loopback port, runs the Go test, and stops the emulator by its PID.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${TELEGRAM_EMULATOR_PORT:-9000}"

cd "$here"
[ -d node_modules/telegram-test-api ] || npm ci --no-audit --no-fund >/dev/null
TELEGRAM_EMULATOR_PORT="$port" node emulator.mjs >"${TMPDIR:-/tmp}/alice-telegram-emulator.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true' EXIT

for _ in $(seq 1 50); do
  curl -fsS -X POST "http://127.0.0.1:$port/botPING/getMe" >/dev/null 2>&1 && break
  sleep 0.2
done

cd "$root"
ALICE_TELEGRAM_EMULATOR="http://127.0.0.1:$port" go test -race -count=1 -run "TestAgainstBotAPIEmulator|TestApprovalsReachPeopleAgainstBotAPIEmulator|TestNeedsYouAlertReachesTelegramEmulator" -v ./core/connector/telegram/ ./app/

# Telegram that heals: alice started against a closed port recovers when
# the emulator comes up there (its own emulator, on a free port).
"$here/heal.sh"
