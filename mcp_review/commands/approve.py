"""`mcp-review approve SERVER TOOL --snapshot FILE`: approve exactly the definition served now.

A change the policy blocks (an annotation relaxed, hidden characters, several definitions
under one name) needs ``--yes``; without it nothing is written and the exit code is 1 with
the reasons. Approving a denied tool lifts the denial. Exit 2 when the server or tool is not
in the snapshot (there is no definition to bind the approval to).
"""

from __future__ import annotations

import argparse
import sys

from mcp_review import exitcodes
from mcp_review.commands import _pinning


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("server", metavar="SERVER", help="the server's local name")
    p.add_argument("tool", metavar="TOOL", help="the tool name")
    p.add_argument("--snapshot", required=True, metavar="FILE",
                   help="saved tool lists holding the definition to approve")
    _pinning.add_pins_option(p)
    p.add_argument("--principal", default=None,
                   help="authorization context (default: the snapshot's, else 'default')")
    p.add_argument("--note", default="", help="why (stored in the pin and the audit log)")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    p.add_argument("--yes", action="store_true",
                   help="confirm approving a blocked change (annotation relaxed, hidden "
                        "characters)")
    _pinning.add_calls_option(p)
    _pinning.add_format_option(p)


def find_live(snap, server: str, tool: str, principal: str | None, source: str):
    """The snapshot's server entry for an approve/deny, checking the principal."""
    from mcp_review.core.errors import InputError

    srv = snap.servers.get(server)
    if srv is None:
        raise InputError(f"server {server!r} is not in the snapshot", source=source)
    if principal is not None and principal != srv.principal:
        raise InputError(f"the snapshot holds server {server!r} under principal "
                         f"{srv.principal!r}, not {principal!r}", source=source)
    if srv.error:
        raise InputError(f"server {server!r} could not be read when the snapshot was taken",
                         source=source)
    return srv


def run(args: argparse.Namespace) -> int:
    from mcp_review.core.errors import InputError
    from mcp_review.core.hidden import safe_text
    from mcp_review.core.pins import Decision, make_pin, save_pins
    from mcp_review.core.policy import Outcome
    from mcp_review.core.snapshot import ServerSnapshot
    from mcp_review.core.status import State, server_status

    snap, pins = _pinning.load_inputs(args)
    srv = find_live(snap, args.server, args.tool, args.principal, args.snapshot)
    served = [t for t in srv.tools if t.name == args.tool]
    if not served:
        raise InputError(f"tool {args.tool!r} is not served by {args.server!r} in the "
                         "snapshot; there is no definition to approve", source=args.snapshot)
    calls = _pinning.parse_calls(args.calls).get(args.server)
    one = ServerSnapshot(name=srv.name, principal=srv.principal, tools=served,
                         server_info=srv.server_info, protocol_version=srv.protocol_version)
    _, statuses = server_status(one, pins, calls=calls, witnesses=False)
    st = next(t for t in statuses if t.tool == args.tool)
    label = f"{safe_text(args.server)}/{safe_text(srv.principal)}/{safe_text(args.tool)}"
    if st.state is State.PINNED:
        print(f"{label} is already approved with this definition; nothing written")
        return exitcodes.PASS
    if st.policy.outcome is Outcome.BLOCK and not args.yes:
        print(f"mcp-review: {label} is blocked and was not approved:", file=sys.stderr)
        for r in st.policy.reasons:
            print(f"  - {safe_text(r)}", file=sys.stderr)
        print("review the change (mcp-review status --snapshot …), then rerun with --yes to "
              "approve it", file=sys.stderr)
        return exitcodes.FAIL
    assert st.live is not None
    pin = make_pin(args.server, st.live, Decision.APPROVED, principal=srv.principal, by=args.by,
                   note=args.note, server_version=srv.server_version,
                   protocol_version=srv.protocol_version)
    why = args.note or f"approved ({st.state}{', previously denied' if st.previously_denied else ''})"
    if st.policy.outcome is Outcome.BLOCK:
        why += " [confirmed with --yes: " + "; ".join(st.policy.reasons) + "]"
    pins.decide(pin, why=why, source="approve")
    result = save_pins(pins, args.pins)
    _pinning.report_save(result, args.pins)
    _pinning.print_records(result.audit_records, args.format, {})
    return exitcodes.PASS
