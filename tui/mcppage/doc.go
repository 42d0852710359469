// Package mcppage is the MCP page: the main, ask and workspace MCP
// endpoints with copyable snippets and the connected clients. It reaches
// alice through the optional MCPCore.
package mcppage
