"""`mcp-review rerun SERVER [TOOL …]`: re-issue recorded read-only calls, compare the results.

A call is sent only if it was recorded against an approved, read-only definition, the pinned
and the live definitions are read-only too, its tool's ``openWorldHint`` is false (or
``--open-world``), none of its arguments was redacted, and a result was recorded (docs/rerun.md;
``engine.rerun.send_verdict``). Everything else is reported ``skipped`` / ``no-result-recorded``
with the reason and never sent. Before sending, rerun lists what it will send and asks;
headless it needs ``--yes``.

Exit codes: 0 nothing changed · 1 any changed / shape-drift / now-error · 2 usage or input
error (also: calls to send but no terminal to ask and no ``--yes``) · 3 the server could not
be reached.
"""

from __future__ import annotations

import argparse
import os
import sys

from mcp_review.engine import exitcodes
from mcp_review.engine.errors import InputError
from mcp_review.formats.output import REPORT, OutputFormat, choices

USAGE = (
    "mcp-review rerun SERVER [TOOL …] [--config FILE] [--pins FILE] [--calls FILE] "
    "[--max-calls N] [--open-world] [--yes] [--timeout SECONDS] [--format text|json]"
)


def register(p: argparse.ArgumentParser) -> None:
    p.usage = USAGE
    p.add_argument("server", metavar="SERVER", help="a server from the config")
    p.add_argument("tools", metavar="TOOL", nargs="*", help="only these tools (default: all)")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="mcp-review.toml or an mcp.json (default: discovered in the cwd)",
    )
    p.add_argument(
        "--pins",
        metavar="FILE",
        help="the pin file (default: the config's `pins`, else ./mcp-pins.toml)",
    )
    p.add_argument(
        "--calls",
        metavar="FILE",
        help="the server's call log (default: the config's `calls`, else the "
        "proxy's default log); results are read from FILE.results.jsonl",
    )
    p.add_argument(
        "--max-calls",
        type=int,
        default=20,
        metavar="N",
        help="distinct argument sets re-sent per tool, newest first (default 20)",
    )
    p.add_argument(
        "--open-world",
        action="store_true",
        help="also re-send calls of tools whose openWorldHint is not false",
    )
    p.add_argument(
        "--yes",
        "-y",
        action="store_true",
        help="send without asking (needed when not in a terminal)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="seconds each call may take (default: the server's `timeout`); a call "
        "that takes longer is `now-error`",
    )
    p.add_argument(
        "--redact",
        metavar="REGEX",
        action="append",
        default=[],
        help="also redact result keys matching REGEX before comparing (as the proxy's --redact)",
    )
    p.add_argument("--format", choices=choices(REPORT), default=OutputFormat.TEXT.value)
    p.add_argument("-q", "--quiet", action="store_true", help="no plan or progress on stderr")


def run(args: argparse.Namespace) -> int:
    from mcp_review.formats import rerun as fmt
    from mcp_review.services.config import load_config
    from mcp_review.services.rerun import (
        RerunReport,
        RerunUnreachable,
        Settings,
        call_log_for,
        run_server,
    )
    from mcp_review.store.calllog import DEFAULT_REDACT
    from mcp_review.store.pinfile import load_pins

    if args.max_calls < 1:
        raise InputError("--max-calls must be at least 1")
    if args.timeout is not None and not args.timeout > 0:
        raise InputError("--timeout must be a positive number of seconds")
    cfg = load_config(args.config)
    srv = cfg.named(args.server)
    pins_path = args.pins or cfg.pins or "mcp-pins.toml"
    pins = load_pins(pins_path, allow_unverified=True)
    calls_path = args.calls or call_log_for(srv, cfg.state_dir)
    if not os.path.exists(calls_path):
        raise InputError(
            "no call log: nothing was recorded for this server (run it behind "
            "`mcp-review proxy` with record_results = true)",
            source=calls_path,
        )
    settings = Settings(
        open_world=args.open_world,
        max_calls=args.max_calls,
        tools=tuple(args.tools),
        timeout=args.timeout,
        redact=(*DEFAULT_REDACT, *args.redact),
    )
    declined: list[str] = []

    def confirm(planned: RerunReport) -> bool:
        ok, why = fmt.ask(planned, yes=args.yes, quiet=args.quiet)
        if not ok:
            declined.append(why)
        return ok

    try:
        report = run_server(srv, pins, calls_path, settings, confirm)
    except RerunUnreachable as e:
        print(f"mcp-review rerun: server {srv.name!r} could not be reached: {e}", file=sys.stderr)
        return exitcodes.UNREACHABLE
    from mcp_review.engine.names import not_found, shown

    pinned = {k[2] for k in pins.pins if k[0] == srv.name}
    for t in args.tools:
        if not any(c.call.tool == t for c in report.calls):
            print(
                f"mcp-review rerun: note: no recorded call of tool {shown(t)}"
                + ("" if t in pinned else not_found(t, pinned, "tools")),
                file=sys.stderr,
            )
    if declined:
        print(f"mcp-review rerun: {declined[0]}", file=sys.stderr)
        return exitcodes.INPUT_ERROR
    sys.stdout.write(fmt.to_json(report) if args.format == "json" else fmt.to_text(report))
    return report.exit_code()
