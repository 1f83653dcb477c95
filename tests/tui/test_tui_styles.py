"""Issue 17: the tables' colours are component classes, not literals, so an app stylesheet or a
theme restyles them. The defaults (today's look) are held picture by picture by the snapshot
tests; these tests drive the app with and without a stylesheet and read the cells' styles."""

from __future__ import annotations

import pytest
import tui_sample as sample
from rich.style import Style
from rich.text import Text
from textual.content import Content

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.render import HIDDEN_STYLE, cell_text, safe_content
from mcp_review.tui.screens.main import ToolTable


class Restyled(ReviewApp):
    CSS = """
    ToolTable > .tool-table--changed { color: ansi_blue; text-style: underline; }
    MarkedTable > .marked-table--hidden { color: ansi_green; text-style: italic; }
    """


async def _tool_cells(app: ReviewApp, pilot) -> list[list[Text]]:
    for _ in range(3000):
        await pilot.pause(0.02)
        if app.main is not None and app.main.loaded:
            break
    else:
        raise AssertionError("never loaded")
    table = app.main.query_one("#tools", ToolTable)
    rows = [table.get_row_at(r) for r in range(table.row_count)]
    return [r for r in rows if r[1].plain == "changed"]


def _hidden_marks(cell: Text) -> list[Style]:
    return [
        s.style  # type: ignore[misc]
        for s in cell.spans
        if cell.plain[s.start : s.end].startswith("⟨U+200B")
    ]


async def test_default_styles_are_the_old_literals():
    app = ReviewApp(sample.hostile_source())
    async with app.run_test(size=(80, 24)) as pilot:
        rows = await _tool_cells(app, pilot)
        assert rows, "the hostile server's tools are all changed"
        status = rows[0][1].style
        assert isinstance(status, Style)
        # "bold yellow", as the list drew it before its colours became component classes
        assert (status.color.number, status.bold) == (3, True)  # type: ignore[union-attr]
        marks = [m for r in rows for m in _hidden_marks(r[0])]
        assert marks and all(m.bold and m.reverse and m.color is None for m in marks)


async def test_an_app_stylesheet_restyles_the_list_and_the_hidden_character_marks():
    app = Restyled(sample.hostile_source())
    async with app.run_test(size=(80, 24)) as pilot:
        rows = await _tool_cells(app, pilot)
        status = rows[0][1].style
        assert isinstance(status, Style)
        assert (status.color.number, status.underline, status.bold) == (4, True, None)  # type: ignore[union-attr]
        marks = [m for r in rows for m in _hidden_marks(r[0])]
        assert marks and all(m.color.number == 2 and m.italic for m in marks)  # type: ignore[union-attr]


def test_a_cell_shows_only_the_renderers_marks():
    # A DataTable cell is the renderer's Content; a span that is not one of its marks (a
    # style smuggled in some other way) is refused rather than drawn.
    marks = {HIDDEN_STYLE: Style(bold=True)}
    cell = cell_text(safe_content("a\u200bb"), marks)
    assert cell.plain == "a⟨U+200B⟩b" and [s.style for s in cell.spans] == [Style(bold=True)]
    with pytest.raises(ValueError):
        cell_text(Content("x").stylize("$text-error"), marks)
