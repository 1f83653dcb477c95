"""The pure engine: tool model, canonical JSON + digest, schema walk, rules, replay,
witnesses, policy tiers, status and the verdict. Imports nothing above it: no store,
services, formats, cli or tui, and no textual, rich or mcp (pyproject.toml contracts)."""
