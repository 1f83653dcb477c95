"""Output helpers shared by the pin-file commands (status, pin, approve, deny); their inputs come
from ``services.inputs`` like every other command's."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text")


def report_save(result: Any, path: str) -> None:
    """Tell the operator on stderr when another writer changed the file since it was read."""
    from mcp_review.core.hidden import safe_text
    from mcp_review.core.pins import upgrade_note

    note = upgrade_note(result, path)
    if note:
        print(f"mcp-review: note: {note}", file=sys.stderr)
    if result.merged:
        print(f"mcp-review: note: {path} changed on disk since it was read; "
              "merged the other writer's decisions with these", file=sys.stderr)
    for c in result.conflicts:
        s, p, t = c.key
        by = c.theirs.decided_by if c.theirs else "another writer"
        print(f"mcp-review: warning: {safe_text(s)}/{safe_text(p)}/{safe_text(t)} was also decided "
              f"by {safe_text(by)} since it was read; this decision replaces it", file=sys.stderr)


def print_records(records: list[dict[str, Any]], fmt: str, extra: dict[str, Any]) -> None:
    """The decisions written, as text lines or one JSON document on stdout."""
    from mcp_review.core.hidden import json_dumps_safe, mark_lookalikes, safe_text
    from mcp_review.core.names import with_escape

    if fmt == "json":
        sys.stdout.write(json_dumps_safe({"decisions": records, **extra}, indent=2) + "\n")
        return
    for r in records:
        what = r.get("decision") or r.get("event")
        if r.get("class"):
            what = f"{what} ({safe_text(r['class'])})"
        old = r.get("old_digest")
        new = r.get("new_digest")
        digests = f"  {old[:19]}… → {new[:19]}…" if old and new and old != new else ""
        if r.get("tool") is not None:
            tool = str(r["tool"])
            subject = with_escape(safe_text(mark_lookalikes(tool)), tool)
        else:
            subject = f"({safe_text(str(r.get('subject', '')))})"
        print(f"{what}: {safe_text(r['server'])}/{safe_text(str(r['principal']))}/"
              f"{subject}{digests}")


def change_class(t: Any) -> str:
    """What an approval of ``t`` (a core.status.ToolStatus) accepts, in one word or a few:
    ``new``, ``unchanged``, or the classes of its changes, most severe first (``breaking+trust``),
    with broken recorded calls and "unclassified" (digest changed, no change named) said."""
    from mcp_review.core.model import CLASS_ORDER
    from mcp_review.core.status import State

    if t.state is State.NEW:
        return "new"
    if t.state is State.REMOVED:
        return "removed"
    if t.state is State.DENIED:
        return "denied"
    cmp = t.comparison
    if cmp is None:
        return "unchanged"
    classes = sorted({c.cls for c in cmp.changes}, key=CLASS_ORDER.__getitem__)
    out = "+".join(str(c) for c in classes) or "unclassified"
    if cmp.broken_calls:
        out += f", {cmp.broken_calls} broken call(s)"
    return out


def needs_confirmation(t: Any) -> bool:
    """A pinned tool whose change a baseline must not wave through: breaking, trust, a broken
    recorded call, or a digest change the engine could not name."""
    from mcp_review.core.model import ChangeClass

    cmp = t.comparison
    if cmp is None:
        return False
    classes = {c.cls for c in cmp.changes}
    return (not classes or ChangeClass.BREAKING in classes or ChangeClass.TRUST in classes
            or cmp.broken_calls > 0)


def with_class(records: list[dict[str, Any]], classes: dict[tuple[str, str, str], str]
               ) -> list[dict[str, Any]]:
    """Audit records with ``class`` added for the approvals (what each one accepted)."""
    out = []
    for r in records:
        k = (r.get("server"), r.get("principal"), r.get("tool"))
        if k in classes and r.get("decision") == "approved":
            r = {**r, "class": classes[k]}
        out.append(r)
    return out


def decide_instructions(args: Any, inp: Any, snap: Any, decision: str) -> int:
    """``approve``/``deny`` ``SERVER --instructions``: decide exactly the instructions the
    server sends now (or sent in the snapshot). Instructions are on the trust axis: a blocked
    change (hidden characters appeared) needs ``--yes`` to approve. Deny works on the pinned
    text when the server is not served. Exit 2 when there is nothing to decide."""
    from mcp_review import exitcodes
    from mcp_review.core.errors import InputError
    from mcp_review.core.hidden import safe_text
    from mcp_review.core.instructions import instructions_status, live_text
    from mcp_review.core.pins import make_instructions_pin, save_pins
    from mcp_review.core.policy import Outcome

    source = inp.snapshot_path or "live"
    pins = inp.pins
    srv = None
    if snap is not None and args.server in snap.servers and not snap.servers[args.server].error:
        srv = served_server(snap, args.server, args.principal, source)
    principal = srv.principal if srv is not None else (args.principal or "default")
    key = (args.server, principal)
    old = pins.instructions.get(key)
    live = live_text(srv.instructions) if srv is not None else None
    label = f"{safe_text(args.server)}/{safe_text(principal)} instructions"
    if live is None:
        if decision == "approved" or old is None:
            where = "in the snapshot" if inp.snapshot_path else "now"
            raise InputError(f"server {args.server!r} sends no instructions {where}"
                             + ("" if decision == "approved" else " and none are pinned")
                             + f"; nothing to {'approve' if decision == 'approved' else 'deny'}")
        text = old.text
    else:
        text = live
    st = instructions_status(args.server, principal, text, old, pins.tier_for(args.server))
    assert st is not None
    if old is not None and old.decision == decision and st.state in ("pinned", "denied"):
        print(f"{label} are already {decision} with this text; nothing written")
        return exitcodes.PASS
    why = args.note or f"{decision} ({st.state} server instructions)"
    if decision == "approved" and st.policy.outcome is Outcome.BLOCK:
        if not getattr(args, "yes", False):
            print(f"mcp-review: {label} are blocked and were not approved:", file=sys.stderr)
            for r in st.policy.reasons:
                print(f"  - {safe_text(r)}", file=sys.stderr)
            print("review them (mcp-review status, or the app), then rerun with --yes",
                  file=sys.stderr)
            return exitcodes.FAIL
        why += " [confirmed with --yes: " + "; ".join(st.policy.reasons) + "]"
    ipin = make_instructions_pin(args.server, text, decision, principal=principal, by=args.by,
                                 note=args.note,
                                 server_version=srv.server_version if srv is not None else None)
    pins.decide_instructions(ipin, why=why, source="approve" if decision == "approved" else "deny")
    result = save_pins(pins, inp.pins_path)
    report_save(result, inp.pins_path)
    print_records(result.audit_records, args.format, {})
    return exitcodes.PASS


def served_server(snap: Any, server: str, principal: str | None, source: str) -> Any:
    """The snapshot's entry for the server an approve/deny names, checking the principal."""
    from mcp_review.core.errors import InputError

    where = "in the snapshot" if source != "live" else "among the configured servers"
    srv = snap.servers.get(server)
    if srv is None:
        from mcp_review.core.names import did_you_mean

        raise InputError(f"server {server!r} is not {where}." + did_you_mean(server, snap.servers),
                         source=source if source != "live" else None)
    if principal is not None and principal != srv.principal:
        raise InputError(f"server {server!r} is served under principal {srv.principal!r}, "
                         f"not {principal!r}", source=source if source != "live" else None)
    return srv


def check_configured(inp: Any, server: str) -> None:
    """Before fetching anything: a live approve/deny naming a server the config does not
    have is an input error, with the closest names."""
    from mcp_review.core.errors import InputError

    if not inp.live or inp.config is None:
        return
    known = [s.name for s in inp.config.servers]
    if server not in known:
        from mcp_review.core.names import did_you_mean

        raise InputError(f"no server {server!r} in the config." + did_you_mean(server, known),
                         source=inp.config.source)
