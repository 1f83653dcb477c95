"""Shared changes: the same change on many tools, found once.

Not a *group*: in this project a group is review by kind's (``engine/kinds.py`` ``Group``, the
``--group ID`` of ``approve``/``deny``). A shared change only shortens a report.

An upgrade often makes one edit to every tool of a server (``openWorldHint: false`` added to
twelve tools). Text and Markdown reports show such a change once with the tools it is on, and
the app approves the tools it is the whole story of at once. JSON and SARIF stay per tool.

Two changes are the same when rule, class, direction, pointer, message (which carries old →
new) and any new text or note are equal. A change with a witness is never grouped: its witness
is evidence about one tool's schema. Nor is a change an ``[[ignore]]`` waiver covers on that
tool (engine/rulesconfig.py): its waiver is per tool, and the report marks it beside the tool.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mcp_review.engine.model import CLASS_ORDER, Change

ChangeKey = tuple[Any, ...]


def change_key(c: Change) -> ChangeKey | None:
    """What makes two changes the same change; None for one that is never grouped."""
    if c.has_witness:
        return None
    return (
        c.rule,
        str(c.cls),
        str(c.direction),
        c.pointer,
        c.message,
        c.new_text,
        c.note,
        c.promoted,
    )


@dataclass(frozen=True, slots=True)
class SharedChange:
    """One change found identically on two or more tools of one (server, principal)."""

    server: str
    principal: str
    change: Change
    tools: tuple[str, ...]
    """Sorted tool names."""


def shared_changes(tools: Iterable[Any]) -> list[SharedChange]:
    """Every change that two or more of ``tools`` (``ToolStatus``-like: ``server``,
    ``principal``, ``tool``, ``comparison``) share within one server and principal; most
    severe first, then by pointer and rule."""
    seen: dict[tuple[str, str, ChangeKey], tuple[Change, list[str]]] = {}
    for t in tools:
        cmp = getattr(t, "comparison", None)
        if cmp is None:
            continue
        done: set[ChangeKey] = set()
        waived = getattr(t, "waived", None) or {}
        for c in cmp.changes:
            k = change_key(c)
            if k is None or k in done or (c.rule, c.pointer) in waived:
                continue
            done.add(k)
            hit = seen.setdefault((t.server, t.principal, k), (c, []))
            hit[1].append(t.tool)
    out = [
        SharedChange(s, p, c, tuple(sorted(names)))
        for (s, p, _k), (c, names) in seen.items()
        if len(names) > 1
    ]
    out.sort(
        key=lambda g: (
            g.server,
            g.principal,
            CLASS_ORDER[g.change.cls],
            g.change.pointer,
            g.change.rule,
            g.change.message,
        )
    )
    return out


def shared_keys(shared: Iterable[SharedChange]) -> set[tuple[str, str, str, ChangeKey]]:
    """(server, principal, tool, change key) of every change listed once as shared: what that
    tool's own listing leaves out. Per tool: a tool whose same change is not counted as shared
    (a waiver covers it there) still lists it under its own name."""
    out: set[tuple[str, str, str, ChangeKey]] = set()
    for g in shared:
        k = change_key(g.change)
        if k is not None:
            out.update((g.server, g.principal, n, k) for n in g.tools)
    return out


def signature(changes: Iterable[Change]) -> frozenset[ChangeKey] | None:
    """A tool's whole set of changes, or None when one of them is never grouped (a witness):
    tools with equal signatures differ from their pins in exactly the same way."""
    keys = set()
    for c in changes:
        k = change_key(c)
        if k is None:
            return None
        keys.add(k)
    return frozenset(keys) if keys else None
