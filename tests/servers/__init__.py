"""Tiny real MCP servers used by the tests and the benchmark (no mocks)."""
