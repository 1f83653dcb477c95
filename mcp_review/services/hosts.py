"""Which hosts count: ``--hosts``, else ``[hosts] targets`` in the config, else the
hosts the user runs, inferred from the dialect of each client config read (``--config auto``
reads them all) and the ``clientInfo`` an enforcing proxy recorded, each said with where from.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcp_review.engine.errors import InputError
from mcp_review.engine.hosts import (
    DIALECT_WORDS,
    PROFILES,
    HostsError,
    Targets,
    check_names,
    profile_for_client,
)

_FILE_DIALECT = {
    ".mcp.json": "claude-code",
    ".claude.json": "claude-code",
    "claude_desktop_config.json": "claude-desktop",
    "mcp_config.json": "windsurf",
}

if TYPE_CHECKING:
    from mcp_review.services.config_model import Config


def dialect_of(path: str | None) -> str | None:
    """The client whose config dialect the file ``path`` is (None for mcp-review.toml or a
    file of no known client)."""
    if not path:
        return None
    p = Path(path)
    if p.name == "mcp.json" and p.parent.name in (".vscode", "User"):
        return "vscode"
    if p.name == "mcp.json" and p.parent.name == ".cursor":
        return "cursor"
    return _FILE_DIALECT.get(p.name)


def parse_hosts_option(value: str) -> tuple[str, ...]:
    """``--hosts a,b``: profile names (InputError, exit 2, naming an unknown one)."""
    try:
        return check_names(n.strip() for n in value.split(",") if n.strip())
    except HostsError as e:
        raise InputError(f"--hosts: {e}") from None


def resolve_targets(
    cfg: Config | None,
    explicit: tuple[str, ...] | None = None,
    clients: dict[str, str] | None = None,
) -> Targets | None:
    """The target hosts, or None when nothing says which (no host is judged then).
    ``clients``: clientInfo names an enforcing proxy recorded -> where."""
    hosts_cfg = cfg.hosts if cfg is not None else None
    profiles = hosts_cfg.profiles if hosts_cfg is not None else dict(PROFILES)
    if explicit:
        return Targets(explicit, profiles, dict.fromkeys(explicit, "--hosts"))
    if cfg is not None and hosts_cfg is not None and hosts_cfg.targets is not None:
        where = f"[hosts] targets in {cfg.source}"
        return Targets(hosts_cfg.targets, profiles, dict.fromkeys(hosts_cfg.targets, where))
    origin: dict[str, str] = {}
    if cfg is not None:
        for src in getattr(cfg, "sources", None) or ():
            name = DIALECT_WORDS.get(getattr(src, "client", ""))
            if name and getattr(src, "state", "") == "read" and name not in origin:
                origin[name] = f"inferred from the {src.client} config {src.where}"
        dialect = dialect_of(getattr(cfg, "source", None))
        name = DIALECT_WORDS.get(dialect or "")
        if name and name not in origin:
            origin[name] = f"inferred from the {dialect} config {cfg.source}"
    for client, where in (clients or {}).items():
        name = profile_for_client(client)
        if name and name not in origin:
            origin[name] = f"inferred from clientInfo seen by the proxy ({where})"
    if not origin:
        return None
    return Targets(tuple(origin), profiles, origin)


def targets_note(t: Targets | None) -> str | None:
    """One line for stderr: which hosts are judged and where each came from."""
    if t is None or not t.names:
        return None
    return "hosts judged: " + "; ".join(f"{n} ({t.origin.get(n, '?')})" for n in t.names)
