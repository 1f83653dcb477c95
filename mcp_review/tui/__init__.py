"""The review app: a Textual TUI over the core engine (imported lazily by `mcp-review review`)."""
