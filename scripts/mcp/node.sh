# Sourced by the MCP scripts: puts the pinned Node packages of
# package.json (the official MCP TypeScript SDK, the conformance suite,
# Node 22) into NODE_DIR, installing them again only when package.json
# changed, and copies the named client scripts next to them.
#   . "$HERE/node.sh"; mcp_node_setup sdk-client.mjs
NODE_DIR=${ALICE_MCP_NODE_DIR:-/tmp/alice-mcp-node}
mcp_node_setup() {
	mkdir -p "$NODE_DIR"
	if ! cmp -s "$HERE/package.json" "$NODE_DIR/package.json" || [ ! -d "$NODE_DIR/node_modules/@modelcontextprotocol/sdk" ]; then
		cp "$HERE/package.json" "$HERE/package-lock.json" "$NODE_DIR/"
		(cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error)
	fi
	local f
	for f in "$@"; do cp "$HERE/$f" "$NODE_DIR/"; done
}
