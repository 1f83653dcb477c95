"""``mcp-review status`` as text by default: one line per decision, in the engine's one order.

A decision is a group of alike changes or a tool that stands alone (engine/kinds.py), listed
in :func:`~mcp_review.engine.kinds.visit_rank`'s order, as ``status --groups`` and ``check``
list them. Each line says what is decided and why, bounded: the details (each change, each
policy reason, each cue, the replayed calls) are under ``status --verbose``, ``status
--groups`` (each member's own values) and ``mcp-review diff SERVER TOOL``. The JSON report
(``--format json``) is untouched: it keeps every field.

Every server-supplied string goes through ``hidden.safe_text`` and is clipped whole-token
(never inside a ``⟨U+200B⟩`` marker), so ANSI escapes, invisible characters and line breaks
are shown as tokens, never interpreted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcp_review.engine.cues import most_severe, severity
from mcp_review.engine.hidden import mark_lookalikes, safe_text
from mcp_review.engine.kinds import Alone, Group, Grouping, SurfaceAlone
from mcp_review.engine.names import with_escape
from mcp_review.engine.policy import Outcome
from mcp_review.engine.status import State, StatusReport, ToolStatus

LINE_TEXT = 100
"""Characters of server text (a cue's text, a policy reason) on a decision's line."""
NAMES_LISTED = 3
"""Member names on a group's line (``status --groups`` lists every member)."""

_MARK = {
    Outcome.BLOCK: "BLOCK",
    Outcome.REVIEW: "REVIEW",
    Outcome.AUTO_APPROVE: "AUTO",
    Outcome.WAIVED: "WAIVED",
    Outcome.NONE: "ok",
}


def clip(text: str, limit: int = LINE_TEXT) -> str:
    """``text`` (already safe) cut to ``limit`` characters with ``…``, never inside a
    ``⟨…⟩`` token (a cut token would read as another character, or as none)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    opened = cut.rfind("⟨")
    if opened > cut.rfind("⟩"):
        cut = cut[:opened]
    return cut + "…"


def name(server: str, principal: str, tool: str) -> str:
    """``server/tool`` (``server[principal]/tool`` off the default principal), shown safely,
    with the tool's escaped form when it has one (what ``approve`` accepts)."""
    p = "" if principal == "default" else f"[{safe_text(principal)}]"
    return with_escape(f"{safe_text(server)}{p}/{safe_text(mark_lookalikes(tool))}", tool)


def _state(t: Any) -> str:
    """A tool's (or a prompt's, resource's, template's) state, and whether it was denied."""
    if t is None:
        return ""
    s = str(t.state)
    return s + " (previously denied)" if t.previously_denied else s


def _why(a: Alone | SurfaceAlone) -> str:
    """What a tool alone is about, in one bounded phrase: its most severe cue, else its first
    policy reason (``+N more`` when there are others)."""
    t = a.status
    # The most severe cue with words to read: hidden characters' own text is their tokens,
    # which the reason "hidden characters" already names.
    cue = most_severe(c for c in a.cues if str(c.kind) != "hidden") or most_severe(a.cues)
    if cue is not None:
        # The kinds, most severe first (cue kinds are the engine's words, no server text).
        kinds = list(dict.fromkeys(str(c.kind) for c in sorted(a.cues, key=severity)))
        label = "cue" if len(kinds) == 1 else "cues"
        return f'{label} {", ".join(kinds)}: "{clip(safe_text(cue.text))}"'
    reasons = list(t.policy.reasons) if t is not None else []
    if not reasons:
        return ""
    more = f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else ""
    return clip(safe_text(reasons[0])) + more


def alone_line(a: Alone) -> str:
    """``[BLOCK] server/tool  changed, alone (blocking cue): cue concealment: "…"``."""
    mark = _MARK.get(a.outcome, str(a.outcome).upper())
    why = _why(a)
    t = a.status
    held = "; held by the proxy" if t is not None and t.held_by_proxy is not None else ""
    return (
        f"[{mark}] {name(*a.key)}  {_state(t)}, alone ("
        + ", ".join(str(r) for r in a.reasons)
        + ")"
        + (f": {why}" if why else "")
        + held
    )


def surface_line(a: SurfaceAlone) -> str:
    """``[BLOCK] server prompt "name"  changed, alone (blocking cue, …): cues …: "…"``: a
    prompt, resource or template waiting for a decision, at its place in the one order."""
    from mcp_review.formats.kinds import surface_name

    mark = _MARK.get(a.outcome, str(a.outcome).upper())
    why = _why(a)
    return (
        f"[{mark}] {surface_name(a)}  {_state(a.status)}, alone ("
        + ", ".join(str(r) for r in a.reasons)
        + ")"
        + (f": {why}" if why else "")
    )


def group_line(g: Group) -> str:
    """``[REVIEW] group 9c34fc1b3a8b  annotations claim less power  24 tools: a, b, c and 21
    more``."""
    mark = _MARK.get(g.outcome, str(g.outcome).upper())
    from mcp_review.formats.kinds import member_name

    names = ", ".join(member_name(m) for m in g.members[:NAMES_LISTED])
    more = f" and {g.size - NAMES_LISTED} more" if g.size > NAMES_LISTED else ""
    held = sum(1 for m in g.members if getattr(m.status, "held_by_proxy", None) is not None)
    return f"[{mark}] group {g.id}  {g.label}  {g.counted}: {names}{more}" + (
        f"; {held} held by the proxy" if held else ""
    )


def _server_head(s: object, quiet: int) -> str:
    head = f"server {safe_text(getattr(s, 'name', ''))}"
    principal = getattr(s, "principal", "default")
    if principal != "default":
        head += f" (principal {safe_text(principal)})"
    head += f"  tier={safe_text(getattr(s, 'tier', ''))}"
    version = getattr(s, "server_version", None)
    if version:
        head += f"  version={safe_text(version)}"
    if quiet:
        head += f"  {quiet} tool(s) pinned and unchanged"
    return head


def _undecided_lines(
    tools: Sequence[ToolStatus], grouping: Grouping, applied: Sequence[ToolStatus]
) -> list[str]:
    """Tools listed that need no decision (the policy approves them, every failing change is
    waived, denied, gone while denied), one line per outcome and state with their names."""
    decided = {a.key for a in grouping.alone} | {m.key for g in grouping.groups for m in g.members}
    applied_keys = {t.key for t in applied}
    by: dict[tuple[str, str], list[ToolStatus]] = {}
    for t in tools:
        if t.state is State.PINNED or t.key in decided:
            continue
        mark = "RE-PINNED" if t.key in applied_keys else _MARK[t.policy.outcome]
        by.setdefault((mark, _state(t)), []).append(t)
    out = []
    for (mark, state), ts in by.items():
        names = ", ".join(name(*t.key) for t in ts[:NAMES_LISTED])
        more = f" and {len(ts) - NAMES_LISTED} more" if len(ts) > NAMES_LISTED else ""
        out.append(f"[{mark}] {len(ts)} {state}: {names}{more}")
    return out


def brief_text(
    report: StatusReport, grouping: Grouping, *, applied: Sequence[ToolStatus] = ()
) -> str:
    """The default text of ``status``: the servers (one line each, with their notes), what
    is decided on its own (server instructions, prompts, resources), one line per decision in
    visiting order, the tools needing no decision, then the summary and the verdict."""
    from mcp_review.formats import instructions as instr_fmt
    from mcp_review.formats import surfaces as surf_fmt
    from mcp_review.formats.kinds import text_lines
    from mcp_review.formats.status import (
        call_log_notes,
        candidate_line,
        summary_lines,
        unreachable_words,
    )

    out: list[str] = []
    head_line = candidate_line(report)
    if head_line:
        out.append(head_line)
    pinned: dict[tuple[str, str], int] = {}
    for t in report.tools:
        if t.state is State.PINNED:
            pinned[(t.server, t.principal)] = pinned.get((t.server, t.principal), 0) + 1
    own: list[str] = []  # decided on their own: server instructions, prompts, resources
    for s in report.servers:
        out.append(_server_head(s, pinned.get((s.name, s.principal), 0)))
        if s.error:
            out.append(f"  {unreachable_words(s.error)}")
            continue
        out.extend(f"  note: {safe_text(n)}" for n in s.notes)
        out.extend(f"  note: {n}" for n in call_log_notes(s))
        i = s.instructions
        if i is not None and i.state != "pinned":
            own.append(
                f"[{_MARK[i.policy.outcome]}] {instr_fmt.label(i)}: {instr_fmt.who(i)}  "
                "(decided on their own: mcp-review approve SERVER --instructions)"
            )
        for x in s.surfaces:
            # One waiting for a decision is a line of the one order below (engine/kinds.py).
            if x.state != "pinned" and not x.needs_attention:
                own.append(
                    f"[{_MARK[x.policy.outcome]}] {x.state}: {surf_fmt.who(x)}  (decided on its "
                    f"own: mcp-review approve SERVER {surf_fmt.OPTION[x.kind]} NAME)"
                )
    out.extend(["", *own] if own else [])
    if grouping.decisions:
        out.append("")
        out.append(text_lines(grouping)[0])
        for item in grouping.ordered():
            if isinstance(item, Group):
                out.append(group_line(item))
            elif isinstance(item, SurfaceAlone):
                out.append(surface_line(item))
            else:
                out.append(alone_line(item))
    rest = _undecided_lines(report.tools, grouping, applied)
    if rest:
        out.append("")
        out.extend(rest)
    if own or grouping.decisions or rest:
        out.append("")
        out.append(
            "details: mcp-review status --verbose (every change, reason and cue), "
            "status --groups (each member's own values), mcp-review diff SERVER TOOL"
        )
    if grouping.decisions:
        how = [
            *(["mcp-review approve --group ID"] if grouping.groups else []),
            *(["mcp-review approve SERVER TOOL"] if grouping.alone else []),
            *(["mcp-review approve SERVER --prompt NAME (…)"] if grouping.surfaces else []),
        ]
        also = " --candidate" if report.candidates else ""  # as printed, it decides the preview
        out.append(
            f"decide: {' or '.join(h + also for h in how)} (deny alike; a [BLOCK] needs --yes)"
        )
    out.append("")
    out.extend(summary_lines(report, applied))
    return "\n".join(out) + "\n"
