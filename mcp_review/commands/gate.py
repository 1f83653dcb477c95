"""`mcp-review gate OLD NEW CALLS`: classify + replay recorded calls; exit 1 on breaking.

Exit 0 with no breaking change and no broken call, 1 otherwise, 2 on a usage or input error.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review.engine import exitcodes


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", metavar="OLD", help="old tool definition (JSON file)")
    p.add_argument("new", metavar="NEW", help="new tool definition (JSON file)")
    p.add_argument(
        "calls",
        metavar="CALLS",
        help="recorded calls: JSONL of argument objects, server-log records "
        '({"tool":…,"arguments":…}) or JSON-RPC tools/call requests',
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--all-calls",
        action="store_true",
        help="list every replayed call (default: the broken calls and bad "
        "recordings, the first 20 of each in text, and counts for the rest)",
    )
    p.add_argument(
        "--no-witness",
        action="store_true",
        help="do not generate witness calls for breaking changes",
    )


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.compare import compare
    from mcp_review.formats import compare as fmt
    from mcp_review.services.inputs import load_pair
    from mcp_review.store.readers import iter_calls

    old, new = load_pair(args.old, args.new)
    # Streamed: the log is read line by line and, unless every call is to be listed, only the
    # calls the report lists are kept (memory bounded by the report, not by the log).
    calls = iter_calls(args.calls, tool=new.name, strict=True)
    cmp = compare(old, new, calls, witnesses=not args.no_witness, keep_valid=args.all_calls)
    if args.format == "json":
        sys.stdout.writelines(fmt.iter_json(cmp, all_calls=args.all_calls))
    else:
        sys.stdout.write(fmt.to_text(cmp, all_calls=args.all_calls))
    return exitcodes.PASS if cmp.verdict == "PASS" else exitcodes.FAIL
