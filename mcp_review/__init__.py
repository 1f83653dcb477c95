"""mcp-review: review MCP tool drift — what changed, whether it breaks, whether to trust it."""

__version__ = "0.4.0"
