"""`mcp-review snapshot`: fetch every configured server and save the live tool lists as JSON."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mcp_review.cli_args import input_options
from mcp_review.engine import exitcodes


def register(p: argparse.ArgumentParser) -> None:
    from mcp_review.cli_args import add_config_args

    add_config_args(p)
    p.add_argument(
        "--out",
        "-o",
        metavar="FILE",
        required=True,
        help="where to write the snapshot JSON ('-' for stdout)",
    )


def run(args: Any) -> int:
    from mcp_review.services.inputs import resolve

    inp = resolve(input_options(args), load_pin_file=False, with_calls=False)
    snap = inp.snapshot()
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
