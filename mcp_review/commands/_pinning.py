"""Options and helpers shared by the pin-file commands (status, pin, approve, deny)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp_review.core.errors import InputError


def add_pins_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pins", default="mcp-pins.toml", metavar="FILE",
                   help="the pin file (default: ./mcp-pins.toml); the audit log "
                        "<name>.audit.jsonl sits beside it")


def add_calls_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--calls", action="append", default=[], metavar="SERVER=PATH",
                   help="a server's recorded call log (JSONL) to replay against changed tools; "
                        "repeatable")


def add_format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text")


def parse_calls(specs: list[str]) -> dict[str, Any]:
    """``["srv=path", ...]`` → {server: CallLog}. Split at the first ``=``: paths such as
    ``logs/date=2026-11-29/calls.jsonl`` are more common than ``=`` in a server name."""
    from mcp_review.core.status import load_call_log

    out: dict[str, Any] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--calls expects SERVER=PATH, got {spec!r}")
        out[name] = load_call_log(path)
    return out


def load_inputs(args: argparse.Namespace) -> tuple[Any, Any]:
    """(snapshot or None, pin file) for the command line in ``args``."""
    from mcp_review.core.pins import load_pins
    from mcp_review.core.snapshot import load_snapshot

    pins = load_pins(args.pins)
    snap = load_snapshot(args.snapshot) if getattr(args, "snapshot", None) else None
    return snap, pins


def report_save(result: Any, path: str) -> None:
    """Tell the operator on stderr when another writer changed the file since it was read."""
    from mcp_review.core.hidden import safe_text

    if result.merged:
        print(f"mcp-review: note: {path} changed on disk since it was read; "
              "merged the other writer's decisions with these", file=sys.stderr)
    for c in result.conflicts:
        s, p, t = c.key
        by = c.theirs.decided_by if c.theirs else "another writer"
        print(f"mcp-review: warning: {safe_text(s)}/{safe_text(p)}/{safe_text(t)} was also decided "
              f"by {safe_text(by)} since it was read; this decision replaces it", file=sys.stderr)


def print_records(records: list[dict[str, Any]], fmt: str, extra: dict[str, Any]) -> None:
    """The decisions written, as text lines or one JSON document on stdout."""
    from mcp_review.core.hidden import json_dumps_safe, safe_text

    if fmt == "json":
        sys.stdout.write(json_dumps_safe({"decisions": records, **extra}, indent=2) + "\n")
        return
    for r in records:
        what = r.get("decision") or r.get("event")
        old = r.get("old_digest")
        new = r.get("new_digest")
        digests = f"  {old[:19]}… → {new[:19]}…" if old and new and old != new else ""
        print(f"{what}: {safe_text(r['server'])}/{safe_text(str(r['principal']))}/"
              f"{safe_text(str(r['tool']))}{digests}")
