"""The pure engine: tool model, digest, schema diff, replay, witnesses, policy, pin file.

Nothing here imports textual, rich, mcp or the UI (enforced by tests/test_layers.py).
"""
