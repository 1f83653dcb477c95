"""``--config auto``: the MCP client configs already on this machine, read as they are.

Sources, in the order they are listed (``--list-configs``), each client's files in its own
precedence (the first one holding a name is the one the client uses; the others are noted as
shadowed):

- **Claude Desktop** (``claude-desktop``): ``~/Library/Application Support/Claude/`` (macOS),
  ``$XDG_CONFIG_HOME/Claude/`` or ``~/.config/Claude/`` (Linux), ``%APPDATA%\\Claude\\``
  (Windows, and wherever ``APPDATA`` is set): ``claude_desktop_config.json``; only this
  platform's folder is read and listed.
- **Claude Code** (``claude-code``): ``~/.claude.json`` ``projects[<this folder>].mcpServers``
  (local scope), then the project's ``.mcp.json``, then ``~/.claude.json`` ``mcpServers`` (user).
- **VS Code** (``vscode``): the workspace's ``.vscode/mcp.json``, then the user ``mcp.json``
  (``Code/User/`` under the same three platform folders as Claude Desktop).
- **Cursor** (``cursor``): the project's ``.cursor/mcp.json``, then ``~/.cursor/mcp.json``.
- **Windsurf** (``windsurf``): ``~/.codeium/windsurf/mcp_config.json``.

Every server is named ``client:name`` (``claude-desktop:github``), so the same server name in two
clients gives two pins. The untrusted-config rule holds (services/trust.py): a project file (in
the working directory, as a cloned repository may ship it) is read only when the user trusted
it as it is (``mcp-review trust PATH``) or ``CI=true``; otherwise it is skipped with a note and
none of its commands ever runs. Files in the user's home are the user's own. A file or a server
entry that cannot be read is skipped with a note naming it (the others still load).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AUTO = "auto"


@dataclass(slots=True)
class Source:
    client: str
    scope: str
    """``user``, ``project`` (a file in the working directory) or ``local`` (Claude Code's
    per-folder section of ``~/.claude.json``)."""
    path: Path
    section: tuple[str, ...] = ("mcpServers",)
    """Where the servers sit in the file (keys from the top); VS Code's is ``servers``."""
    state: str = "absent"
    """``absent`` · ``read`` · ``untrusted`` · ``error`` · ``empty``."""
    detail: str = ""
    servers: list[str] = field(default_factory=list)
    """The ``client:name`` of each server taken from this source."""
    skipped: list[str] = field(default_factory=list)
    """Servers not taken, each with why (shadowed, unreadable)."""

    @property
    def project(self) -> bool:
        return self.scope == "project"

    @property
    def where(self) -> str:
        if self.section in (("mcpServers",), ("servers",)):
            return str(self.path)
        return f"{self.path} " + "".join(f"[{json.dumps(k)}]" for k in self.section)


def _home(env: Mapping[str, str]) -> Path:
    h = env.get("HOME") or env.get("USERPROFILE")
    return Path(h) if h else Path.home()


PLATFORM = sys.platform
"""The platform whose per-user application folder is read (a test sets another)."""


def _platform_dirs(env: Mapping[str, str]) -> list[Path]:
    """The per-user application folder of this platform: ``~/Library/Application Support``
    on macOS, ``$XDG_CONFIG_HOME`` or ``~/.config`` elsewhere (Linux), none of its own on
    Windows; ``%APPDATA%`` whenever it is set. A folder another platform uses is not listed
    (``--list-configs`` on Linux listed ``~/Library/...``)."""
    home = _home(env)
    out: list[Path] = []
    if PLATFORM == "darwin":
        out.append(home / "Library" / "Application Support")
    elif not PLATFORM.startswith(("win", "cygwin")):
        xdg = env.get("XDG_CONFIG_HOME", "")
        out.append(Path(xdg) if xdg and os.path.isabs(xdg) else home / ".config")
    if env.get("APPDATA"):
        out.append(Path(env["APPDATA"]))
    return out


def sources(
    cwd: str | os.PathLike[str] = ".", env: Mapping[str, str] | None = None
) -> list[Source]:
    """Every place looked at, in listing order (see the module docstring)."""
    env = os.environ if env is None else env
    home = _home(env)
    here = Path(cwd)
    folder = str(here.resolve())
    out = [
        Source("claude-desktop", "user", d / "Claude" / "claude_desktop_config.json")
        for d in _platform_dirs(env)
    ]
    out += [
        Source("claude-code", "local", home / ".claude.json", ("projects", folder, "mcpServers")),
        Source("claude-code", "project", here / ".mcp.json"),
        Source("claude-code", "user", home / ".claude.json"),
        Source("vscode", "project", here / ".vscode" / "mcp.json", ("servers",)),
    ]
    out += [
        Source("vscode", "user", d / "Code" / "User" / "mcp.json", ("servers",))
        for d in _platform_dirs(env)
    ]
    out += [
        Source("cursor", "project", here / ".cursor" / "mcp.json"),
        Source("cursor", "user", home / ".cursor" / "mcp.json"),
        Source("windsurf", "user", home / ".codeium" / "windsurf" / "mcp_config.json"),
    ]
    # One file reached twice (HOME is the project folder, XDG_CONFIG_HOME=~/.config) is
    # listed once.
    seen: set[tuple[str, tuple[str, ...]]] = set()
    unique = []
    for s in out:
        k = (os.path.realpath(s.path), s.section)
        if k not in seen:
            seen.add(k)
            unique.append(s)
    return unique


def _section(data: Any, keys: tuple[str, ...]) -> Any:
    for k in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(k)
    return data


def load_auto(cwd: str | os.PathLike[str] = ".", env: Mapping[str, str] | None = None) -> Any:
    """A services.config.Config holding every server of every client config found, with the
    sources on ``cfg.sources`` (what ``--list-configs`` prints); InputError when none."""
    from mcp_review.engine.errors import InputError

    cfg = read_sources(cwd, env)
    if not cfg.servers:
        srcs = cfg.sources
        found = [s for s in srcs if s.state != "absent"]
        raise InputError(
            "--config auto found no server to review: "
            + (
                "; ".join(f"{s.where}: {s.state}" for s in found)
                if found
                else "no client config on this machine"
            )
            + " (`mcp-review check --list-configs` lists every place looked at)"
        )
    return cfg


def read_sources(cwd: str | os.PathLike[str] = ".", env: Mapping[str, str] | None = None) -> Any:
    """:func:`load_auto` without the "nothing found" error."""
    from mcp_review.engine.errors import InputError
    from mcp_review.services import trust
    from mcp_review.services.config_model import (
        JSON_KEYS,
        Config,
        Where,
        in_ci,
        json_line,
        server_from,
    )

    env = os.environ if env is None else env
    cfg = Config(source=AUTO)
    cfg.state_dir = str(Path(cwd).resolve() / ".mcp-review")
    srcs = sources(cwd, env)
    cfg.sources = srcs
    taken: dict[str, Source] = {}
    for s in srcs:
        try:
            if not s.path.is_file():
                continue
            raw = s.path.read_bytes()
        except OSError as e:
            s.state, s.detail = "error", f"cannot read: {e.strerror}"
            continue
        if s.project and not in_ci() and not trust.is_trusted(s.path, raw):
            known = trust.trusted_digest(s.path)
            s.state = "untrusted"
            s.detail = (
                "changed since it was trusted" if known else "never trusted"
            ) + f": not run; review it, then `mcp-review trust {s.path}`"
            continue
        try:
            text = raw.decode("utf-8")
            data = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            s.state, s.detail = "error", f"not JSON: {e}"
            continue
        servers = _section(data, s.section)
        if servers is None:
            s.state = "empty"
            continue
        if not isinstance(servers, dict):
            s.state, s.detail = "error", f"{'.'.join(s.section)} is not an object"
            continue
        s.state = "read"
        src = str(s.path)
        root = Path(cwd).resolve() if s.scope in ("project", "local") else None
        for name, entry in servers.items():
            full = f"{s.client}:{name}"
            if full in taken:
                s.skipped.append(
                    f"{name}: shadowed by {taken[full].where} (the client uses that one)"
                )
                continue
            if isinstance(entry, dict) and entry.get("disabled") is True:
                s.skipped.append(f"{name}: disabled")
                continue
            where = Where(src, full, lambda k, n=name, t=text: json_line(t, n, k))
            try:
                if not isinstance(entry, dict):
                    raise where.error(None, "must be an object")
                unused = sorted(str(k) for k in entry if k not in JSON_KEYS)
                if unused:
                    cfg.notes.append(
                        f"{src}: server {name!r}: not used by mcp-review: " + ", ".join(unused)
                    )
                sc = server_from(full, entry, where, env, cfg.timeout, s.path, workspace=root)
            except InputError as e:
                s.skipped.append(f"{name}: {e.detail}")
                cfg.notes.append(f"{e}: skipped")
                continue
            taken[full] = s
            s.servers.append(full)
            cfg.servers.append(sc)
        if not s.servers and not s.skipped:
            s.state = "empty"
    for s in srcs:
        if s.state == "untrusted":
            cfg.notes.append(f"{s.path}: {s.detail}")
        elif s.state == "error":
            cfg.notes.append(f"{s.where}: {s.detail}: skipped")
    return cfg


def list_text(srcs: list[Source]) -> str:
    """The ``--list-configs`` report: one line per place looked at, then its servers."""
    from mcp_review.engine.hidden import safe_text

    out = []
    width = max(len(f"{s.client} ({s.scope})") for s in srcs)
    for s in srcs:
        label = f"{s.client} ({s.scope})".ljust(width)
        state = s.state if s.state != "read" else f"{len(s.servers)} server(s)"
        detail = f": {safe_text(s.detail)}" if s.detail else ""
        out.append(f"{label}  {safe_text(s.where)}  [{state}{detail}]")
        out.extend(f"    {safe_text(n)}" for n in s.servers)
        out.extend(f"    skipped {safe_text(x)}" for x in s.skipped)
    return "\n".join(out) + "\n"


def list_sources(
    cwd: str | os.PathLike[str] = ".", env: Mapping[str, str] | None = None
) -> list[Source]:
    """Every source with its state, for ``--list-configs`` (reads; never starts anything)."""
    sources: list[Source] = read_sources(cwd, env).sources
    return sources
