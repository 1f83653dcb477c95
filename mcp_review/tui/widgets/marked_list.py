"""The fast list (:class:`~mcp_review.tui.rowlist.RowList`) with the renderers' marks.

Its class is named ``MarkedTable`` on purpose, as the DataTable-based
:class:`mcp_review.tui.widgets.marked_table.MarkedTable` is: CSS matches class names, so one
stylesheet rule (``MarkedTable > .marked-table--hidden { … }``) restyles the hidden-character
and look-alike marks in every table of the app, the list's included.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style

from mcp_review.tui.render import HIDDEN_STYLE, LOOKALIKE_STYLE, Marks
from mcp_review.tui.rowlist import RowList


class MarkedTable(RowList):
    """A :class:`RowList` of Rich Text cells styled by component classes (see the module and
    ``widgets.marked_table``)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"marked-table--hidden", "marked-table--lookalike"}

    DEFAULT_CSS = """
    MarkedTable > .marked-table--hidden { text-style: bold reverse; }
    MarkedTable > .marked-table--lookalike { color: ansi_red; text-style: bold reverse; }
    """

    def component_style(self, component: str) -> Style:
        """The Rich style of one of this list's component classes: only what its CSS sets
        (the row and cursor styles still show through)."""
        return self.get_component_rich_style(component, partial=True)

    @property
    def marks(self) -> Marks:
        """How this list draws the renderers' marks (``render.cell_text``)."""
        return {
            HIDDEN_STYLE: self.component_style("marked-table--hidden"),
            LOOKALIKE_STYLE: self.component_style("marked-table--lookalike"),
        }
