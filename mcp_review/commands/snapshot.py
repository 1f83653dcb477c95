"""`mcp-review snapshot`: fetch every configured server and save the live tool lists as JSON."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mcp_review import exitcodes


def add_config_args(p: argparse.ArgumentParser) -> None:
    """The options every live command shares (also used by `check` and `watch`)."""
    p.add_argument("--config", metavar="FILE",
                   help="mcp-review.toml, .mcp.json, .vscode/mcp.json, .cursor/mcp.json or "
                        "claude_desktop_config.json (default: the first of "
                        "./mcp-review.toml, ./.mcp.json, ./.vscode/mcp.json, ./.cursor/mcp.json)")
    p.add_argument("--server", action="append", metavar="NAME",
                   help="only this server (repeatable)")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="per-server timeout, overriding the config")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def register(p: argparse.ArgumentParser) -> None:
    add_config_args(p)
    p.add_argument("--out", "-o", metavar="FILE", required=True,
                   help="where to write the snapshot JSON ('-' for stdout)")


def load(args: Any) -> Any:
    """Load the config named by ``--config`` (or discovered), applying ``--timeout``."""
    import dataclasses

    from mcp_review.services.config import load_config

    cfg = load_config(args.config)
    if args.timeout is not None:
        if args.timeout <= 0:
            from mcp_review.core.errors import InputError

            raise InputError("--timeout must be positive")
        cfg.servers = [dataclasses.replace(s, timeout=args.timeout) for s in cfg.servers]
    return cfg


def progress_printer(quiet: bool) -> Any:
    """A ``Progress`` callback printing one line per finished server to stderr."""
    if quiet:
        return None

    from mcp_review.core.hidden import safe_text

    def on_progress(p: Any) -> None:
        # The error message quotes the server (its stderr, its error text): sanitised.
        if p.state == "done":
            print(f"  {safe_text(p.server)}: {p.tools} tools ({p.elapsed:.1f} s)",
                  file=sys.stderr)
        elif p.state == "failed":
            err = p.snapshot.error if p.snapshot is not None else {"kind": "?", "message": ""}
            print(f"  {safe_text(p.server)}: {safe_text(err['kind'])}: "
                  f"{safe_text(err['message'])} ({p.elapsed:.1f} s)", file=sys.stderr)

    return on_progress


def fetch(args: Any) -> Any:
    from mcp_review.services.fetch import fetch_config

    cfg = load(args)
    if not args.quiet:
        print(f"fetching {len(cfg.servers) if not args.server else len(args.server)} "
              f"server(s) from {cfg.source}", file=sys.stderr)
    return fetch_config(cfg, only=args.server, on_progress=progress_printer(args.quiet))


def run(args: Any) -> int:
    snap = fetch(args)
    text = snap.dumps()
    if args.out == "-":
        sys.stdout.write(text)
    else:
        tmp = f"{args.out}.tmp{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, args.out)
        if not args.quiet:
            print(f"wrote {args.out}", file=sys.stderr)
    unreachable = [s for s in snap.servers.values() if s.error]
    return exitcodes.UNREACHABLE if unreachable else exitcodes.PASS
