"""`mcp-review deny SERVER TOOL [--snapshot FILE]`: deny a tool.

The denial is bound to the definition served now: by the live server (like `check`: same
config discovery and `--config`) or by a saved snapshot. When the tool is not served there (no
config, the server is down, the tool is gone), an existing pin is turned into a denial of its
definition, so a tool can be denied while its server is down. A denied tool stays denied
while its digest is unchanged; when it changes it shows as changed (previously denied) and is
never approved automatically.

``--candidate`` denies the definition the server's ``[servers.NAME.candidate]`` serves, under
the server's name; the running version's approved definition stays approved beside the denial
while the running version serves it (engine/candidate.py). Without ``--candidate`` a denial
denies the tool: nothing stays approved beside it.

``deny --group ID [--except SERVER/NAME ...]`` denies every member of a group of alike changes
(review by kind, engine/kinds.py; the ids come from ``status --groups``, computed the same way
from the same inputs): one decision per member, the group's id in each audit record
(services/decisions.decide_group). Exit 2 for an id that names no group in the drift now
(unknown, or stale: a member changed or was decided since).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from mcp_review.cli_args import (
    add_candidate_option,
    add_config_args,
    add_format_option,
    add_group_options,
    add_pins_option,
    add_sign_option,
    add_surface_options,
    group_request,
    input_options,
    surface_target,
)
from mcp_review.engine import exitcodes
from mcp_review.formats import decisions as show
from mcp_review.formats.surfaces import show_surface_decision
from mcp_review.services import decisions
from mcp_review.services.surface_decisions import decide_surface

if TYPE_CHECKING:
    from mcp_review.services.decisions import DecisionRequest


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "server", metavar="SERVER", nargs="?", default=None, help="the server's local name"
    )
    p.add_argument(
        "tool",
        metavar="TOOL",
        nargs="?",
        default=None,
        help="the tool name (omit it with --instructions)",
    )
    p.add_argument(
        "--instructions",
        action="store_true",
        help="deny the server's instructions (pinned per server and principal, "
        "like a tool description) instead of a tool",
    )
    add_surface_options(p, "deny")
    add_group_options(p, "deny")
    add_config_args(p, server_option=False)
    add_candidate_option(p)
    p.add_argument(
        "--snapshot",
        default=None,
        metavar="FILE",
        help="saved tool lists holding the definition to deny (default: fetch the "
        "configured server; the pin file alone when none is configured)",
    )
    add_pins_option(p)
    add_sign_option(p)
    p.add_argument(
        "--principal",
        default=None,
        help="authorization context (default: the server's, else the only one "
        "pinned, else 'default')",
    )
    p.add_argument("--note", default="", help="why (stored in the pin and the audit log)")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    add_format_option(p)


def _run_group(args: argparse.Namespace) -> int:
    """``--group ID``: decide every member of the group but the ``--except`` ones."""
    from mcp_review.engine.pins import Decision

    d, result, pins_path = decisions.decide_group_by_id(
        input_options(args), group_request(args), Decision.DENIED, "deny"
    )
    show.show_group_decision(d, result, args.format, pins_path)
    return exitcodes.FAIL if result is None else exitcodes.PASS


def run(args: argparse.Namespace) -> int:
    from mcp_review.cli_args import check_one_target
    from mcp_review.services.inputs import resolve

    if args.group is not None:
        return _run_group(args)
    check_one_target(args)
    inp = resolve(input_options(args), require_config=False, with_calls=False, server_filter=False)
    pins = inp.pins
    snap = _snapshot(args, inp)
    candidate = _candidate(args, inp)
    target = surface_target(args)
    if target is not None:
        sd = decide_surface(_request(args), inp, snap, "denied", target)
        show_surface_decision(sd, args.format, inp.pins_path)
        return exitcodes.FAIL if sd.blocked else exitcodes.PASS
    if args.instructions:
        return _deny_instructions(args, inp, snap, candidate)
    srv, live = _served(args, inp, snap)
    if live is not None and srv is not None:
        if _deny_served(args, pins, srv, live, candidate):
            return exitcodes.PASS
    elif candidate:
        from mcp_review.engine.errors import InputError
        from mcp_review.engine.names import shown

        raise InputError(
            f"--candidate: tool {shown(args.tool)} is not served by the candidate of "
            f"{shown(args.server)} (or it could not be read); nothing denied"
        )
    elif _deny_pinned(args, inp, snap, srv):
        return exitcodes.PASS
    result = decisions.save(pins, inp.pins_path)
    show.report_save(result, inp.pins_path)
    show.print_records(result.audit_records, args.format, {})
    return exitcodes.PASS


def _snapshot(args: argparse.Namespace, inp: Any) -> Any:
    """The tool lists the denial is bound to: the ``--snapshot`` file, else this one server
    fetched live when the config names it, else None (the pin file alone decides)."""
    if inp.snapshot_path is not None:
        return inp.snapshot()
    if inp.config is not None and any(s.name == args.server for s in inp.config.servers):
        inp.only = [args.server]  # a denial needs only this server's definition
        return inp.snapshot()
    return None


def _candidate(args: argparse.Namespace, inp: Any) -> bool:
    """Whether the server has a candidate; ``--candidate`` on a server without one is an
    input error, so a candidate denial never silently denies the running version."""
    from mcp_review.engine.errors import InputError

    candidate = args.server in inp.candidates
    if getattr(args, "candidate", False) and not candidate:
        raise InputError(
            f"--candidate: server {args.server!r} names no candidate "
            "([servers.NAME.candidate] in the config)"
        )
    return candidate


def _deny_instructions(args: argparse.Namespace, inp: Any, snap: Any, candidate: bool) -> int:
    """``--instructions``: deny the server's instructions (never a candidate's: one text is
    approved per server)."""
    from mcp_review.engine.errors import InputError

    if candidate:
        raise InputError(
            "--candidate cannot decide server instructions: one text is "
            "approved per server, and the running version's would be "
            "withheld; decide the candidate's after the switch"
        )
    d = decisions.decide_instructions(_request(args), inp, snap, "denied")
    show.show_instructions_decision(d, args.format, inp.pins_path)
    return exitcodes.FAIL if d.blocked else exitcodes.PASS


def _served(args: argparse.Namespace, inp: Any, snap: Any) -> tuple[Any, Any]:
    """The served server and the tool's served definition (each None when not served, or the
    server could not be read); an escaped tool name is resolved into ``args.tool``."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.names import find_name

    live = None
    srv = None
    if snap is not None and args.server in snap.servers:
        srv = snap.servers[args.server]
        if srv.error:
            if not inp.quiet:
                print(
                    f"mcp-review: note: server {safe_text(args.server)} could not be read; "
                    "denying the pinned definition",
                    file=sys.stderr,
                )
            srv = None
        else:
            srv = decisions.served_server(
                snap, args.server, args.principal, inp.snapshot_path or "live"
            )
            tool = find_name(args.tool, {t.name: t.digest for t in srv.tools})
            if tool is not None:
                args.tool = tool  # an escaped form (r\u0435ad_file) names its tool
            live = next((t for t in srv.tools if t.name == args.tool), None)
    return srv, live


def _deny_served(args: argparse.Namespace, pins: Any, srv: Any, live: Any, candidate: bool) -> bool:
    """Deny the definition served now; True (nothing written) when it is already denied with
    this very definition."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.pins import Decision

    old = pins.get(args.server, srv.principal, args.tool)
    if old is not None and not old.approved and old.current_digest() == live.digest:
        print(
            f"{safe_text(args.server)}/{safe_text(srv.principal)}/{safe_text(args.tool)} "
            "is already denied with this definition; nothing written"
        )
        return True
    # --candidate: the running version's approval stays beside the candidate's denial.
    decisions.decide_tool(
        pins,
        (args.server, srv.principal, args.tool),
        Decision.DENIED,
        live=live,
        by=args.by,
        note=args.note,
        why=decisions.audit_why(Decision.DENIED, _denied_on(old, live), note=args.note),
        source="deny",
        server_version=srv.server_version,
        protocol_version=srv.protocol_version,
        candidate=candidate,
        before=old,
    )
    return False


def _deny_pinned(args: argparse.Namespace, inp: Any, snap: Any, srv: Any) -> bool:
    """Turn the pin of a tool not served now into a denial of its pinned definition, so a tool
    can be denied while its server is down; True (nothing written) when already denied."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.names import find_name
    from mcp_review.engine.pins import Decision

    pins = inp.pins
    pinned = [k[2] for k in pins.pins if k[0] == args.server]
    tool = find_name(
        args.tool, {k[2]: p.digest for k, p in pins.pins.items() if k[0] == args.server}
    )
    if tool is not None:
        args.tool = tool
    found = pins.find_tool(args.server, args.tool)
    if args.principal is not None:
        found = [p for p in found if p.principal == args.principal]
    _check_one_pinned(args, inp, snap, srv, pinned, found)
    if not found[0].approved:
        print(
            f"{safe_text(args.server)}/{safe_text(found[0].principal)}/"
            f"{safe_text(args.tool)} is already denied; nothing written"
        )
        return True
    decisions.decide_tool(
        pins,
        found[0].key,
        Decision.DENIED,
        by=args.by,
        note=args.note,
        why=decisions.audit_why(Decision.DENIED, "pinned definition, not served", note=args.note),
        source="deny",
        before=found[0],
    )
    return False


def _check_one_pinned(
    args: argparse.Namespace, inp: Any, snap: Any, srv: Any, pinned: list[str], found: list[Any]
) -> None:
    """An input error unless exactly one pin matches: none (with where it was looked for and a
    did-you-mean hint) or several principals (choose one with ``--principal``)."""
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.names import not_found, shown

    if not found:
        where = (
            "in the snapshot"
            if inp.snapshot_path
            else "by the live server"
            if snap is not None
            else "(no config or --snapshot)"
        )
        servers = {k[0] for k in inp.pins.pins}
        if inp.config is not None:
            servers |= {s.name for s in inp.config.servers}
        if snap is not None:
            servers |= set(snap.servers)
        hint = (
            not_found(args.server, servers, "servers")
            if args.server not in servers
            else not_found(
                args.tool,
                [*pinned, *(t.name for t in (srv.tools if srv is not None else []))],
                "tools",
            )
        )
        raise InputError(
            f"tool {shown(args.tool)} of server {shown(args.server)} is neither served "
            f"{where} nor pinned in {inp.pins_path}; nothing to deny" + hint
        )
    if len(found) > 1:
        raise InputError(
            f"tool {args.tool!r} of server {args.server!r} is pinned under "
            f"several principals ({', '.join(sorted(p.principal for p in found))}"
            "); choose one with --principal"
        )


def _denied_on(old: Any, live: Any) -> str:
    """What a denial of the served definition is made on (the audit log's words): ``new``
    when nothing was pinned, ``changed`` when the pinned definition differs, else ``pinned``."""
    if old is None:
        return "new"
    return "pinned" if old.current_digest() == live.digest else "changed"


def _request(args: argparse.Namespace) -> DecisionRequest:
    """What this command's arguments ask of services/decisions.py (one server's instructions,
    prompt, resource or template)."""
    from mcp_review.services.decisions import DecisionRequest

    return DecisionRequest(
        args.server, args.principal, by=args.by, note=args.note, yes=getattr(args, "yes", False)
    )
