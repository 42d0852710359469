#!/bin/sh
# A codex that leaves a daemon behind, as `codex app-server
# --managed-daemon` does: its own session (setsid), its parent gone, stdio
# closed. The daemon's pid goes to $FAKE_DAEMON_PID_FILE.
cat > /dev/null
setsid sh -c 'sleep 300 & echo $! > "$FAKE_DAEMON_PID_FILE"' </dev/null >/dev/null 2>&1 &
while [ ! -s "$FAKE_DAEMON_PID_FILE" ]; do sleep 0.01; done
echo '{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"done"}}'
echo '{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}'
