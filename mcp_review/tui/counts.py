"""The main screen's figures, worked out apart from the screen: the counts line (what needs a
human, what waits for ``P``, what failed) and the order ``n`` visits rows in.

Pure functions of the computed status (``tui.view``) and the engine's grouping, so the screen
only draws what they return and caches it per computation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.content import Content

from mcp_review.engine.policy import Outcome
from mcp_review.engine.status import Awaiting, State
from mcp_review.tui.view import STATUS_ORDER, ServerEntry, ToolEntry
from mcp_review.tui.widgets.tool_table import _key_of, surface_key_of

if TYPE_CHECKING:
    from mcp_review.engine.kinds import Grouping

__all__ = ["Counts", "count", "counts_line", "member_key_of", "visit_order"]

_STYLES = {
    State.BROKEN: "$text-error",
    State.CHANGED: "$text-warning",
    State.NEW: "$text-accent",
    State.REMOVED: "$text-secondary",
    State.DENIED: "$text-muted",
    State.PINNED: "$text-success",
}


def member_key_of(m: Any) -> str:
    """The list's row key of a group member: a tool's, or a prompt's, resource's or
    template's (engine.kinds.Member.surface)."""
    return surface_key_of(m.key) if m.surface else _key_of(m.key)


@dataclass(frozen=True)
class Counts:
    """One computation's figures: tools by status, and the decisions that wait."""

    by_status: dict[State, int]
    review: int
    """What ``check`` fails on (review, block): tools, prompts/resources/templates and server
    instructions waiting for a decision."""
    auto: int
    """Changes the policy would approve: they wait for ``P`` or a decision."""
    waived: int
    failed: int
    """Servers that could not be read."""
    blocked: int


def count(servers: Iterable[ServerEntry]) -> Counts:
    """The counts of one computation (the engine's answer: a waived change passes the gate,
    an auto-approvable one waits apart from review)."""
    by_status = {k: 0 for k in STATUS_ORDER}
    review = auto = waived = blocked = failed = 0
    for s in servers:
        failed += s.state == "failed"
        for t in s.tools:
            by_status[t.status] += 1
            blocked += t.blocked and t.awaiting is Awaiting.REVIEW
            waiting = t.awaiting
            if waiting is Awaiting.AUTO:
                auto += 1
            elif waiting is Awaiting.WAIVED:
                waived += 1
            elif waiting is Awaiting.REVIEW:
                review += 1
        for x in s.surfaces:  # prompts, resources, templates waiting for a decision
            review += x.needs_review
            blocked += x.needs_review and x.blocked
        if s.instructions is not None:  # server instructions waiting for a decision
            review += s.instructions.needs_attention
            blocked += (
                s.instructions.needs_attention and s.instructions.policy.outcome is Outcome.BLOCK
            )
    return Counts(by_status, review, auto, waived, failed, blocked)


def counts_line(
    c: Counts,
    *,
    loaded: bool,
    fetch_failed: bool,
    servers: int,
    computing: bool,
    width: int,
    filter_text: str,
) -> Content:
    """The counts line, broken between phrases (never inside one, so "1 server failed" stays
    whole at 80 columns) to fit ``width`` columns."""
    phrases: list[tuple[str, str]] = []
    if not loaded:
        # Before the first status nothing is known: no "0 to review" that reads as clear.
        if fetch_failed:
            phrases.append(("fetch failed: r fetches again", "bold $text-error"))
        else:
            plural = "s" if servers != 1 else ""
            phrases.append((f"reading {servers} server{plural}…", "italic $text-muted"))
    else:
        for k in STATUS_ORDER:
            if c.by_status[k] or k in (State.BROKEN, State.CHANGED):
                phrases.append((f"{c.by_status[k]} {k}", _STYLES[k]))
        if c.blocked:  # What needs a human, first
            phrases.append((f"│ {c.blocked} blocked", "bold $text-error"))
        phrases.append((f"│ {c.review} to review", "bold"))
    if c.failed:
        plural = "s" if c.failed > 1 else ""
        phrases.append((f"│ {c.failed} server{plural} failed", "bold $text-error"))
    if c.auto:
        phrases.append((f"│ {c.auto} auto-approvable (P)", "$text-muted"))
    if c.waived:
        phrases.append((f"│ {c.waived} waived", "$text-muted"))
    if computing:
        phrases.append(("│ updating…", "italic $text-muted"))
    parts: list[Content | tuple[str, str] | str] = []
    used = 0
    for text, style in phrases:
        if used and used + 2 + len(text) > width:
            parts.append("\n")
            used = 0
        elif used:
            parts.append("  ")
            used += 2
        parts.append((text, style))
        used += len(text)
    if filter_text:
        parts.append(Content("  filter: ").stylize("$text-muted"))
        parts.append(Content(filter_text))  # the operator's own text, never markup
    return Content.assemble(*parts)


def visit_order(
    servers: Sequence[ServerEntry],
    row_keys: Sequence[str],
    by_key: Mapping[str, ToolEntry],
    grouping: Grouping,
) -> list[tuple[str, str]]:
    """The rows ``n`` visits, in order, each with what to say on landing (a group's kind and
    size), only rows shown (``row_keys``).

    The engine's one order: blocked (the most severe cue first), then attention, then the
    groups by size, then the rest alone; the server instructions waiting for a decision before
    the first group that waits for review; last, in the list's order, the tools that still wait
    without needing a human's decision now (auto-approvable: ``P``; waived)."""
    from mcp_review.engine.kinds import Alone, SurfaceAlone

    shown = set(row_keys)
    out: dict[str, str] = {}
    waiting = [
        "server\x00" + s.name
        for s in servers
        if s.instructions is not None and s.instructions.needs_attention
    ]
    placed_instructions = False
    for x in grouping.ordered():
        if isinstance(x, Alone):
            out.setdefault(_key_of(x.key), "")
            continue
        if isinstance(x, SurfaceAlone):
            out.setdefault(surface_key_of(x.key), "")
            continue
        if not placed_instructions and x.outcome is not Outcome.BLOCK:
            for w in waiting:
                out.setdefault(w, "")
            placed_instructions = True
        # A group is visited at its first member not visited as something else.
        for m in x.members:
            k = member_key_of(m)
            if k in shown and k not in out:
                out[k] = f"group: {x.label} ({x.counted}; g opens it)"
                break
    if not placed_instructions:
        for w in waiting:
            out.setdefault(w, "")
    for k in row_keys:
        e = by_key.get(k)
        if e is not None and e.awaiting in (Awaiting.AUTO, Awaiting.WAIVED) and k not in out:
            out[k] = ""
    return [(k, said) for k, said in out.items() if k in shown]
