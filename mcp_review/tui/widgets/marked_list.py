"""The fast list (:class:`~mcp_review.tui.rowlist.RowList`) with the renderers' marks.

Its class is named ``MarkedTable`` on purpose, as the DataTable-based
:class:`mcp_review.tui.widgets.marked_table.MarkedTable` is: CSS matches class names, so one
stylesheet rule (``MarkedTable > .marked-table--hidden { … }``) restyles the hidden-character
and look-alike marks in every table of the app, the list's included.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style

from mcp_review.tui.render import Marks
from mcp_review.tui.rowlist import RowList
from mcp_review.tui.widgets.marked_table import MARK_CLASSES, MARK_CSS, component_style, marks_of


class MarkedTable(RowList):
    """A :class:`RowList` of Rich Text cells styled by component classes (see the module and
    ``widgets.marked_table``)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(MARK_CLASSES)
    DEFAULT_CSS = MARK_CSS

    def component_style(self, component: str) -> Style:
        """The Rich style of one of this list's component classes."""
        return component_style(self, component)

    @property
    def marks(self) -> Marks:
        """How this list draws the renderers' marks."""
        return marks_of(self)
