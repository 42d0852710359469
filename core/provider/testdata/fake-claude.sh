#!/bin/sh
# Replays a recorded `claude -p --output-format stream-json --verbose` run.
# It records its argv and stdin (the prompt) so tests can check them.
printf '%s\n' "$@" > "${FAKE_ARGS_FILE:-/dev/null}"
cat > "${FAKE_STDIN_FILE:-/dev/null}"
cat <<'JSON'
{"type":"system","subtype":"init","session_id":"s1","tools":["mcp__alice__getQuote","mcp__alice__notify_user"],"mcp_servers":[{"name":"alice","status":"connected"}]}
{"type":"assistant","message":{"id":"m1","type":"message","role":"assistant","content":[{"type":"text","text":"Checking the quote."},{"type":"tool_use","id":"toolu_1","name":"mcp__alice__getQuote","input":{"aliceId":"sim-paper|AAPL"}}]}}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":[{"type":"text","text":"{\"last\":\"190.25\"}"}]}]}}
{"type":"assistant","message":{"id":"m2","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"mcp__alice__notify_user","input":{"text":"AAPL at 190.25","urgency":"info"}}]}}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":"{\"acknowledged\":true}"}]}}
{"type":"assistant","message":{"id":"m3","type":"message","role":"assistant","content":[{"type":"text","text":"AAPL is at 190.25."}]}}
{"type":"result","subtype":"success","is_error":false,"result":"AAPL is at 190.25.","session_id":"s1","num_turns":3}
JSON
