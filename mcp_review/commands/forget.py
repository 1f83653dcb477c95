"""`mcp-review forget SERVER TOOL`: drop a tool's pin (approved or denied) from the pin file.

Works on the pin file alone (no server is started): the save is locked, atomic and merged with
concurrent writers like every decision, and the audit log gets a ``forget`` record (who, when,
the dropped decision and digest, ``--note``). A tool that is still served then reads as new and
waits for review. A pin whose digest does not verify can be forgotten too (that is one way out
of it). Exit 0 when the pin was dropped, 2 when the server or the tool has no pin (or the tool
is pinned under several principals and ``--principal`` does not choose one).
"""

from __future__ import annotations

import argparse

from mcp_review.cli_args import add_format_option, add_pins_option, input_options
from mcp_review.engine import exitcodes
from mcp_review.formats import decisions as show
from mcp_review.services import decisions


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("server", metavar="SERVER", help="the server's local name")
    p.add_argument("tool", metavar="TOOL", help="the tool name")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="the config naming the pin file (`pins`); default: discovered as by "
        "every command, else ./mcp-pins.toml",
    )
    add_pins_option(p)
    p.add_argument(
        "--principal",
        default=None,
        help="authorization context (default: the only one the tool is pinned under)",
    )
    p.add_argument("--note", default="", help="why (stored in the audit log)")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.names import find_name, not_found, shown
    from mcp_review.services.inputs import resolve
    from mcp_review.store.pinfile import load_pins, save_pins

    inp = resolve(
        input_options(args),
        require_config=False,
        with_calls=False,
        server_filter=False,
        load_pin_file=False,
    )
    inp.print_notes()
    # Unverified pins are loaded aside (never trusted) so that they can be dropped.
    pins = load_pins(inp.pins_path, allow_unverified=True)
    every = {**{k: p for k, (p, _) in pins.unverified.items()}, **pins.pins}
    if not any(k[0] == args.server for k in every):
        raise InputError(
            f"server {shown(args.server)} has no pins"
            + not_found(args.server, {k[0] for k in every}, "servers"),
            source=inp.pins_path,
        )
    names = [k[2] for k in every if k[0] == args.server]
    digests = {k[2]: p.digest for k, p in every.items() if k[0] == args.server}
    tool = find_name(args.tool, digests) or args.tool  # an escaped form names its tool
    keys = sorted(
        k
        for k in every
        if k[0] == args.server
        and k[2] == tool
        and (args.principal is None or k[1] == args.principal)
    )
    if not keys:
        under = f" under principal {args.principal!r}" if args.principal is not None else ""
        raise InputError(
            f"tool {shown(args.tool)} of server {shown(args.server)} is not pinned{under}"
            + ("." if tool in names else not_found(args.tool, names, "tools")),
            source=inp.pins_path,
        )
    if len(keys) > 1:
        raise InputError(
            f"tool {args.tool!r} of server {args.server!r} is pinned under several "
            f"principals ({', '.join(k[1] for k in keys)}); choose one with "
            "--principal",
            source=inp.pins_path,
        )
    s, p, t = keys[0]
    decisions.forget_tool(
        pins, (s, p, t), by=args.by, why=args.note or "forgotten", source="forget"
    )
    result = save_pins(pins, inp.pins_path)
    show.report_save(result, inp.pins_path)
    show.print_records(result.audit_records, args.format, {})
    return exitcodes.PASS
