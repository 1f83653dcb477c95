"""Bundled MCP servers that change under you, for `mcp-review demo`."""
