"""`mcp-review classify OLD NEW`: classify every change between two tool definitions."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mcp_review.engine import exitcodes
from mcp_review.formats.output import REPORT, OutputFormat, choices


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", metavar="OLD", help="old tool definition (JSON file)")
    p.add_argument("new", metavar="NEW", help="new tool definition (JSON file)")
    for side in ("old", "new"):
        p.add_argument(
            f"--{side}-ui",
            metavar="FILE",
            help=f"the UI resources of the {side} definition: a JSON object mapping each ui:// "
            "URI to its resources/read result (a changed UI is diffed as text)",
        )
    p.add_argument("--format", choices=choices(REPORT), default=OutputFormat.TEXT.value)
    p.add_argument(
        "--no-witness",
        action="store_true",
        help="do not generate witness calls for breaking changes",
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.compare import compare
    from mcp_review.formats import compare as fmt
    from mcp_review.services.inputs import load_pair

    old, new = load_pair(args.old, args.new)
    if args.old_ui is not None or args.new_ui is not None:
        old, new = _with_ui(old, args.old_ui), _with_ui(new, args.new_ui)
    cmp = compare(old, new, witnesses=not args.no_witness)
    sys.stdout.write(fmt.to_json(cmp) if args.format == "json" else fmt.to_text(cmp))
    return exitcodes.PASS


def _with_ui(tool: Any, path: str | None) -> Any:
    """``tool`` carrying the records of the UI resources its ``_meta`` names, read from
    ``path`` (``{uri: resources/read result}``); a URI the file lacks is recorded as not
    read. Without ``path``: no records (nothing of the UI is judged)."""
    import dataclasses
    import json

    from mcp_review.engine.errors import InputError
    from mcp_review.engine.rules.meta import ui_resource_uris
    from mcp_review.engine.ui_resource import UIResource, from_read_result

    if path is None:
        return tool
    try:
        with open(path, encoding="utf-8") as f:
            reads = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read the UI resources: {e}", source=path) from None
    if not isinstance(reads, dict):
        raise InputError("expected a JSON object mapping each ui:// URI to its result", source=path)
    records = tuple(
        from_read_result(u, reads[u]) if u in reads else UIResource(u, error=f"not in {path}")
        for u in ui_resource_uris(tool.wire.get("_meta"))
    )
    return dataclasses.replace(tool, ui=records)
