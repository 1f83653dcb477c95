"""The decisions a drift needs, by kind (engine/kinds.py), in text, Markdown and JSON.

Every report that lists tools (``status``, ``check``) visits them in the order of review by
kind: tools that stand alone and are blocked first (blocking cues first),
then tools alone for review with cues, then the members of the groups by group size (largest
first), then the rest (:func:`tool_order`). ``status --groups`` and ``check``'s Markdown show
the decisions themselves: each group's id, kind, outcome and members with their own values
(old → new), and each tool that stands alone with why.

Every server-supplied string goes through ``hidden.safe_text`` (text) or ``md_text``
(Markdown); kinds and their labels carry no server text (engine/kinds.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp_review.engine.hidden import mark_lookalikes, md_text, safe_text
from mcp_review.engine.kinds import (
    TEXT_RULES,
    Alone,
    Group,
    Grouping,
    Member,
    SurfaceAlone,
    new_tool_contradictions,
)
from mcp_review.engine.names import with_escape
from mcp_review.engine.rules import render_change
from mcp_review.engine.rules.catalog import rule_of
from mcp_review.formats.compare import show_value

if TYPE_CHECKING:
    from mcp_review.engine.model import Change

CUES_LISTED = 20
"""Cues listed per tool in text, Markdown and SARIF (the JSON has every one)."""

MEMBER_CHANGES = 4
"""A member's own changes of its group's kind shown per member (text, Markdown)."""
ALONE_CHANGES = 8
"""The changes of a tool alone shown under it (``status --groups``; all: ``diff``)."""

_MARK = {"block": "BLOCK", "review": "REVIEW"}


def tool_order(grouping: Grouping) -> Callable[[Any], tuple[int, int, int]]:
    """A sort key for ``ToolStatus``-likes: the order of :meth:`Grouping.ordered`, tools in
    no decision (pinned, auto-approved, ...) last, in their report order (a stable sort)."""
    rank: dict[tuple[str, ...], tuple[int, int]] = {}
    for i, item in enumerate(grouping.ordered()):
        if isinstance(item, Alone):
            rank.setdefault(item.key, (i, 0))
        elif isinstance(item, Group):
            for j, m in enumerate(item.members):
                rank.setdefault(m.key, (i, j))
    last = (len(rank) + 1, 0)

    def key(t: Any) -> tuple[int, int, int]:
        r = rank.get((t.server, t.principal, t.tool), last)
        return (0 if r is not last else 1, *r)

    return key


def decision_tag(grouping: Grouping, key: tuple[str, str, str]) -> str:
    """How the tool ``key`` is decided, in words: ``alone (blocking cue)``, ``in groups
    b53069adf4e5 (annotations claim less power), …``; empty when it needs no decision."""
    a = grouping.alone_of(key)
    if a is not None:
        return "decided alone (" + ", ".join(str(r) for r in a.reasons) + ")"
    gs = grouping.groups_of(key)
    if not gs:
        return ""
    return "decided by kind: " + "; ".join(f"group {g.id} ({g.label})" for g in gs)


def _name(server: str, principal: str, tool: str) -> str:
    p = "" if principal == "default" else f"[{safe_text(principal)}]"
    return with_escape(f"{safe_text(server)}{p}/{safe_text(mark_lookalikes(tool))}", tool)


def member_name(m: Member) -> str:
    """A group member made visible: ``server/tool``, or ``server prompt "name"`` (its kind
    before its name) for a prompt, resource or template."""
    if not m.surface:
        return _name(m.server, m.principal, m.tool)
    p = "" if m.principal == "default" else f"[{safe_text(m.principal)}]"
    return f'{safe_text(m.server)}{p} {m.subject} "{safe_text(mark_lookalikes(m.tool))}"'


def change_values(c: Change) -> str:
    """One change's own values in a line, the one wording of a group member's values (the
    CLI's reports and the app's group screen): ``readOnlyHint: (absent) → true`` for a hint,
    ``description: "a" -> "b"`` for text (its delta), ``where: old → new`` where the rule names
    both, the rule's message otherwise. The parameters are already quoted, single-line and
    bounded; the caller makes the line safe for its medium (a terminal, the app's markup)."""
    p = dict(c.params)
    if "hint" in p and "old" in p and "new" in p:
        return f"{p['hint']}: {p['old']} → {p['new']}"
    if "delta" in p:
        return f"{p.get('field') or c.pointer.rsplit('/', 1)[-1]}: {p['delta']}"
    if "old" in p and "new" in p:
        where = p.get("where") or c.pointer or "tool"
        return f"{where}: {p['old']} → {p['new']}"
    if c.new_text:
        return "; ".join(f"{t.field}: {t.text}" for t in c.new_text)
    return render_change(c)


def compact(c: Change) -> str:
    """One change in a few words, its own values kept (:func:`change_values`), made visible
    for a terminal."""
    return safe_text(change_values(c))


def added_lines(m: Member) -> list[str]:
    """Each text the member's changes add, whole (a group never approves text
    no one was shown; a member adding more than ``kind_text.SHOWN_WHOLE`` characters stands
    alone), escaped as every server string is."""
    return [f'adds at {safe_text(a.pointer)}: "{safe_text(a.text)}"' for a in m.added]


def _only_new_text(c: Change) -> bool:
    """Whether :func:`change_values` shows nothing of the change but the text it brings in."""
    p = dict(c.params)
    return bool(c.new_text) and "delta" not in p and not ("old" in p and "new" in p)


def _all_added(c: Change, at: set[str]) -> bool:
    """Whether every text the change brings in is among a member's added texts (by pointer)."""
    return not c.new_text_more and all(t.pointer in at for t in c.new_text)


def member_values(m: Member, limit: int = MEMBER_CHANGES) -> list[str]:
    """A member's own changes of the kind, one line each (old → new, witness), visible and
    bounded, and the text they add in full: what the operator compares across the members
    before deciding them at once."""
    out: list[str] = []
    changes = m.changes
    if m.added:
        # The text rules' own lines quote a bounded delta, and a structural change's values that
        # are only the text it brings in (an outputSchema's descriptions) repeat it without its
        # place: the whole added text, at its pointer, stands for both.
        at = {a.pointer for a in m.added}
        changes = tuple(
            c
            for c in changes
            if c.rule not in TEXT_RULES and not (_only_new_text(c) and _all_added(c, at))
        )
    short = [compact(c) for c in changes]
    if changes and all(rule_of(c.rule).family == "tool_annotations" for c in changes):
        return ["; ".join(short), *added_lines(m)]  # a few hints: one line
    for c, text in zip(changes[:limit], short, strict=False):
        line = text
        if c.has_witness:
            what, rejected = c.witness_wording
            line += f" (witness {what}: {show_value(c.witness, 120)} -> {rejected})"
        out.append(line)
    if len(changes) > limit:
        out.append(f"… and {len(changes) - limit} more of this kind")
    out.extend(added_lines(m))
    if m.surface:  # a prompt, resource or template: its added text (above), or removed
        if not m.added:
            out += [c.summary for c in getattr(m.status, "changes", ())]
    elif not m.changes and m.status is not None:
        from mcp_review.engine.model import ToolDef

        t = m.status
        if isinstance(t.live, ToolDef) and t.live.description:
            out.append(f'description: "{safe_text(t.live.description)}"')
        elif t.live is None:
            out.append("no longer served")
    return out


def text_lines(grouping: Grouping, *, commands: bool = True, also: str = "") -> list[str]:
    """The decisions in visiting order, as text lines (``status --groups``); ``also`` ends
    each command that decides one (`` --candidate`` for a preview: the command as printed
    decides what was shown)."""
    n_tools = len(
        {m.key for g in grouping.groups for m in g.members if not m.surface}
        | {a.key for a in grouping.alone}
    )
    out = [
        f"{grouping.decisions} decision(s) for {n_tools} tool(s): "
        f"{len(grouping.groups)} kind(s) of change, {len(grouping.alone)} tool(s) alone"
        + (
            f", {len(grouping.surfaces)} prompt(s), resource(s) or template(s) alone"
            if grouping.surfaces
            else ""
        )
    ]
    for item in grouping.ordered():
        out.append("")
        if isinstance(item, Alone):
            out.extend(_alone_text(item, commands, also))
        elif isinstance(item, SurfaceAlone):
            out.extend(surface_text(item, commands, also))
        else:
            out.extend(_group_text(item, commands, also))
    return out


def surface_name(a: SurfaceAlone) -> str:
    """``server[principal] prompt "name"``, made visible."""
    p = "" if a.principal == "default" else f"[{safe_text(a.principal)}]"
    return f'{safe_text(a.server)}{p} {a.kind} "{safe_text(mark_lookalikes(a.name))}"'


_SURFACE_OPTION = {
    "prompt": "--prompt",
    "resource": "--resource",
    "resource-template": "--resource-template",
}


def surface_text(a: SurfaceAlone, commands: bool = True, also: str = "") -> list[str]:
    """A prompt, resource or template decided alone: its reasons, changes with their
    witnesses, cues, and the commands that decide it."""
    from mcp_review.engine.hidden import json_dumps_safe

    out = [
        f"[{_MARK.get(str(a.outcome), str(a.outcome).upper())}] alone  {surface_name(a)}  ("
        + ", ".join(str(r) for r in a.reasons)
        + ")"
    ]
    x = a.status
    if x is not None:
        out.extend(f"    - {safe_text(r)}" for r in x.policy.reasons)
        for ch in x.changes[:ALONE_CHANGES]:
            line = f"    {ch.klass}: {safe_text(ch.summary)}"
            if ch.witness is not None:
                line += f" (witness: {json_dumps_safe(ch.witness)})"
            out.append(line)
    for cue in list(a.cues)[:CUES_LISTED]:
        out.append(
            f"    cue {cue.kind} ({cue.rule}) at {safe_text(cue.pointer)}: {safe_text(cue.text)}"
        )
    if len(a.cues) > CUES_LISTED:
        out.append(f"    … and {len(a.cues) - CUES_LISTED} more cues")
    if commands:
        s, n, opt = _arg(a.server), _arg(a.name), _SURFACE_OPTION[a.kind]
        yes = " --yes" if str(a.outcome) == "block" else ""
        out.append(
            f"    decide: mcp-review approve {s} {opt} {n}{yes}{also}  |  "
            f"mcp-review deny {s} {opt} {n}{also}"
        )
    return out


def _alone_text(a: Alone, commands: bool, also: str = "") -> list[str]:
    out = [
        f"[{_MARK.get(str(a.outcome), str(a.outcome).upper())}] alone  "
        f"{_name(a.server, a.principal, a.tool)}  (" + ", ".join(str(r) for r in a.reasons) + ")"
    ]
    t = a.status
    if t is not None:
        out.extend(f"    - {safe_text(r)}" for r in t.policy.reasons)
        out.extend(
            f"    - annotation claims less power, contradicted: {safe_text(w)}"
            for w in new_tool_contradictions(t)
        )
        changes = t.comparison.changes if t.comparison is not None else []
        for c in changes[:ALONE_CHANGES]:
            out.append(f"    {c.cls}: {compact(c)}")
        if len(changes) > ALONE_CHANGES:
            out.append(f"    … and {len(changes) - ALONE_CHANGES} more changes (mcp-review diff)")
    for cue in list(a.cues)[:CUES_LISTED]:
        out.append(
            f"    cue {cue.kind} ({cue.rule}) at {safe_text(cue.pointer)}: {safe_text(cue.text)}"
        )
    if len(a.cues) > CUES_LISTED:
        out.append(f"    … and {len(a.cues) - CUES_LISTED} more cues")
    if commands:
        s, tl = _arg(a.server), _arg(a.tool)
        yes = " --yes" if str(a.outcome) == "block" else ""
        out.append(
            f"    decide: mcp-review approve {s} {tl}{yes}{also}  |  mcp-review deny {s} {tl}{also}"
        )
    return out


def _group_text(g: Group, commands: bool, also: str = "") -> list[str]:
    out = [
        f"[{_MARK.get(str(g.outcome), str(g.outcome).upper())}] group {g.id}  {g.label}  "
        f"({g.counted})"
    ]
    for m in g.members:
        vals = member_values(m)
        out.append(f"    {member_name(m)}" + (f": {vals[0]}" if len(vals) == 1 else ""))
        if len(vals) > 1:
            out.extend(f"        {v}" for v in vals)
    if commands:
        yes = " --yes" if str(g.outcome) == "block" else ""
        out.append(
            f"    decide: mcp-review approve --group {g.id}{yes}{also}  |  "
            f"mcp-review deny --group {g.id}{also}  (leave a member out: --except SERVER/NAME)"
        )
    return out


def _arg(s: str) -> str:
    """A name as a shell argument a reader can copy (quoted when it needs to be): its escaped
    form (``x\\u200by``) when it has one, which every command taking a tool name accepts; the
    shown form (``x⟨U+200B⟩y``) names no tool."""
    import shlex

    from mcp_review.engine.names import escape_name, needs_escape

    return shlex.quote(escape_name(s) if needs_escape(s) else safe_text(s))


def markdown_lines(grouping: Grouping) -> list[str]:
    """The decisions as a Markdown table (``check``'s job summary), in visiting order."""
    if not grouping.decisions:
        return []
    out = [
        f"**{grouping.decisions} decision(s)**: {len(grouping.groups)} kind(s) of change, "
        f"{len(grouping.alone)} tool(s) alone"
        + (
            f", {len(grouping.surfaces)} prompt(s), resource(s) or template(s) alone"
            if grouping.surfaces
            else ""
        ),
        "",
        "| decision | id | outcome | kind, or why alone | tools |",
        "|---|---|---|---|---|",
    ]
    for item in grouping.ordered():
        if isinstance(item, Alone):
            out.append(
                f"| alone | | {item.outcome} | {md_text(', '.join(str(r) for r in item.reasons))} "
                f"| {md_text(item.server)}/{md_text(item.tool)} |"
            )
        elif isinstance(item, SurfaceAlone):
            out.append(
                f"| alone | | {item.outcome} | {md_text(', '.join(str(r) for r in item.reasons))} "
                f"| {md_text(item.server)} ({item.kind} {md_text(item.name)}) |"
            )
        else:
            names = ", ".join(_md_member(m) for m in item.members)
            out.append(
                f"| group | `{item.id}` | {item.outcome} | {md_text(item.label)} | "
                f"{item.size}: {names} |"
            )
    # What each group approves, whole: the text every member adds.
    for g in grouping.groups:
        if not any(m.added for m in g.members):
            continue
        out += [
            "",
            f"<details><summary>group <code>{g.id}</code>: the text each member adds</summary>",
            "",
            "| tool | at | adds |",
            "|---|---|---|",
        ]
        for m in g.members:
            for a in m.added:
                out.append(f"| {_md_member(m)} | {md_text(a.pointer)} | {md_text(a.text)} |")
        out += ["", "</details>"]
    return out


def _md_member(m: Member) -> str:
    """``server/tool``, or ``server (prompt name)`` as a surface alone is named."""
    if m.surface:
        return f"{md_text(m.server)} ({m.subject} {md_text(m.tool)})"
    return f"{md_text(m.server)}/{md_text(m.tool)}"


def grouping_json(grouping: Grouping) -> dict[str, Any]:
    """``{"groups": [...], "alone": [...]}`` (docs/formats.md)."""
    return grouping.to_json()
