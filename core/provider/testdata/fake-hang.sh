#!/bin/sh
# Emits one line and then hangs, to test cancellation kills the CLI.
echo '{"type":"assistant","message":{"content":[{"type":"text","text":"thinking"}]}}'
exec sleep 600
