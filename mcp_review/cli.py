"""Thin command-line entry: parse, dispatch to ``mcp_review.commands.<name>``, map exit codes.

Reports go to stdout, diagnostics to stderr. The TUI and the mcp SDK are imported lazily by the
commands that need them.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence

from mcp_review import __version__, exitcodes
from mcp_review.core.errors import InputError
from mcp_review.formats.terminal import guarded_output

# (command, module, help). `review` is the default when no command is given.
COMMANDS: list[tuple[str, str, str]] = [
    ("review", "review", "open the review app (the default command)"),
    ("demo", "demo", "run the app on bundled demo servers that change under you"),
    ("check", "check", "headless gate over live servers (CI)"),
    ("snapshot", "snapshot", "save live tool lists as JSON for offline review"),
    ("watch", "watch", "stay connected and report drift as it happens"),
    ("classify", "classify", "classify the changes between two tool definitions"),
    ("gate", "gate", "classify + replay recorded calls; exit 1 on breaking"),
    ("status", "status", "status of each tool against the pin file"),
    ("pin", "pin", "approve everything currently served (baseline)"),
    ("approve", "approve", "approve one tool's current definition"),
    ("deny", "deny", "deny one tool"),
    ("diff", "diff", "one tool's pinned definition against the one served now"),
    ("forget", "forget", "drop one tool's pin (logged in the audit log)"),
    ("proxy", "proxy", "stdio pass-through that records calls and enforces pins"),
    ("rerun", "rerun", "re-send recorded read-only calls and compare the results"),
    ("trust", "trust", "allow a client config found here (.mcp.json, .vscode/mcp.json, ...) to run"),
]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2, as design.md says
        self.print_usage(sys.stderr)
        self.exit(exitcodes.INPUT_ERROR, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mcp-review", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"mcp-review {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for name, module, help_ in COMMANDS:
        try:
            mod = importlib.import_module(f"mcp_review.commands.{module}")
        except ModuleNotFoundError as e:
            if e.name == f"mcp_review.commands.{module}":
                continue  # not built yet
            raise
        p = sub.add_parser(name, help=help_, description=help_)
        mod.register(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["review", *argv]
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help(sys.stderr)
        return exitcodes.INPUT_ERROR
    # The app draws with escape sequences and the proxy's stdout is JSON-RPC: everything else a
    # command writes goes through the terminal guard (formats/terminal.py).
    app = args.command == "review" or (
        args.command == "demo" and not getattr(args, "headless", False))
    guard = (contextlib.nullcontext() if app
             else guarded_output(stdout=args.command != "proxy"))
    with guard:
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args._run(args))
    except InputError as e:
        print(f"mcp-review: error: {e}", file=sys.stderr)
        return exitcodes.INPUT_ERROR
    except RecursionError:
        # Only input nested thousands deep gets here (a pin file, a snapshot, a call log): it
        # is bad input, exit 2, not a traceback.
        print("mcp-review: error: an input file is nested too deeply to read", file=sys.stderr)
        return exitcodes.INPUT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return exitcodes.PASS


if __name__ == "__main__":
    raise SystemExit(main())
