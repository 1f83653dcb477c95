"""The classified change list (class, rule, pointer, message); reports the change selected."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import DataTable

from mcp_review.engine.model import Change, ChangeClass
from mcp_review.engine.rules import render_change
from mcp_review.tui.render import safe_text

CLASS_STYLE = {
    ChangeClass.BREAKING: "bold red",
    ChangeClass.POTENTIALLY_BREAKING: "bold yellow",
    ChangeClass.TRUST: "bold magenta",
    ChangeClass.COMPATIBLE: "green",
    ChangeClass.COSMETIC: "dim",
}


class ChangeList(DataTable[Text]):
    """One row per change, most severe first; highlighting a row posts ``ChangeList.Selected``."""

    DEFAULT_CSS = """
    ChangeList { height: auto; max-height: 9; }
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
        for i, c in enumerate(self.changes):
            label = str(c.cls) + (" ↑" if c.promoted else "")
            cell = Text(label, style=CLASS_STYLE[c.cls])
            if c.new_text and c.cls is not ChangeClass.TRUST:
                # the other axis: this change brings in text the model reads
                cell.append(" +trust", style=CLASS_STYLE[ChangeClass.TRUST])
            self.add_row(
                cell,
                Text(c.rule),
                safe_text(c.pointer, limit=80),
                safe_text(render_change(c), limit=300),
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
