"""A DataTable whose cells show untrusted text: its colours are component classes, not literals.

DataTable draws Rich renderables, which know no theme variables, so a cell's styles are Rich
styles read from the table's component classes (``get_component_rich_style``). Each subclass
declares the classes its rows use, with DEFAULT_CSS giving today's look (``ansi_red`` is the
terminal's red, as Rich's ``"red"`` was); an app stylesheet or a theme restyles them:

    ToolTable > .tool-table--changed { color: $warning; }

The hidden-character and look-alike marks come from ``render.safe_content`` /
``render.name_content`` and are drawn here in ``marked-table--hidden`` / ``--lookalike``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.widgets import DataTable

from mcp_review.tui.render import HIDDEN_STYLE, LOOKALIKE_STYLE, Marks


class MarkedTable(DataTable[Text]):
    """A DataTable of Rich Text cells styled by component classes (see the module)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"marked-table--hidden", "marked-table--lookalike"}

    DEFAULT_CSS = """
    MarkedTable > .marked-table--hidden { text-style: bold reverse; }
    MarkedTable > .marked-table--lookalike { color: ansi_red; text-style: bold reverse; }
    """

    def component_style(self, component: str) -> Style:
        """The Rich style of one of this table's component classes: only what its CSS sets
        (the row and cursor styles still show through)."""
        return self.get_component_rich_style(component, partial=True)

    @property
    def marks(self) -> Marks:
        """How this table draws the renderers' marks (``render.cell_text``)."""
        return {
            HIDDEN_STYLE: self.component_style("marked-table--hidden"),
            LOOKALIKE_STYLE: self.component_style("marked-table--lookalike"),
        }
