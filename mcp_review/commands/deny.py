"""`mcp-review deny SERVER TOOL [--snapshot FILE]`: deny a tool.

With a snapshot that serves the tool, the denial is bound to that definition; otherwise an
existing pin is turned into a denial of its definition (so a tool can be denied while its
server is down). A denied tool stays denied while its digest is unchanged; when it changes
it shows as changed (previously denied) and is never approved automatically.
"""

from __future__ import annotations

import argparse

from mcp_review import exitcodes
from mcp_review.commands import _pinning


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("server", metavar="SERVER", help="the server's local name")
    p.add_argument("tool", metavar="TOOL", help="the tool name")
    p.add_argument("--snapshot", default=None, metavar="FILE",
                   help="saved tool lists holding the definition to deny (optional when the "
                        "tool is pinned)")
    _pinning.add_pins_option(p)
    p.add_argument("--principal", default=None,
                   help="authorization context (default: the snapshot's, else the only one "
                        "pinned, else 'default')")
    p.add_argument("--note", default="", help="why (stored in the pin and the audit log)")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    _pinning.add_format_option(p)


def run(args: argparse.Namespace) -> int:
    from mcp_review.commands.approve import find_live
    from mcp_review.core.errors import InputError
    from mcp_review.core.hidden import safe_text
    from mcp_review.core.pins import Decision, make_pin, save_pins, with_decision

    snap, pins = _pinning.load_inputs(args)
    pin = None
    live = None
    srv = None
    if snap is not None and args.server in snap.servers and not snap.servers[args.server].error:
        srv = find_live(snap, args.server, args.tool, args.principal, args.snapshot)
        live = next((t for t in srv.tools if t.name == args.tool), None)
    if live is not None and srv is not None:
        old = pins.get(args.server, srv.principal, args.tool)
        if old is not None and not old.approved and old.current_digest() == live.digest:
            print(f"{safe_text(args.server)}/{safe_text(srv.principal)}/{safe_text(args.tool)} is "
                  "already denied with this definition; nothing written")
            return exitcodes.PASS
        pin = make_pin(args.server, live, Decision.DENIED, principal=srv.principal,
                       by=args.by, note=args.note, server_version=srv.server_version,
                       protocol_version=srv.protocol_version)
    else:
        found = pins.find_tool(args.server, args.tool)
        if args.principal is not None:
            found = [p for p in found if p.principal == args.principal]
        if not found:
            where = "in the snapshot" if snap is not None else "(no --snapshot given)"
            raise InputError(f"tool {args.tool!r} of server {args.server!r} is neither served "
                             f"{where} nor pinned in {args.pins}; nothing to deny")
        if len(found) > 1:
            raise InputError(f"tool {args.tool!r} of server {args.server!r} is pinned under "
                             f"several principals ({', '.join(sorted(p.principal for p in found))}"
                             "); choose one with --principal")
        if not found[0].approved:
            print(f"{safe_text(args.server)}/{safe_text(found[0].principal)}/{safe_text(args.tool)} "
                  "is already denied; nothing written")
            return exitcodes.PASS
        pin = with_decision(found[0], Decision.DENIED, by=args.by, note=args.note)
    pins.decide(pin, why=args.note or "denied", source="deny")
    result = save_pins(pins, args.pins)
    _pinning.report_save(result, args.pins)
    _pinning.print_records(result.audit_records, args.format, {})
    return exitcodes.PASS
