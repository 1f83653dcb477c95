"""`mcp-review gate OLD NEW CALLS`: classify + replay recorded calls; exit 1 on breaking.

Exit 0 with no breaking change and no broken call, 1 otherwise, 2 on a usage or input error.
"""

from __future__ import annotations

import argparse
import sys

from mcp_review.engine import exitcodes
from mcp_review.formats.output import REPORT, OutputFormat, choices


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", metavar="OLD", help="old tool definition (JSON file)")
    p.add_argument("new", metavar="NEW", help="new tool definition (JSON file)")
    p.add_argument(
        "calls",
        metavar="CALLS",
        help="recorded calls: JSONL of argument objects, server-log records "
        '({"tool":…,"arguments":…}) or JSON-RPC tools/call requests',
    )
    p.add_argument("--format", choices=choices(REPORT), default=OutputFormat.TEXT.value)
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
    from mcp_review.engine.calls import LoadedCalls
    from mcp_review.engine.hidden import safe_text

    stats = LoadedCalls()
    calls = iter_calls(args.calls, tool=new.name, strict=True, stats=stats)
    cmp = compare(old, new, calls, witnesses=not args.no_witness, keep_valid=args.all_calls)
    if stats.surrogate_lines:
        # A planted line is counted and named, and the rest of the log read.
        at = ", ".join(str(n) for n in stats.surrogate_lines[:5])
        more = ", …" if len(stats.surrogate_lines) > 5 else ""
        print(
            f"mcp-review: note: {len(stats.surrogate_lines)} record(s) in "
            f"{safe_text(args.calls)} hold a lone surrogate escape (\\ud800-\\udfff), which "
            f"no validator reads, and were skipped (line {at}{more})",
            file=sys.stderr,
        )
        if not (cmp.replay and cmp.replay.total) and not stats.ignored:
            print(
                f"mcp-review: error: {safe_text(args.calls)}: no record could be read",
                file=sys.stderr,
            )
            return exitcodes.INPUT_ERROR
    if args.format == "json":
        # In writes of about 1 MiB, not one per entry: each reaches the pipe in one piece.
        chunk: list[str] = []
        size = 0
        for piece in fmt.iter_json(cmp, all_calls=args.all_calls):
            chunk.append(piece)
            size += len(piece)
            if size >= 1 << 20:
                sys.stdout.write("".join(chunk))
                chunk, size = [], 0
        sys.stdout.write("".join(chunk))
    else:
        sys.stdout.write(fmt.to_text(cmp, all_calls=args.all_calls))
    return exitcodes.PASS if cmp.verdict == "PASS" else exitcodes.FAIL
