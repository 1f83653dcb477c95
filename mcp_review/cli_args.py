"""The command line's shared options, and the typed requests the services are given.

Every command registers its options with these builders, so the options two commands share are
worded once; and every command turns what argparse parsed into the services' typed arguments
here (:func:`input_options`, :func:`group_request`), so no service reads an argparse namespace
(``tests/repo/test_typed_services.py``). Above the app and the formats, beside the commands
(which never import each other, but all import this)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from mcp_review.engine.errors import InputError
from mcp_review.engine.surfaces import PROMPT, RESOURCE, TEMPLATE
from mcp_review.services import signing
from mcp_review.services.inputs import InputOptions

if TYPE_CHECKING:
    from mcp_review.services.decisions import GroupRequest


def input_options(args: argparse.Namespace, *, snapshot_attr: str = "snapshot") -> InputOptions:
    """What ``services.inputs.resolve`` needs of a parsed command line. Commands register
    different subsets of the shared options: one not registered reads as not given.
    ``snapshot_attr``: the destination of the command's snapshot option (``check``'s is
    ``--from-snapshot``)."""
    server = getattr(args, "server", None)  # --server (a list); approve's and deny's positional
    servers = (
        tuple(server) if isinstance(server, list) else (server,) if isinstance(server, str) else ()
    )
    return InputOptions(
        config=getattr(args, "config", None),
        list_configs=bool(getattr(args, "list_configs", False)),
        servers=servers,
        snapshot=getattr(args, snapshot_attr, None),
        snapshot_option="--" + snapshot_attr.replace("_", "-"),
        candidate=bool(getattr(args, "candidate", False)),
        timeout=getattr(args, "timeout", None),
        pins=getattr(args, "pins", None),
        quiet=bool(getattr(args, "quiet", False)),
        sign_key=getattr(args, "sign_key", None),
        calls=tuple(getattr(args, "calls", None) or ()),
        hosts=getattr(args, "hosts", None),
    )


def group_request(args: argparse.Namespace) -> GroupRequest:
    """``approve --group ID`` / ``deny --group ID``: the group, its ``--except`` members and
    who decides. An InputError when the command also names a SERVER, TOOL or --instructions."""
    if args.server is not None or args.tool is not None or args.instructions:
        raise InputError("--group decides a group: name no SERVER, TOOL or --instructions")
    from mcp_review.services.decisions import GroupRequest

    return GroupRequest(
        group=args.group,
        except_=tuple(args.except_),
        by=args.by,
        note=args.note,
        yes=bool(getattr(args, "yes", False)),
    )


def add_config_args(p: argparse.ArgumentParser, *, server_option: bool = True) -> None:
    """``--config``, ``--server``, ``--timeout``, ``-q``: the options every live command shares
    (``approve``/``deny`` name their server positionally, so they go without ``--server``)."""
    p.add_argument(
        "--config",
        metavar="FILE",
        help="mcp-review.toml, .mcp.json, .vscode/mcp.json, .cursor/mcp.json or "
        "claude_desktop_config.json (default: the first of "
        "./mcp-review.toml, ./.mcp.json, ./.vscode/mcp.json, ./.cursor/mcp.json); "
        "`auto`: every client config on this machine (Claude Desktop, Claude "
        "Code, VS Code, Cursor, Windsurf), servers named client:name",
    )
    p.add_argument(
        "--list-configs",
        action="store_true",
        help="list every client config `--config auto` looks at, with its servers, "
        "and exit (starts nothing)",
    )
    if server_option:
        p.add_argument(
            "--server", action="append", metavar="NAME", help="only this server (repeatable)"
        )
    p.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="per-server timeout, overriding the config"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def add_format_option(p: argparse.ArgumentParser) -> None:
    """``--format text|json``: the pin-file commands' output."""
    p.add_argument("--format", choices=("text", "json"), default="text")


def add_candidate_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--candidate",
        action="store_true",
        help="upgrade preview: run each server's [servers.NAME.candidate] instead of "
        "the server (same name and principal, so the server's pins judge it and "
        "approvals land there; the running version's approvals are kept)",
    )


def add_pins_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--pins",
        default=None,
        metavar="FILE",
        help="the pin file (default: the config's `pins`, else ./mcp-pins.toml); "
        "the audit log <name>.audit.jsonl sits beside it",
    )


def add_group_options(p: argparse.ArgumentParser, verb: str) -> None:
    """``--group ID`` and ``--except SERVER/NAME`` for ``approve`` and ``deny``."""
    p.add_argument(
        "--group",
        metavar="ID",
        default=None,
        help=f"{verb} every member of a group of alike changes (its id from "
        "`mcp-review status --groups`); a tool is approved when all its pending kinds are, "
        "denied as soon as one is",
    )
    p.add_argument(
        "--except",
        dest="except_",
        action="append",
        default=[],
        metavar="SERVER/NAME",
        help="with --group: leave this member out (repeatable); NAME is a tool's name, or a "
        "prompt's or template's name or a resource's URI in a group of those",
    )


SURFACE_OPTIONS = (
    (PROMPT, "prompt", "NAME"),
    (RESOURCE, "resource", "URI"),
    (TEMPLATE, "resource_template", "NAME"),
)


def add_surface_options(p: argparse.ArgumentParser, verb: str) -> None:
    for kind, dest, meta in SURFACE_OPTIONS:
        p.add_argument(
            "--" + dest.replace("_", "-"),
            dest=dest,
            metavar=meta,
            default=None,
            help=f"{verb} the server's {kind} {meta} (pinned per server and principal) "
            "instead of a tool",
        )


def surface_target(args: argparse.Namespace) -> tuple[str, str] | None:
    """(kind, name) the command names, or None; an InputError when it names several."""
    named = [(k, str(getattr(args, d))) for k, d, _ in SURFACE_OPTIONS if getattr(args, d, None)]
    if len(named) > 1:
        raise InputError("name one of --prompt, --resource, --resource-template")
    return named[0] if named else None


def check_one_target(args: argparse.Namespace) -> None:
    """``approve``/``deny`` without ``--group``: a SERVER with a TOOL or ``--instructions``,
    and no ``--except`` (which only leaves a member out of a group)."""
    if args.except_:
        raise InputError("--except leaves a member out of a --group")
    if args.server is None:
        raise InputError("name a SERVER and a TOOL, or a --group")
    others = int(bool(args.instructions)) + int(surface_target(args) is not None)
    if (args.tool is None) != bool(others) or others > 1:
        raise InputError(
            "name a TOOL, or use --instructions (not both), or one --prompt, --resource or "
            "--resource-template"
        )


def add_calls_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--calls",
        action="append",
        default=[],
        metavar="SERVER=PATH",
        help="a server's recorded call log (JSONL), replacing the config's `calls` "
        "and the proxy's default log for that server; repeatable",
    )


def add_report_options(p: argparse.ArgumentParser) -> None:
    """The report options ``check`` and ``status`` share, worded once so both say the same."""
    p.add_argument(
        "--flag-version-bumps",
        action="store_true",
        help="also note a server whose version changed while no tool did",
    )
    p.add_argument(
        "--all-calls",
        action="store_true",
        help="list every replayed call (default: broken calls and bad recordings, "
        "the first 20 of each in text, counts for the rest)",
    )
    p.add_argument(
        "--no-witness",
        action="store_true",
        help="do not generate witness calls for breaking changes",
    )


def add_hosts_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--hosts",
        metavar="A,B",
        help="judge these host profiles (claude-api, claude-code, openai-strict, cursor, ...: "
        "`mcp-review hosts --profiles` lists them) instead of [hosts] targets or the hosts "
        "inferred from your client configs",
    )


def add_sign_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--sign-key",
        metavar="KEY",
        default=None,
        help="sign each decision with this SSH key: a private key file, its .pub (the key in "
        "ssh-agent) or 'agent' (default: $MCP_REVIEW_SIGN_KEY, else the config's "
        "[signing] key; none: unsigned)",
    )


def add_require_options(p: argparse.ArgumentParser) -> None:
    """``--require-signed``, ``--signing-policy`` and ``--base`` (``verify``, ``check``)."""
    p.add_argument(
        "--require-signed",
        action="store_true",
        help="check every decision's signatures under the signing policy (exit 1 naming each "
        "that fails)",
    )
    p.add_argument(
        "--signing-policy",
        metavar="FILE",
        default=None,
        help="the signing policy (default: $MCP_REVIEW_SIGNING_POLICY, the config's [signing] "
        f"policy, else {signing.POLICY_NAME} beside the pin file)",
    )
    p.add_argument(
        "--base",
        metavar="REV",
        default=None,
        help="with --require-signed: the git revision the change is made on (the target "
        "branch): each changed decision must follow its decision there, and a changed policy "
        "must be signed by keys that revision allows",
    )
