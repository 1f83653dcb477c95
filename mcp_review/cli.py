"""Thin command-line entry: parse, dispatch to ``mcp_review.commands.<name>``, map exit codes.

Reports go to stdout, diagnostics to stderr. The TUI and the mcp SDK are imported lazily by the
commands that need them. What ``mcp-review --help`` says is ``DESCRIPTION`` and ``EPILOG``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from mcp_review import __version__
from mcp_review.engine import exitcodes
from mcp_review.engine.errors import EarlyExit, InputError
from mcp_review.formats.terminal import guarded_output

DESCRIPTION = """\
Review drift in the tools your MCP servers offer.

mcp-review fetches every tool definition from the servers in your config, compares each with
the version you approved earlier (mcp-pins.toml), and says for each tool: pinned, new, changed,
broken (your recorded calls would now fail), removed or denied. Hidden characters and
look-alike names are shown, never hidden. Decide in the app, or headless in CI."""

EPILOG = """\
start here:
  mcp-review demo              try it on two bundled servers that change under you
  mcp-review                   open the review app on ./mcp-review.toml (or .mcp.json, ...)
  mcp-review pin               baseline what your servers serve now (not a blanket approval)
  mcp-review check             in CI: exit 1 when a tool drifted and needs review

exit codes: 0 pass · 1 drift that fails the gate · 2 usage, config or input error ·
            3 a server could not be reached
`mcp-review COMMAND --help` shows a command's options and an example."""

# (command, module, help). `review` is the default when no command is given.
COMMANDS: list[tuple[str, str, str]] = [
    ("review", "review", "open the review app (the default command)"),
    ("demo", "demo", "run the app on bundled demo servers that change under you"),
    ("check", "check", "headless gate over live servers (CI)"),
    ("snapshot", "snapshot", "save live tool lists as JSON for offline review"),
    ("watch", "watch", "stay connected and report drift as it happens"),
    ("classify", "classify", "classify the changes between two tool definitions"),
    ("gate", "gate", "classify + replay recorded calls; exit 1 on breaking"),
    (
        "status",
        "status",
        "each decision the drift needs, one line each (-v: every change; --groups: "
        "each decision's members)",
    ),
    (
        "pin",
        "pin",
        "baseline, not a blanket approval: pin what is served now, holding back breaking "
        "and trust changes",
    ),
    ("approve", "approve", "approve one tool's current definition, or a group (--group ID)"),
    ("deny", "deny", "deny one tool, or a group (--group ID)"),
    ("diff", "diff", "one tool's pinned definition against the one served now"),
    ("forget", "forget", "drop one tool's pin (logged in the audit log)"),
    (
        "verify",
        "verify",
        "check the pin file offline: parses, digests, canonical form (pre-commit)",
    ),
    ("signing", "signing", "turn signed decisions on (init) and sign the signing policy"),
    (
        "proxy",
        "proxy",
        "record calls and enforce pins between your client and a stdio or remote server "
        "(--listen: serve it over HTTP)",
    ),
    ("login", "login", "OAuth for a remote server: authorise once, the proxy refreshes"),
    ("rerun", "rerun", "re-send recorded read-only calls and compare the results"),
    (
        "hosts",
        "hosts",
        "what each host (Claude, OpenAI, Gemini, VS Code, Cursor, ...) makes of the pinned tools",
    ),
    (
        "trust",
        "trust",
        "allow a client config found here (.mcp.json, .vscode/mcp.json, ...) to run",
    ),
]

_NAMES = frozenset(name for name, _, _ in COMMANDS)

EXAMPLES: dict[str, str] = {
    "review": "mcp-review --config mcp-review.toml",
    "demo": "mcp-review demo --headless --format json",
    "check": 'mcp-review check --fail-on breaking --format markdown >> "$GITHUB_STEP_SUMMARY"',
    "snapshot": "mcp-review snapshot --out tools.json",
    "watch": "mcp-review watch --interval 60 --format json",
    "classify": "mcp-review classify old-tool.json new-tool.json",
    "gate": "mcp-review gate old-tool.json new-tool.json calls.jsonl",
    "status": "mcp-review status --snapshot tools.json --all",
    "pin": 'mcp-review pin --note "baseline after audit"',
    "approve": 'mcp-review approve github create_issue --note "reviewed the new label field"',
    "deny": "mcp-review deny devtools 'r\\u0435ad_file' --note \"homoglyph of read_file\"",
    "proxy": "mcp-review proxy github --enforce",
    "trust": "mcp-review trust .vscode/mcp.json",
    "diff": "mcp-review diff github create_issue --format json",
    "forget": 'mcp-review forget github old_tool --note "retired upstream"',
    "rerun": "mcp-review rerun warehouse table_stats --max-calls 5",
    "verify": "mcp-review verify --pins mcp-pins.toml --snapshot tools.json",
}
"""One example per command, shown at the end of its ``--help`` (a command module may set its
own ``EXAMPLE`` instead)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2, as docs/design.md says
        self.print_usage(sys.stderr)
        self.exit(exitcodes.INPUT_ERROR, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line. ``only``: import and register that one command's module (the
    others are named with their help, as ``--help`` lists them, but not imported): what
    ``main`` builds to run a command, since importing every command's module cost a run
    about a sixth of its start-up. A command's ``run`` is looked up in its module when it
    runs (``_run``), not bound here, so one parser built can serve any number of runs."""
    parser = _Parser(
        prog="mcp-review",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"mcp-review {__version__}")
    sub = parser.add_subparsers(
        dest="command", parser_class=_Parser, metavar="COMMAND", title="commands"
    )
    for name, module, help_ in COMMANDS:
        if only is not None and name != only:
            sub.add_parser(name, help=help_, description=help_)
            continue
        try:
            mod = importlib.import_module(f"mcp_review.commands.{module}")
        except ModuleNotFoundError as e:
            if e.name == f"mcp_review.commands.{module}":
                continue  # not built yet
            raise
        example = getattr(mod, "EXAMPLE", None) or EXAMPLES.get(name)
        p = sub.add_parser(
            name,
            help=help_,
            description=help_,
            epilog=f"example:\n  {example}" if example else None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        mod.register(p)
        p.set_defaults(_module=mod.__name__)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["review", *argv]
    parser = build_parser(argv[0] if argv[0] in _NAMES else None)
    args, extras = parser.parse_known_args(argv)
    if extras:
        # An unknown flag is reported with the usage of the command it was given to, not the
        # top-level one (argparse hands every leftover to the top parser).
        target = _subparser(parser, getattr(args, "command", None)) or parser
        target.error(f"unrecognized arguments: {' '.join(extras)}")
    if not getattr(args, "_module", None):
        parser.print_help(sys.stderr)
        return exitcodes.INPUT_ERROR
    # The app draws with escape sequences and the proxy's stdout is JSON-RPC: everything else a
    # command writes goes through the terminal guard (formats/terminal.py).
    app = args.command == "review" or (
        args.command == "demo" and not getattr(args, "headless", False)
    )
    guard = contextlib.nullcontext() if app else guarded_output(stdout=args.command != "proxy")
    if not app and args.command != "proxy":
        from mcp_review.services.pipes import widen_pipe

        widen_pipe(1)  # a report written to a pipe blocks less (services/pipes.py)
    with guard:
        return _run(args)


def _subparser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser | None:
    for action in parser._actions:  # argparse has no public accessor for its subparsers
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            sub: argparse.ArgumentParser = action.choices[name]
            return sub
    return None


def _run(args: argparse.Namespace) -> int:
    try:
        return int(importlib.import_module(args._module).run(args))
    except EarlyExit as e:
        return e.code
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
