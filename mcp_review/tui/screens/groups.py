"""Review by kind: the groups view of the whole drift and one group's screen.

The groups view lists, in visiting order, the tools that stand alone (decided one by one, on
their review screen) and the groups (every pending change of one kind, across tools and
servers). A group's screen shows its kind in one line and each member's own values side by
side (old → new, the hints of an annotation claim, the witness where a member has one);
space leaves a member out (or takes it back) before the group is approved or denied, with
one confirmation (and one typed reason when the group is blocked). The app decides
(``services.decisions.decide_group``: one audit record per member, with the group's id).

Every server-written string (names, descriptions, the values quoted in a change) is shown as
data: Rich Text cells made by ``tui.render`` (no markup parsed, hidden characters as tokens,
look-alike letters marked).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Static

from mcp_review.engine.kinds import Alone, Group, Grouping, Member, SurfaceAlone
from mcp_review.engine.pins import Decision
from mcp_review.engine.policy import Outcome
from mcp_review.formats.kinds import change_values
from mcp_review.tui.messages import (
    DecisionRequested,
    GroupDecisionRequested,
    GroupItemRequested,
    SurfaceDecisionRequested,
    ask_app,
)
from mcp_review.tui.render import name_content, name_line, name_text, safe_content, safe_text
from mcp_review.tui.view import SURFACE_WORD, cue_kinds
from mcp_review.tui.widgets.footer import KeyFooter
from mcp_review.tui.widgets.marked_list import MarkedTable

MUTED = "group-table--muted"
_OUTCOME_STYLE = {
    Outcome.BLOCK: "group-table--blocked",
    Outcome.REVIEW: "group-table--review",
}


class GroupTable(MarkedTable):
    """A list of groups or members (the list's fast rows, :mod:`mcp_review.tui.rowlist`); its
    colours are component classes (themable)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *MarkedTable.COMPONENT_CLASSES,
        "group-table--blocked",
        "group-table--review",
        "group-table--muted",
        "group-table--left-out",
    }
    DEFAULT_CSS = """
    GroupTable > .group-table--blocked { color: ansi_red; text-style: bold; }
    GroupTable > .group-table--review { color: ansi_yellow; }
    GroupTable > .group-table--muted { text-style: dim; }
    GroupTable > .group-table--left-out { text-style: dim strike; }
    """


# What a member shows ----------------------------------------------------------------------------


def member_values(m: Member) -> str:
    """A member's own values for its group's kind, its changes one after another, and the
    text they add in full (the detail box shows it all)."""
    if m.added:
        from mcp_review.engine.kinds import TEXT_RULES

        rest = [change_values(c) for c in m.changes if c.rule not in TEXT_RULES]
        added = [f"{a.pointer}: adds {json.dumps(a.text, ensure_ascii=False)}" for a in m.added]
        return "; ".join([*rest, *added])
    if m.surface:  # a prompt, resource or template: its text changes, no text added
        return "; ".join(c.summary for c in getattr(m.status, "changes", ())) or "text removed"
    if not m.changes:
        t = m.status
        live = getattr(t, "live", None)
        if live is not None:  # a new tool: what it says it does
            return "description: " + json.dumps(live.description or "", ensure_ascii=False)
        return "no longer served"
    return "; ".join(change_values(c) for c in m.changes)


def member_witness(m: Member) -> str:
    """The witness of the member's changes (a call the old schema accepts and the new one
    rejects, or a result the old output schema rejects), empty when none has one."""
    out = []
    for c in m.changes:
        if c.has_witness:
            what, _ = c.witness_wording
            out.append(f"{what}: " + json.dumps(c.witness, ensure_ascii=False, sort_keys=True))
    return "; ".join(out)


def _row_key(m: Member) -> str:
    return "\x00".join(m.key)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _size_label(item: Group | Alone | SurfaceAlone) -> str:
    """The groups view's "tools" cell: how many tools (prompts, resources …) one decision takes."""
    if isinstance(item, Group):
        return _plural(item.size, SURFACE_WORD.get(item.subject, "tool"))
    if isinstance(item, SurfaceAlone):
        return f"1 {SURFACE_WORD[item.kind]}"
    return "1 tool"


def alone_why(a: Alone | SurfaceAlone) -> str:
    """Why a tool (or a prompt, resource, template) stands alone, with its cue kinds."""
    why = ", ".join(str(r) for r in a.reasons)
    if a.cues:
        why += f" · cues: {cue_kinds(a.cues)}"
    return why


# The group screen ---------------------------------------------------------------------------------


class GroupScreen(Screen[None]):
    """One group: its kind in one line, its members side by side; space leaves a member out,
    ``a`` / ``d`` approve / deny the rest (the app asks once)."""

    OPENS_A_SCREEN: ClassVar[frozenset[str]] = frozenset({"approve", "deny", "back"})
    """Run as their key arrives (``ReviewApp._key_now``)."""
    BINDINGS = [
        Binding("space", "leave_out", "Leave out / take back", key_display="space"),
        Binding("a", "approve", "Approve group"),
        Binding("d", "deny", "Deny group"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False),
    ]
    CSS_PATH = "groups.tcss"

    def __init__(self, group: Group) -> None:
        super().__init__()
        self.group = group
        self.left_out: set[tuple[str, ...]] = set()
        """Keys of the members removed with space: nothing is decided for them."""
        self._witness = any(member_witness(m) for m in group.members)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="group-kind")
        yield Static(id="group-info")
        yield GroupTable(id="members")
        yield Static(id="member-detail")
        yield KeyFooter()

    def on_mount(self) -> None:
        g = self.group
        self.title = "mcp-review"
        self.sub_title = f"group {g.id} · {_plural(g.size, 'tool')}"
        style = "bold $text-error" if g.outcome is Outcome.BLOCK else "bold $text-warning"
        self.query_one("#group-kind", Static).update(
            Content.assemble(
                ("kind: ", "bold"),
                safe_content(g.label, style="bold", one_line=True, limit=200),
                ("  ·  ", "$text-muted"),
                (str(g.outcome), style),
            )
        )
        table = self.query_one("#members", GroupTable)
        table.add_column("", key="in", width=1)
        table.add_column("tool", key="tool", width=32)
        table.add_column("old → new", key="values", width=60)
        if self._witness:
            table.add_column("witness", key="witness", width=40)
        by_key = {_row_key(m): m for m in g.members}
        table.show_rows(list(by_key), lambda key: self._cells(by_key[key]))
        self._update_info()
        self._show_detail()
        table.focus()

    def on_resize(self) -> None:
        table = self.query_one("#members", GroupTable)
        width = self.size.width
        tool_w = max(16, min(40, int(width * 0.28)))
        cols = 4 if self._witness else 3
        rest = max(width - 1 - tool_w - 2 * cols - 2, 20)
        table.set_width("tool", tool_w)
        if self._witness:
            table.set_width("values", max(rest * 3 // 5, 10))
            table.set_width("witness", max(rest - rest * 3 // 5, 10))
        else:
            table.set_width("values", rest)

    def _cells(self, m: Member) -> list[Text]:
        table = self.query_one("#members", GroupTable)
        cs, marks = table.component_style, table.marks
        out = m.key in self.left_out
        muted = cs("group-table--left-out") if out else cs("group-table--muted")
        mark = Text(
            "–" if out else "✓", style=muted if out else cs(_OUTCOME_STYLE.get(m.outcome, MUTED))
        )
        name = safe_text(m.server, style=muted, limit=40, marks=marks)
        name.append(" › ", style=muted)
        name.append_text(name_text(m.tool, limit=80, marks=marks))
        if out:
            name.stylize(muted)
        values = safe_text(member_values(m), limit=300, marks=marks)
        if out:
            values.stylize(muted)
        cells = [mark, name, values]
        if self._witness:
            cells.append(safe_text(member_witness(m), style=muted, limit=300, marks=marks))
        return cells

    def _update_info(self) -> None:
        g = self.group
        kept = g.size - len(self.left_out)
        blocked = sum(
            1 for m in g.members if m.key not in self.left_out and m.outcome is Outcome.BLOCK
        )
        parts: list[Content | tuple[str, str] | str] = [
            f"{_plural(kept, 'tool')} decided together",
        ]
        if self.left_out:
            parts.append(f" · {len(self.left_out)} left out (space takes back)")
        if blocked:
            parts.append((f" · {blocked} blocked: approving asks why, once", "$text-error"))
        parts.append(" · space leaves out · a approves · d denies")
        self.query_one("#group-info", Static).update(Content.assemble(*parts))

    def _current(self) -> Member | None:
        table = self.query_one("#members", GroupTable)
        if not table.row_count or table.cursor_row >= self.group.size:
            return None
        return self.group.members[table.cursor_row]

    @on(GroupTable.RowHighlighted, "#members")
    def _on_highlight(self, event: GroupTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        """The highlighted member's values in full (the column cuts them)."""
        m = self._current()
        box = self.query_one("#member-detail", Static)
        if m is None:
            box.update("")
            return
        parts: list[Content | str | tuple[str, str]] = [
            safe_content(m.server, style="bold", one_line=True, limit=60),
            (" › ", "bold"),
            name_content(m.tool, limit=120),
            ": ",
            safe_content(member_values(m)),  # whole: what approving the group approves
        ]
        witness = member_witness(m)
        if witness:
            parts += [("\nwitness ", "bold"), safe_content(witness, limit=600)]
        reasons = getattr(getattr(m.status, "policy", None), "reasons", ())
        if m.outcome is Outcome.BLOCK and reasons:
            parts += [("\nblocked: ", "bold $text-error"), safe_content("; ".join(reasons))]
        box.update(Content.assemble(*parts))

    def action_leave_out(self) -> None:
        m = self._current()
        if m is None:
            return
        if m.key in self.left_out:
            self.left_out.discard(m.key)
        else:
            self.left_out.add(m.key)
        table = self.query_one("#members", GroupTable)
        row = table.cursor_row
        table.forget_rows([_row_key(m)])  # drawn again from the new state
        table.refresh()
        if row + 1 < table.row_count:
            table.move_cursor(row=row + 1, animate=False)
        self._update_info()

    def action_approve(self) -> None:
        self._decide(Decision.APPROVED)

    def action_deny(self) -> None:
        self._decide(Decision.DENIED)

    def _decide(self, decision: Decision) -> None:
        if len(self.left_out) == self.group.size:
            self.notify("every member is left out: nothing to decide", markup=False, timeout=3)
            return
        ask_app(self, GroupDecisionRequested(self.group, decision, frozenset(self.left_out)))

    def action_back(self) -> None:
        self.dismiss(None)


# The groups view ---------------------------------------------------------------------------------


class GroupsScreen(Screen[None]):
    """The decisions the drift needs, in visiting order: tools alone (blocked first, blocking
    cues first; then those with cues), then the groups by size. Enter opens a group's screen,
    or a tool's review screen."""

    OPENS_A_SCREEN: ClassVar[frozenset[str]] = frozenset({"open", "back", "approve", "deny"})
    BINDINGS = [
        Binding("enter", "open", "Open"),
        # Decide the selected group or tool from here, with the confirmation
        # its own screen asks (one for a group, a typed reason when it is blocked).
        Binding("a", "approve", "Approve", tooltip="Approve the selected group or tool (asks)"),
        Binding("d", "deny", "Deny", tooltip="Deny the selected group or tool (asks first)"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False),
    ]
    CSS_PATH = "groups.tcss"

    def __init__(self, grouping: Grouping, *, only: Iterable[Group] | None = None) -> None:
        """``only``: these groups (the groups of one tool), else the whole drift."""
        super().__init__()
        self.only = list(only) if only is not None else None
        self.items: list[Group | Alone | SurfaceAlone] = []
        self._set(grouping)

    def _set(self, grouping: Grouping) -> None:
        if self.only is not None:
            ids = {g.id for g in self.only}
            self.items = [g for g in grouping.groups if g.id in ids]
        else:
            self.items = list(grouping.ordered())
        self.grouping = grouping

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="groups-count")
        yield GroupTable(id="groups")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "mcp-review"
        self.sub_title = "groups" if self.only is None else "groups of one tool"
        table = self.query_one("#groups", GroupTable)
        table.add_column("decide", key="what", width=46)
        table.add_column("tools", key="size", width=9)
        table.add_column("outcome", key="outcome", width=8)
        table.add_column("why", key="why", width=40)
        self._fill()
        table.focus()

    def on_resize(self) -> None:
        table = self.query_one("#groups", GroupTable)
        width = self.size.width
        what = max(20, min(60, int(width * 0.42)))
        # "tools" as wide as its longest label ("1 resource", "12 templates"), 9 at least.
        size = max([9, *(cell_len(_size_label(x)) for x in self.items)])
        table.set_width("what", what)
        table.set_width("size", size)
        table.set_width("why", max(width - what - size - 8 - 2 * 4 - 2, 10))

    def refresh_grouping(self, grouping: Grouping) -> None:
        """A new status was shown (a decision, a fetch): the rows follow it."""
        self._set(grouping)
        if self.is_mounted:
            self._fill()

    def _fill(self) -> None:
        table = self.query_one("#groups", GroupTable)
        keep = table.cursor_row
        table.forget_rows()
        self.on_resize()  # the "tools" column follows its labels
        table.show_rows([str(i) for i in range(len(self.items))], self._row)
        gs = sum(1 for x in self.items if isinstance(x, Group))
        alone = len(self.items) - gs
        self.query_one("#groups-count", Static).update(
            Content.assemble(
                (f"{_plural(len(self.items), 'decision')}", "bold"),
                f": {_plural(gs, 'group')} of alike changes, {alone} alone"
                + (
                    " · enter opens · a / d decide · esc back"
                    if self.items
                    else " · nothing needs a decision"
                ),
            )
        )
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1), animate=False)

    def _row(self, key: str) -> list[Text]:
        item = self.items[int(key)]
        table = self.query_one("#groups", GroupTable)
        cs, marks = table.component_style, table.marks
        muted = cs("group-table--muted")
        outcome = Text(str(item.outcome), style=cs(_OUTCOME_STYLE.get(item.outcome, MUTED)))
        if isinstance(item, Group):
            what = safe_text(item.label, limit=200, marks=marks)
            why = safe_text(
                ", ".join(f"{m.server} › {name_line(m.tool, 40)}" for m in item.members[:6])
                + (" …" if item.size > 6 else ""),
                style=muted,
                limit=300,
                marks=marks,
            )
            size = Text(_size_label(item), style=muted)
        elif isinstance(item, SurfaceAlone):
            # A prompt, resource or template: its kind before its name (server text as data).
            what = Text("alone: ", style=muted)
            what.append_text(safe_text(item.server, limit=40, marks=marks))
            what.append(f" › {SURFACE_WORD[item.kind]} ")
            what.append_text(name_text(item.name, limit=80, marks=marks))
            why = safe_text(alone_why(item), style=muted, limit=300, marks=marks)
            size = Text(_size_label(item), style=muted)
        else:
            what = Text("alone: ", style=muted)
            what.append_text(safe_text(item.server, limit=40, marks=marks))
            what.append(" › ")
            what.append_text(name_text(item.tool, limit=80, marks=marks))
            why = safe_text(alone_why(item), style=muted, limit=300, marks=marks)
            size = Text(_size_label(item), style=muted)
        return [what, size, outcome, why]

    def current(self) -> Group | Alone | SurfaceAlone | None:
        table = self.query_one("#groups", GroupTable)
        if not table.row_count or table.cursor_row >= len(self.items):
            return None
        return self.items[table.cursor_row]

    @on(GroupTable.RowSelected, "#groups")
    def _on_selected(self, event: GroupTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        item = self.current()
        if item is None:
            return
        ask_app(self, GroupItemRequested(item))

    def action_approve(self) -> None:
        self._decide(Decision.APPROVED)

    def action_deny(self) -> None:
        self._decide(Decision.DENIED)

    def _decide(self, decision: Decision) -> None:
        """The selected group (every member) or tool alone, decided as its own screen decides
        it: the app asks first (``request_group_decision`` / ``request_decision``)."""
        item = self.current()
        if item is None:
            return
        if isinstance(item, Group):
            ask_app(self, GroupDecisionRequested(item, decision))
            return
        if isinstance(item, SurfaceAlone):
            surface_for = getattr(self.app, "surface_entry_for", None)
            found = surface_for(item.key) if surface_for is not None else None
            if found is None:
                self.notify("that prompt or resource is no longer in the list", markup=False)
                return
            ask_app(self, SurfaceDecisionRequested(found, decision))
            return
        entry_for = getattr(self.app, "entry_for", None)
        entry = entry_for(item.key) if entry_for is not None else None
        if entry is None:
            self.notify("that tool is no longer in the list", markup=False, timeout=3)
            return
        ask_app(self, DecisionRequested(entry, decision))

    def action_back(self) -> None:
        self.dismiss(None)
