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
    from mcp_review.core.hidden import json_dumps_safe, safe_text

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
        print(f"{what}: {safe_text(r['server'])}/{safe_text(str(r['principal']))}/"
              f"{safe_text(str(r['tool']))}{digests}")


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


def served_server(snap: Any, server: str, principal: str | None, source: str) -> Any:
    """The snapshot's entry for the server an approve/deny names, checking the principal."""
    from mcp_review.core.errors import InputError

    where = "in the snapshot" if source != "live" else "among the configured servers"
    srv = snap.servers.get(server)
    if srv is None:
        raise InputError(f"server {server!r} is not {where}",
                         source=source if source != "live" else None)
    if principal is not None and principal != srv.principal:
        raise InputError(f"server {server!r} is served under principal {srv.principal!r}, "
                         f"not {principal!r}", source=source if source != "live" else None)
    return srv
