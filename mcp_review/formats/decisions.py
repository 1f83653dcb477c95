"""How the pin-file commands (status, pin, approve, deny, forget, check --auto-approve) show
the decisions they wrote: the save's notes on stderr, the records on stdout as text or JSON."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_review.engine.status import ToolStatus
    from mcp_review.services.decisions import GroupDecision, InstructionsDecision
    from mcp_review.store.pinfile import SaveResult


def report_save(result: SaveResult, path: str) -> None:
    """Tell the operator on stderr when another writer changed the file since it was read."""
    from mcp_review.engine.hidden import safe_text
    from mcp_review.store.pinfile import upgrade_note

    note = upgrade_note(result, path)
    if note:
        print(f"mcp-review: note: {note}", file=sys.stderr)
    if result.merged:
        print(
            f"mcp-review: note: {path} changed on disk since it was read; "
            "merged the other writer's decisions with these",
            file=sys.stderr,
        )
    for c in result.conflicts:
        s, p, t = c.key
        by = c.theirs.decided_by if c.theirs else "another writer"
        print(
            f"mcp-review: warning: {safe_text(s)}/{safe_text(p)}/{safe_text(t)} was also decided "
            f"by {safe_text(by)} since it was read; this decision replaces it",
            file=sys.stderr,
        )


def print_records(records: list[dict[str, Any]], fmt: str, extra: dict[str, Any]) -> None:
    """The decisions written, as text lines or one JSON document on stdout."""
    from mcp_review.engine.hidden import json_dumps_safe, mark_lookalikes, safe_text
    from mcp_review.engine.names import with_escape

    if fmt == "json":
        sys.stdout.write(json_dumps_safe({"decisions": records, **extra}, indent=2) + "\n")
        return

    # A protocol note several approvals share is said once, with the count (a first pin of an old
    # server repeated one note 13 times).
    def note_key(f: dict[str, Any]) -> tuple[str, str, str]:
        return (str(f.get("rule")), str(f.get("pointer")), str(f.get("message")))

    shared: dict[tuple[str, str, str], list[str]] = {}
    for r in records:
        for f in r.get("protocol") or ():
            shared.setdefault(note_key(f), []).append(str(r.get("tool")))
    shared = {k: v for k, v in shared.items() if len(v) > 1}
    for r in records:
        what = PRUNED if r.get("event") == PRUNED else r.get("decision") or r.get("event")
        if r.get("class"):
            what = f"{what} ({safe_text(r['class'])})"
        if r.get("event") == "kind":  # one kind of a tool that still has others pending
            what = f"{what} kind ({safe_text(str(r.get('kind', '')))}; other kinds pending)"
        old = r.get("old_digest")
        new = r.get("new_digest")
        digests = f"  {old[:19]}… → {new[:19]}…" if old and new and old != new else ""
        if r.get("tool") is not None:
            tool = str(r["tool"])
            subject = with_escape(safe_text(mark_lookalikes(tool)), tool)
        else:
            subject = f"({safe_text(str(r.get('subject', '')))})"
            if r.get("name") is not None:  # a prompt, resource or template
                subject += " " + safe_text(str(r["name"]))
        print(
            f"{what}: {safe_text(r['server'])}/{safe_text(str(r['principal']))}/{subject}{digests}"
        )
        for f in r.get("protocol") or ():
            if note_key(f) in shared:
                continue
            print(
                f"    protocol: {safe_text(str(f['rule']))} {safe_text(str(f['pointer']))}: "
                f"{safe_text(str(f['message']))}"
            )
    for (rule, pointer, message), tools in shared.items():
        names = ", ".join(with_escape(safe_text(mark_lookalikes(t)), t) for t in tools[:8])
        more = f" and {len(tools) - 8} more" if len(tools) > 8 else ""
        print(
            f"protocol: {safe_text(rule)} {safe_text(pointer)}: {safe_text(message)} "
            f"(on {len(tools)} tools: {names}{more})"
        )


def change_class(t: ToolStatus) -> str:
    """What an approval of ``t`` accepts (``engine.status.change_class``: the engine's words,
    which the audit log shares)."""
    from mcp_review.engine.status import change_class as engine_change_class

    return engine_change_class(t)


PRUNED = "dropped"
"""How a record that only drops a running version's kept definition (engine/candidate.py
``prune``) is shown: its decision stands as it was, so it must not read as a new one."""


def with_class(
    records: list[dict[str, Any]],
    classes: dict[Any, str],
    *,
    pruned: set[tuple[str, str, str]] | frozenset[tuple[str, str, str]] = frozenset(),
    protocol: dict[Any, Any] | None = None,
) -> list[dict[str, Any]]:
    """Audit records with ``class`` added for the approvals (what each one accepted; a
    server's instructions are keyed ``(server, principal, None)``); a record of ``pruned``
    (a kept definition no longer served, dropped) is marked ``event: dropped`` instead.
    ``protocol``: per tool, its protocol findings (engine/protocol.py), carried on its
    approval (``protocol`` in JSON, a line each in text) so a baseline says what it accepts."""
    out = []
    for r in records:
        k = (r.get("server"), r.get("principal"), r.get("tool"))
        if k in classes and r.get("decision") == "approved":
            r = {**r, "class": classes[k]}
            if protocol and protocol.get(k):
                r["protocol"] = [f.to_json() for f in protocol[k]]
        elif k in pruned:
            r = {
                **r,
                "event": PRUNED,
                "class": "an earlier approved definition the running version no longer "
                f"serves; still {r.get('decision') or 'decided'}",
            }
        out.append(r)
    return out


def show_instructions_decision(d: InstructionsDecision, fmt: str, path: str) -> None:
    """A decision about a server's instructions (``services.decisions.decide_instructions``):
    nothing to write, refused (stderr, with the reasons), or the record written."""
    from mcp_review.engine.hidden import safe_text

    if d.unchanged:
        print(f"{d.label} are already {d.decision} with this text; nothing written")
    elif d.blocked:
        print(f"mcp-review: {d.label} are blocked and were not approved:", file=sys.stderr)
        for r in d.blocked:
            print(f"  - {safe_text(r)}", file=sys.stderr)
        print("review them (mcp-review status, or the app), then rerun with --yes", file=sys.stderr)
    else:
        assert d.result is not None  # neither unchanged nor blocked: saved
        report_save(d.result, path)
        print_records(d.result.audit_records, fmt, {})


def show_group_decision(d: GroupDecision, result: SaveResult | None, fmt: str, path: str) -> None:
    """A decision about a group (``services.decisions.decide_group``): refused (stderr, with
    the reasons) when blocked and not confirmed, else the records written and one line per
    what happened to the members (text) or the records with the group (JSON)."""
    from mcp_review.engine.hidden import safe_text

    g = d.group
    label = f"group {safe_text(g.id)} ({safe_text(g.label)})"
    if d.blocked:
        print(f"mcp-review: {label} is blocked and was not approved:", file=sys.stderr)
        for r in d.blocked:
            print(f"  - {safe_text(r)}", file=sys.stderr)
        for m in g.members:
            for a in m.added:
                print(
                    f'  {safe_text(m.name)} adds at {safe_text(a.pointer)}: "{safe_text(a.text)}"',
                    file=sys.stderr,
                )
        print(
            "review its members (mcp-review status --groups, or the app), then rerun with "
            "--yes to approve it",
            file=sys.stderr,
        )
        return
    assert result is not None  # only a blocked decision is not saved
    report_save(result, path)
    extra = {
        "group": {
            "id": g.id,
            "kind": g.label,
            "kind_key": g.kind.key,
            "decision": str(d.decision),
            "decided": [m.to_json() for m in d.decided],
            "excepted": [m.to_json() for m in d.excepted],
            "whole": [m.to_json() for m in d.whole],
            "partial": [m.to_json() for m in d.partial],
        }
    }
    print_records(result.audit_records, fmt, extra)
    if fmt == "json":
        return
    said = f"{label}: {d.decision} on {len(d.decided)} {g.subject.replace('-', ' ')}(s)"
    if d.partial:
        said += (
            f"; {len(d.partial)} wait for their other kinds (this kind is kept, bound to "
            "the definition served now)"
        )
    if d.excepted:
        said += "; left out: " + ", ".join(safe_text(m.name) for m in d.excepted)
    print(said)
    # What was approved, whole: the text each decided member adds.
    for m in d.decided:
        for a in m.added:
            print(f'  {safe_text(m.name)} adds at {safe_text(a.pointer)}: "{safe_text(a.text)}"')
