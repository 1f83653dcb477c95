"""Services: config loading and live connections (may import core and mcp, never textual)."""
