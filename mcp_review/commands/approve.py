"""`mcp-review approve SERVER TOOL [--snapshot FILE]`: approve exactly the definition served now.

The definition comes from the live server (like `check`: same config discovery and `--config`;
only the server named is started) or from a saved snapshot. A look-alike of a tool on another
server is blocked here as it is in `check`: the servers not fetched are judged by their approved
pinned names (the finding says so). A change the policy blocks (an
annotation claiming more or less power, hidden characters, a look-alike name, several
definitions under one name)
needs ``--yes``; without it nothing is written and the exit code is 1 with the reasons.
Approving a denied tool lifts the denial. Exit 2 when the server or tool is not served (there is
no definition to bind the approval to), 3 when the server could not be reached.

``approve --group ID [--except SERVER/NAME ...]`` approves every member of a group of alike changes
(review by kind, engine/kinds.py; the ids come from ``status --groups``, computed the same way
from the same inputs): one decision per member, the group's id in each audit record
(services/decisions.decide_group). Exit 2 for an id that names no group in the drift now
(unknown, or stale: a member changed or was decided since). A blocked group needs ``--yes``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from mcp_review.cli_args import (
    add_calls_option,
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
        help="approve the server's instructions (pinned per server and principal, "
        "like a tool description) instead of a tool",
    )
    add_surface_options(p, "approve")
    add_group_options(p, "approve")
    add_config_args(p, server_option=False)
    add_candidate_option(p)
    p.add_argument(
        "--snapshot",
        metavar="FILE",
        help="saved tool lists holding the definition to approve (default: fetch "
        "the configured servers)",
    )
    add_pins_option(p)
    add_sign_option(p)
    p.add_argument(
        "--principal",
        default=None,
        help="authorization context (default: the server's, else 'default')",
    )
    p.add_argument("--note", default="", help="why (stored in the pin and the audit log)")
    p.add_argument("--by", default=None, help="who decides (default: the OS user)")
    p.add_argument(
        "--yes",
        action="store_true",
        help="confirm approving a blocked change (a blocking cue in new text: an instruction "
        "to the agent, concealment, an ask for a secret, exfiltration, a secret location; "
        "hidden characters; an annotation claiming more power, or less power against the "
        "tool's own words or its pinned claim; a look-alike name), or a blocked group with "
        "--group. --yes is the whole confirmation here (the app asks for a typed reason; "
        "this asks none): the blocking reasons go to the audit log as confirmed with --yes, "
        "--note adds your own. Without it a blocked change is not approved (exit 1)",
    )
    add_calls_option(p)
    add_format_option(p)


def _run_group(args: argparse.Namespace) -> int:
    """``--group ID``: decide every member of the group but the ``--except`` ones."""
    from mcp_review.engine.pins import Decision

    d, result, pins_path = decisions.decide_group_by_id(
        input_options(args), group_request(args), Decision.APPROVED, "approve"
    )
    show.show_group_decision(d, result, args.format, pins_path)
    return exitcodes.FAIL if result is None else exitcodes.PASS


def run(args: argparse.Namespace) -> int:
    from mcp_review.cli_args import check_one_target
    from mcp_review.engine.hidden import safe_text
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.policy import approval_allowed
    from mcp_review.engine.status import State
    from mcp_review.services.inputs import resolve

    if args.group is not None:
        return _run_group(args)
    check_one_target(args)
    inp = resolve(input_options(args), server_filter=False)
    inp.print_notes()
    decisions.check_configured(inp, args.server)
    source = inp.snapshot_path or "live"
    if inp.live:
        # Only the server named starts; the others are judged by their pinned names.
        inp.only = [args.server]
    snap = inp.snapshot()
    target = surface_target(args)
    if target is not None:
        sd = decide_surface(_request(args), inp, snap, "approved", target)
        show_surface_decision(sd, args.format, inp.pins_path)
        return exitcodes.FAIL if sd.blocked else exitcodes.PASS
    if args.instructions:
        d = decisions.decide_instructions(_request(args), inp, snap, "approved")
        show.show_instructions_decision(d, args.format, inp.pins_path)
        return exitcodes.FAIL if d.blocked else exitcodes.PASS
    srv = decisions.served_server(snap, args.server, args.principal, source)
    if srv.error:
        return _unreadable(args, inp, srv, source)
    _name_served_tool(args, inp, srv)
    report = inp.status(snap, witnesses=True, pinned_elsewhere=True)
    st = next(
        t
        for t in report.tools
        if t.server == args.server and t.principal == srv.principal and t.tool == args.tool
    )
    label = f"{safe_text(args.server)}/{safe_text(srv.principal)}/{safe_text(args.tool)}"
    from mcp_review.engine.candidate import awaiting_upgrade

    # Approved while previewing a candidate and served by the running version now: approving
    # the running version writes its pin without the preview's mark.
    relabel = awaiting_upgrade(st.pin) and args.server not in inp.candidates
    if st.state is State.PINNED and not relabel:
        print(f"{label} is already approved with this definition; nothing written")
        return exitcodes.PASS
    cls = show.change_class(st)
    if not approval_allowed(Decision.APPROVED, st.policy.outcome, args.yes):
        _refuse_blocked(label, cls, st)
        return exitcodes.FAIL
    assert st.live is not None
    _approve_served(args, inp, srv, st, cls)
    return exitcodes.PASS


def _unreadable(args: argparse.Namespace, inp: Any, srv: Any, source: str) -> int:
    """A server that could not be read approves nothing: unreachable live (exit 3), an input
    error when the snapshot recorded the failure."""
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.hidden import safe_text

    if inp.live:
        print(
            f"mcp-review: server {safe_text(args.server)} could not be reached "
            f"({safe_text(str(srv.error.get('kind') or 'error'))}: "
            f"{safe_text(str(srv.error.get('message') or 'no detail'))}); nothing approved",
            file=sys.stderr,
        )
        return exitcodes.UNREACHABLE
    raise InputError(
        f"server {args.server!r} could not be read when the snapshot was taken", source=source
    )


def _name_served_tool(args: argparse.Namespace, inp: Any, srv: Any) -> None:
    """Resolve ``args.tool`` to the served tool it names (an escaped form included); an input
    error with a did-you-mean hint when it is not served, as there is nothing to approve."""
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.names import find_name, not_found, shown

    served = {t.name: t.digest for t in srv.tools}  # digests name each tool if it is ambiguous
    tool = find_name(args.tool, served)
    if tool is None:
        where = "in the snapshot" if not inp.live else "now"
        raise InputError(
            f"tool {shown(args.tool)} is not served by {shown(args.server)} {where}; there "
            "is no definition to approve" + not_found(args.tool, served, "tools"),
            source=inp.snapshot_path,
        )
    args.tool = tool  # an escaped form (r\u0435ad_file) names the tool it stands for


def _refuse_blocked(label: str, cls: str, st: Any) -> None:
    """Tell on stderr why a blocked change was not approved and how to confirm it."""
    from mcp_review.engine.hidden import safe_text

    print(
        f"mcp-review: {label} ({safe_text(cls)}) is blocked and was not approved:",
        file=sys.stderr,
    )
    for r in st.policy.reasons:
        print(f"  - {safe_text(r)}", file=sys.stderr)
    print(
        "review the change (mcp-review status, or the app), then rerun with --yes to approve it",
        file=sys.stderr,
    )


def _approve_served(args: argparse.Namespace, inp: Any, srv: Any, st: Any, cls: str) -> None:
    """Approve the served definition, save the pins and show the audit records."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.policy import blocked_approval
    from mcp_review.engine.status import accepted

    why = decisions.audit_why(
        Decision.APPROVED,
        accepted(st),
        note=args.note,
        blocked=st.policy.reasons if blocked_approval(Decision.APPROVED, st.policy.outcome) else (),
        confirmed="with --yes",
    )
    pins = inp.pins
    # --candidate: the running version's approval stays beside the candidate's.
    decisions.decide_tool(
        pins,
        st.key,
        Decision.APPROVED,
        live=st.live,
        by=args.by,
        note=args.note,
        why=why,
        source="approve",
        server_version=srv.server_version,
        protocol_version=srv.protocol_version,
        candidate=args.server in inp.candidates,
        seen=st,
    )
    result = decisions.save(pins, inp.pins_path)
    show.report_save(result, inp.pins_path)
    show.print_records(show.with_class(result.audit_records, {st.key: cls}), args.format, {})


def _request(args: argparse.Namespace) -> DecisionRequest:
    """What this command's arguments ask of services/decisions.py (one server's instructions,
    prompt, resource or template)."""
    from mcp_review.services.decisions import DecisionRequest

    return DecisionRequest(args.server, args.principal, by=args.by, note=args.note, yes=args.yes)
