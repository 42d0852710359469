#!/bin/sh
# Replays a recorded `codex exec --json` run; records argv and stdin.
printf '%s\n' "$@" > "${FAKE_ARGS_FILE:-/dev/null}"
cat > "${FAKE_STDIN_FILE:-/dev/null}"
cat <<'JSON'
{"type":"thread.started","thread_id":"t1"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"mcp_tool_call","server":"alice","tool":"getAccount","arguments":{"source":"sim-paper"},"result":null,"error":null,"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"mcp_tool_call","server":"alice","tool":"getAccount","arguments":{"source":"sim-paper"},"result":{"content":[{"type":"text","text":"{\"netLiquidation\":\"100000\"}"}],"structured_content":null},"error":null,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"alice","tool":"placeOrder","arguments":{"source":"x"},"result":null,"error":{"message":"unknown account x"},"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Your net liquidation is 100000."}}
{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5}}
JSON
