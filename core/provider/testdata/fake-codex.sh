#!/bin/sh
# Replays a recorded `codex exec --json` run.
echo "$*" > "${FAKE_ARGS_FILE:-/dev/null}"
cat <<'JSON'
{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"alice","tool":"getAccount","arguments":{"source":"sim-paper"},"result":{"content":[{"type":"text","text":"{\"netLiquidation\":\"100000\"}"}]},"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Your net liquidation is 100000."}}
{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":5}}
JSON
