"""`mcp-review trust [PATH]`: allow a client config file found in this folder to be run.

``.mcp.json``, ``.vscode/mcp.json`` and ``.cursor/mcp.json`` ship with repositories; discovering
one never starts its commands until the user trusts that exact file (path and content digest,
recorded in the user's state directory) or names it with ``--config``. A changed file asks again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mcp_review.engine import exitcodes
from mcp_review.engine.errors import InputError


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="the client config to trust (default: the first of ./.mcp.json, "
        "./.vscode/mcp.json, ./.cursor/mcp.json)",
    )
    p.add_argument("--list", action="store_true", help="list the trusted files and exit")
    p.add_argument("--revoke", action="store_true", help="forget PATH instead of trusting it")


def _default_path() -> Path:
    from mcp_review.services.config import CLIENT_CONFIGS

    for rel in CLIENT_CONFIGS:
        if Path(rel).is_file():
            return Path(rel)
    raise InputError(
        "no client config here to trust: looked for "
        + ", ".join(CLIENT_CONFIGS)
        + "; give its PATH"
    )


def _what_it_runs(data: bytes) -> list[str]:
    """One line per server the file names: its command and arguments, or its URL, as written
    (unexpanded, so no secret from the environment is printed), hidden characters shown."""
    from mcp_review.engine.hidden import visible

    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return []
    servers: Any = doc.get("mcpServers", doc.get("servers")) if isinstance(doc, dict) else None
    if not isinstance(servers, dict):
        return []
    out = []
    for name, s in servers.items():
        if not isinstance(s, dict):
            continue
        if isinstance(s.get("command"), str):
            given = s.get("args")
            args = given if isinstance(given, list) else []
            what = " ".join([s["command"], *(str(a) for a in args)])
        else:
            what = str(s.get("url") or s.get("serverUrl") or "?")
        line = f"{name}: {what}"
        out.append(visible(line if len(line) <= 300 else line[:299] + "…"))
    return out


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.clock import current_user
    from mcp_review.engine.hidden import visible
    from mcp_review.services import trust

    if args.list:
        for e in trust.entries():
            print(f"{visible(e.path)}  {e.digest}  trusted {e.at} by {visible(e.by)}")
        return exitcodes.PASS
    path = Path(args.path) if args.path else _default_path()
    if args.revoke:
        done = trust.revoke(path)
        print(f"{'revoked' if done else 'was not trusted'}: {visible(trust.key_for(path))}")
        return exitcodes.PASS
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", source=str(path)) from None
    entry = trust.trust(path, data, by=current_user())
    print(
        f"trusted {visible(entry.path)} ({entry.digest}); mcp-review may now start what it names:"
    )
    for line in _what_it_runs(data) or ["(no servers found in it)"]:
        print(f"  {line}")
    print("a change to the file asks again", file=sys.stderr)
    return exitcodes.PASS
