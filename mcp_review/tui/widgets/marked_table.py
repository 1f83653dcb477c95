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
from textual.widget import Widget
from textual.widgets import DataTable

from mcp_review.tui.render import HIDDEN_STYLE, LOOKALIKE_STYLE, Marks

MARK_CLASSES: frozenset[str] = frozenset({"marked-table--hidden", "marked-table--lookalike"})
"""The component classes of the renderers' marks, shared by this table and the fast list
(``widgets.marked_list``): both are named ``MarkedTable``, so one rule restyles both."""

MARK_CSS = """
MarkedTable > .marked-table--hidden { text-style: bold reverse; }
MarkedTable > .marked-table--lookalike { color: ansi_red; text-style: bold reverse; }
"""


def component_style(widget: Widget, component: str) -> Style:
    """The Rich style of one of ``widget``'s component classes: only what its CSS sets (the
    row and cursor styles still show through)."""
    return widget.get_component_rich_style(component, partial=True)


def marks_of(widget: Widget) -> Marks:
    """How ``widget`` draws the renderers' marks (``render.cell_text``)."""
    return {
        HIDDEN_STYLE: component_style(widget, "marked-table--hidden"),
        LOOKALIKE_STYLE: component_style(widget, "marked-table--lookalike"),
    }


class MarkedTable(DataTable[Text]):
    """A DataTable of Rich Text cells styled by component classes (see the module)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = set(MARK_CLASSES)
    DEFAULT_CSS = MARK_CSS

    def component_style(self, component: str) -> Style:
        """The Rich style of one of this table's component classes."""
        return component_style(self, component)

    @property
    def marks(self) -> Marks:
        """How this table draws the renderers' marks."""
        return marks_of(self)
