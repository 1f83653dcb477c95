"""The classified change list (class, rule, pointer, message); reports the change selected."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import DataTable

from mcp_review.engine.model import Change, ChangeClass
from mcp_review.engine.rules import render_change
from mcp_review.tui.render import safe_text
from mcp_review.tui.widgets.marked_table import MarkedTable

CLASS_STYLE = {
    ChangeClass.BREAKING: "change-list--breaking",
    ChangeClass.POTENTIALLY_BREAKING: "change-list--potentially-breaking",
    ChangeClass.TRUST: "change-list--trust",
    ChangeClass.COMPATIBLE: "change-list--compatible",
    ChangeClass.COSMETIC: "change-list--cosmetic",
}
"""The component class each change class is drawn in."""


class ChangeList(MarkedTable):
    """One row per change, most severe first; highlighting a row posts ``ChangeList.Selected``."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(CLASS_STYLE.values())

    DEFAULT_CSS = """
    ChangeList { height: auto; max-height: 9; }
    ChangeList > .change-list--breaking { color: ansi_red; text-style: bold; }
    ChangeList > .change-list--potentially-breaking { color: ansi_yellow; text-style: bold; }
    ChangeList > .change-list--trust { color: ansi_magenta; text-style: bold; }
    ChangeList > .change-list--compatible { color: ansi_green; }
    ChangeList > .change-list--cosmetic { text-style: dim; }
    """

    @dataclass
    class Selected(Message):
        """The operator moved to ``change`` (scroll the diff to its pointer)."""

        change_list: ChangeList
        change: Change
        chosen: bool = False
        """True on enter (the operator picked it: show its diff, on whichever tab it lives);
        False when the cursor merely moved onto it."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row")
        self.changes: list[Change] = []

    def on_mount(self) -> None:
        self.add_column("class", key="class")
        self.add_column("rule", key="rule")
        self.add_column("pointer", key="pointer")
        self.add_column("message", key="message")

    def set_changes(self, changes: list[Change]) -> None:
        self.changes = list(changes)
        self.clear()
        style, marks = self.component_style, self.marks
        for i, c in enumerate(self.changes):
            label = str(c.cls) + (" ↑" if c.promoted else "")
            cell = Text(label, style=style(CLASS_STYLE[c.cls]))
            if c.new_text and c.cls is not ChangeClass.TRUST:
                # the other axis: this change brings in text the model reads
                cell.append(" +trust", style=style(CLASS_STYLE[ChangeClass.TRUST]))
            self.add_row(
                cell,
                Text(c.rule),
                safe_text(c.pointer, limit=80, marks=marks),
                safe_text(render_change(c), limit=300, marks=marks),
                key=str(i),
            )

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        i = event.cursor_row
        if 0 <= i < len(self.changes):
            self.post_message(self.Selected(self, self.changes[i]))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        i = event.cursor_row
        if 0 <= i < len(self.changes):
            self.post_message(self.Selected(self, self.changes[i], chosen=True))
