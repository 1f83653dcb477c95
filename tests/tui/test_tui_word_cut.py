"""At 80×24 the list's "changes" column is cut after a whole word, with "…", and the detail
line under the list shows the highlighted row's changes in full (issue 30 item 22: the column
read "1 potenti")."""

from __future__ import annotations

import pytest
import tui_sample as sample
from rich.console import Console
from rich.padding import Padding
from rich.text import Text
from textual.widgets import Static

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.render import word_cut, word_cut_cell
from mcp_review.tui.screens.main import ToolTable


@pytest.mark.parametrize("width", range(1, 60))
@pytest.mark.parametrize(
    "text",
    [
        "2 breaking, 1 potentially-breaking, 1 trust, 2/5 calls break",
        "approved tool no longer served: 2 recorded call(s) would fail",
        "npx: command not found",
        "averyveryverylongsinglewordwithoutanyspaceatall",
    ],
)
def test_a_cut_ends_after_a_whole_word(text: str, width: int):
    cut = word_cut(Text(text), width).plain
    assert len(cut) <= width
    if len(text) <= width:
        assert cut == text
        return
    assert cut.endswith("…")
    kept = cut[:-1]
    words = text.split(" ")
    if " " in text[:width]:  # a whole word fits: the cut is after one
        assert kept and text.startswith(kept) and (text[len(kept)] == " "), (kept, text)
        assert kept.split(" ") == words[: len(kept.split(" "))]


def test_the_cell_draws_cut_and_keeps_its_text():
    cell = word_cut_cell(Text("1 compatible, 1 potentially-breaking"))
    console = Console(width=24)
    lines = console.render_lines(
        Padding(cell, (0, 1)), console.options.update_dimensions(24, 1).update(no_wrap=True)
    )
    drawn = "".join(s.text for s in lines[0]).strip()
    assert drawn == "1 compatible, 1…", drawn
    assert cell.plain == "1 compatible, 1 potentially-breaking"


async def test_at_80x24_no_cell_is_cut_inside_a_word_and_the_detail_line_has_the_rest():
    app = ReviewApp(sample.sample_source())
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):  # Textual's wait-until-idle, until the first status is shown
            await pilot.pause()
            if app.main is not None and app.main.loaded:
                break
        await pilot.pause()
        table = app.main.query_one("#tools", ToolTable)
        detail = app.main.query_one("#row-detail", Static)
        cut_seen = 0
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await pilot.pause()
            full = table.get_row_at(row)[4].plain
            assert str(detail.render()).strip() == full.strip()
            width = table.columns[4].width
            cut = word_cut(Text(full), width).plain
            if cut != full:
                cut_seen += 1
                kept = cut[:-1]
                assert full[len(kept)] == " " or " " not in full[:width], (kept, full)
        assert cut_seen  # 80 columns do cut some rows
