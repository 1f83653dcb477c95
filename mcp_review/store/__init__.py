"""Files: the pin file (TOML, lock, atomic write, merge), the audit log, snapshots, call
logs. Imports only the engine (import-linter contract in pyproject.toml)."""
