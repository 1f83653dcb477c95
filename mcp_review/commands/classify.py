"""`mcp-review classify OLD NEW`: classify every change between two tool definitions."""

from __future__ import annotations

import argparse
import sys

from mcp_review.engine import exitcodes


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", metavar="OLD", help="old tool definition (JSON file)")
    p.add_argument("new", metavar="NEW", help="new tool definition (JSON file)")
    p.add_argument("--format", choices=("text", "json"), default="text")
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
    cmp = compare(old, new, witnesses=not args.no_witness)
    sys.stdout.write(fmt.to_json(cmp) if args.format == "json" else fmt.to_text(cmp))
    return exitcodes.PASS
