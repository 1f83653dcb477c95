"""The main screen's servers-and-tools list: the :class:`ToolTable` widget, its colours and
columns, and the building of its server and tool rows (the screen, screens/main.py, fills it
and keeps its actions and bindings)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding

from mcp_review.engine.policy import Outcome
from mcp_review.engine.snapshot import version_label
from mcp_review.engine.status import State
from mcp_review.tui.render import name_text, safe_text, word_cut_cell
from mcp_review.tui.view import (
    STATUS_ORDER,
    SURFACE_WORD,
    ServerEntry,
    SurfaceEntry,
    ToolEntry,
    decision_word,
    flag_words,
    surface_flag_words,
)
from mcp_review.tui.widgets.marked_list import MarkedTable

STATUS_STYLE = {
    State.BROKEN: "tool-table--broken",
    State.CHANGED: "tool-table--changed",
    State.NEW: "tool-table--new",
    State.REMOVED: "tool-table--removed",
    State.DENIED: "tool-table--denied",
    State.PINNED: "tool-table--pinned",
}
"""The component class (of :class:`ToolTable`) each status is drawn in."""
STATE_TEXT = {"waiting": "waiting", "connecting": "connecting…", "ok": "", "failed": "FAILED"}
DECISION_STYLE = {
    "block": "tool-table--failed",
    "held": "tool-table--review",
    "review": "tool-table--review",
    "auto": "tool-table--muted",
    "waived": "tool-table--muted",
}
"""The component class each word of the decision column is drawn in."""
CHANGES = 4
"""The index of the last column ("changes"), the one the row detail repeats in full."""
DECISION_W = 8  # the header "decision"; its words are 4 to 6 cells
FLAGS_MIN, FLAGS_MAX, CHANGES_MIN = 13, 60, 16
"""The flags column is as wide as its widest row needs, up to what leaves the changes column
``CHANGES_MIN`` cells ("concealment le" was cut at 15 cells on 200 columns)."""


def _look(cell: Text) -> tuple[str, str, list[Any]]:
    """What a cell shows (text, style, spans): two rows that look the same need no redraw."""
    return cell.plain, str(cell.style), cell.spans


def _key(e: ToolEntry) -> str:
    return _key_of(e.key)


_NO_RANK = (1 << 30, 0)


def _key_of(key: tuple[str, str, str]) -> str:
    """The list's row key of the tool ``key`` (server, principal, tool)."""
    return "tool\x00" + "\x00".join(key)


def surface_key_of(key: tuple[str, str, str, str]) -> str:
    """The list's row key of the prompt, resource or template ``key`` (server, principal,
    kind, name): apart from every tool's."""
    return "surface\x00" + "\x00".join(key)


SURFACE_STATUS_STYLE = {
    "new": "tool-table--new",
    "changed": "tool-table--changed",
    "removed": "tool-table--removed",
    "denied": "tool-table--denied",
    "pinned": "tool-table--pinned",
}


def surface_decision_word(e: SurfaceEntry) -> str:
    """The decision column of a surface row: ``block`` or ``review`` (never auto-approved)."""
    if not e.needs_review:
        return ""
    return "block" if e.blocked else "review"


def surface_row(table: ToolTable, e: SurfaceEntry) -> list[Text]:
    """A prompt, resource or template's row: its kind and name, status, decision, the kinds
    of its cues, and what changed (every server string made visible, never markup)."""
    cs = table.component_style
    muted = cs("tool-table--muted")
    name = Text("│ ", style=muted, no_wrap=True, overflow="ellipsis")
    name.append(SURFACE_WORD[e.kind] + " ", style=muted)
    name.append_text(name_text(e.name, limit=80, marks=table.marks))
    decision = surface_decision_word(e)
    return [
        name,
        Text(e.state, style=cs(SURFACE_STATUS_STYLE.get(e.state, "tool-table--muted"))),
        Text(decision, style=cs(DECISION_STYLE[decision]) if decision else ""),
        Text(" ".join(surface_flag_words(e)), style=cs("tool-table--flags")),
        word_cut_cell(safe_text(e.summary, style=muted, limit=120, marks=table.marks)),
    ]


def surface_filter_words(e: SurfaceEntry) -> dict[str, list[str]]:
    """As :func:`filter_words` for a surface row (its kind is a word of its status)."""
    flags = [w for word in surface_flag_words(e) for w in word.split()]
    if e.blocked and e.needs_review:
        flags.append(BLOCKED_WORD)
    decision = surface_decision_word(e)
    return {
        "status": [e.state, SURFACE_WORD[e.kind]],
        "flag": flags,
        "decision": [decision] if decision else [],
    }


class ToolTable(MarkedTable):
    """The servers-and-tools list: a :class:`~mcp_review.tui.rowlist.RowList` (one-line
    rows in fixed-width columns, drawn line by line: a filter keystroke on 10,000 rows costs an
    index over the keys it shows, and only the rows on screen are built); Home and End go to
    the first and last row.

    Its colours are component classes (``tool-table--…``; the defaults are the terminal's
    ANSI colours), so an app stylesheet or a theme restyles the list."""

    BINDINGS = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *STATUS_STYLE.values(),
        "tool-table--server",
        "tool-table--pending",
        "tool-table--failed",
        "tool-table--failure",
        "tool-table--muted",
        "tool-table--flags",
        "tool-table--blocked",
        "tool-table--review",
    }
    """Besides each status: ``--server`` a server's name; ``--pending`` waiting / connecting;
    ``--failed`` and ``--failure`` a failed server's word and cause; ``--muted`` the tree rule,
    counts, policy and summaries; ``--flags`` trust flags; ``--blocked`` a tool blocked by
    policy; ``--review`` server instructions waiting for a decision (``--failed`` when the
    policy blocks them)."""

    DEFAULT_CSS = """
    ToolTable > .tool-table--broken { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--changed { color: ansi_yellow; text-style: bold; }
    ToolTable > .tool-table--new { color: ansi_cyan; text-style: bold; }
    ToolTable > .tool-table--removed { color: ansi_magenta; }
    ToolTable > .tool-table--denied { color: ansi_red; text-style: dim; }
    ToolTable > .tool-table--pinned { color: ansi_green; }
    ToolTable > .tool-table--server { text-style: bold; }
    ToolTable > .tool-table--pending { text-style: italic; }
    ToolTable > .tool-table--failed { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--failure { color: ansi_red; }
    ToolTable > .tool-table--muted { text-style: dim; }
    ToolTable > .tool-table--flags { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--blocked { color: ansi_red; }
    ToolTable > .tool-table--review { color: ansi_yellow; text-style: bold; }
    """


HELD_WORDS = "held by the proxy"
"""Beside the status of a changed tool an enforcing proxy serves as approved meanwhile."""

HOSTS_WIDTH = 14
"""The hosts column: the target hosts that refuse a tool, cut with an ellipsis."""

BLOCKED_WORD = "blocked"
"""The flags cell of a blocked tool waiting for a decision with no flag of its own."""


def filter_words(t: ToolEntry) -> dict[str, list[str]]:
    """The words the filter compares for a tool row, by filter kind: exactly what its status,
    decision and flags cells show (every word the list shows is one the
    filter accepts), plus ``blocked`` for every blocked tool awaiting a decision."""
    flags = [w for word in flag_words(t) for w in word.split()]
    if t.blocked and t.needs_review:
        flags.append(BLOCKED_WORD)
    status = [t.status.value, *(HELD_WORDS.split() if t.held_by_proxy else ())]
    decision = decision_word(t)
    return {"status": status, "flag": flags, "decision": [decision] if decision else []}


def server_row(table: ToolTable, s: ServerEntry, state: str, detail: str) -> list[Text]:
    """A server's row: its name, then its connection state and cause, or its tools' counts,
    policy, version and server instructions."""
    cs, marks = table.component_style, table.marks
    bold = cs("tool-table--server")
    name = Text("▪ ", style=bold, no_wrap=True, overflow="ellipsis")
    name.append_text(safe_text(s.name, style=bold, limit=80, marks=marks))
    if state == "failed":
        cause = detail or s.error or "unreachable"
        return [
            name,
            Text("failed", style=cs("tool-table--failed")),
            Text(""),
            Text(""),
            word_cut_cell(
                safe_text(cause, style=cs("tool-table--failure"), limit=300, marks=marks)
            ),
        ]
    if state in ("waiting", "connecting"):
        return [
            name,
            Text(STATE_TEXT[state], style=cs("tool-table--pending")),
            Text(""),
            Text(""),
            word_cut_cell(safe_text(detail, marks=marks)),
        ]
    counts: dict[State, int] = {}
    for t in s.tools:
        counts[t.status] = counts.get(t.status, 0) + 1
    summary = ", ".join(f"{counts[k]} {k}" for k in STATUS_ORDER if counts.get(k))
    ver = f"{version_label(s.server_version)} · " if s.server_version else ""
    muted = cs("tool-table--muted")
    last = safe_text(f"{ver}{summary}", style=muted, marks=marks)
    i = s.instructions
    if i is not None:
        # Server instructions reach the model like a description: their state on the row;
        # a / d on this row decide them (after a dialog showing the diff).
        attention = i.needs_attention
        style = (
            cs("tool-table--failed")
            if i.policy.outcome is Outcome.BLOCK
            else cs("tool-table--review")
            if attention
            else muted
        )
        last.append(" · " if len(last) else "", style=muted)
        last.append(
            f"instructions {i.state}"
            + (f" ({i.policy.outcome}: a/d on this row)" if attention else ""),
            style=style,
        )
    # The tools the server serves now: a removed tool is listed (it needs review) but is
    # not served, so it is not counted here.
    served = sum(1 for t in s.tools if t.status is not State.REMOVED)
    if s.surfaces_pinned:
        last.append(" · " if len(last) else "", style=muted)
        n = s.surfaces_pinned
        words = "prompt or resource" if n == 1 else "prompts or resources"
        last.append(f"{n} {words} pinned", style=muted)
    return [
        name,
        Text(f"{served} tool{'s' if served != 1 else ''}", style=muted),
        Text(""),
        Text(f"policy {s.policy}", style=muted),
        word_cut_cell(last),
    ]


def tool_row(table: ToolTable, t: ToolEntry, hosts_column: bool) -> list[Text]:
    """A tool's row: name, status, decision, flags, summary (and the hosts that refuse it)."""
    cs = table.component_style
    flags = Text(" ".join(flag_words(t)), style=cs("tool-table--flags"))
    # The decision column says "block" for every blocked tool, whatever
    # its flags name.
    decision = decision_word(t)
    muted = cs("tool-table--muted")
    name = Text("│ ", style=muted, no_wrap=True, overflow="ellipsis")
    name.append_text(name_text(t.name, limit=80, marks=table.marks))
    extra = []
    if hosts_column:
        # The target hosts that refuse it: error-styled when this change did it.
        style = cs("tool-table--failed") if t.host_regression else muted
        extra.append(Text(", ".join(t.hosts), style=style, no_wrap=True, overflow="ellipsis"))
    return [
        name,
        Text(
            t.status.value + (f" · {HELD_WORDS}" if t.held_by_proxy else ""),
            style=cs(STATUS_STYLE[t.status]),
        ),
        Text(decision, style=cs(DECISION_STYLE[decision]) if decision else ""),
        flags,
        word_cut_cell(safe_text(t.summary or t.note, style=muted, limit=120, marks=table.marks)),
        *extra,
    ]
