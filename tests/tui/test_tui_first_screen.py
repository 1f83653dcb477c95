"""Issue 41 item 3: the first screen says what needs a human.

On the three reference servers' real upgrade (tests/corpus) with a rug pull planted: the
decision column says block / review, the header counts what is blocked, the rows that need a
human come first in the engine's order (the rug pull first, whichever server it is in), and
the flags column is as wide as the terminal allows. The SVG pictures are in
test_tui_snapshots.py (100×30 and 200×50)."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from tui_sample import reference_source

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import ToolTable


async def _ready(app, pilot) -> None:
    for _ in range(3000):  # until the status is computed and shown (not a timing test)
        await pilot.pause(0.02)
        if app.main is not None and app.main.loaded and not app.main.computing:
            return
    raise AssertionError("the app never loaded")


def _rows(table: ToolTable) -> list[list[str]]:
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.parametrize(
    "plant",
    [
        ("mcp-server-time", "get_current_time"),  # the last server: was row 27 of 28
        ("server-memory", "read_graph"),
        ("server-filesystem", "list_allowed_directories"),
    ],
    ids=lambda p: p[1],
)
@pytest.mark.parametrize("size", [(100, 30), (200, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_rug_pull_is_the_first_row_blocked(plant, size):
    app = ReviewApp(reference_source(plant))
    async with app.run_test(size=size) as pilot:
        await _ready(app, pilot)
        table = app.main.query_one("#tools", ToolTable)
        rows = _rows(table)
        # row 0: the planted tool's server; row 1: the rug pull, its decision "block"
        assert rows[0][0].endswith(plant[0]), rows[:3]
        assert rows[1][0].endswith(plant[1]) and rows[1][2] == "block", rows[:3]
        # it is the only blocked row; the others that need a human say review
        decisions = [r[2] for r in rows]
        assert decisions.count("block") == 1
        assert decisions.count("review") >= 20
        line = str(app.main.query_one("#counts", Static).render())
        assert "1 blocked" in line and "25 to review" in line, line
        # enter on the first row (n lands there first too)
        await pilot.press("n")
        assert app.main.current_entry().name == plant[1]


async def test_the_flags_column_grows_with_the_terminal():
    """At 200 columns the rug pull's flags read whole ("concealment" was cut at 15 cells)."""
    app = ReviewApp(reference_source(("mcp-server-time", "get_current_time")))
    async with app.run_test(size=(200, 50)) as pilot:
        await _ready(app, pilot)
        table = app.main.query_one("#tools", ToolTable)
        flags = table.get_row_at(1)[3].plain
        width = next(c.width for c in table.columns if c.key == "flags")
        assert "concealment" in flags and len(flags) <= width, (flags, width)
    app = ReviewApp(reference_source(("mcp-server-time", "get_current_time")))
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        table = app.main.query_one("#tools", ToolTable)
        # narrow: the changes column keeps its room, nothing scrolls sideways
        assert sum(c.width + 2 for c in table.columns) <= 80


async def test_enter_opens_the_tab_of_the_most_severe_change():
    """Issue 41 item 4: the rug pull's row opens on its description (the cue's text), not the
    Schema tab its schema changes would pick; an honest row still opens where its changes are."""
    from mcp_review.tui.screens.review import ReviewScreen

    app = ReviewApp(reference_source(("mcp-server-time", "get_current_time")))
    async with app.run_test(size=(120, 40)) as pilot:
        await _ready(app, pilot)
        await pilot.press("n", "enter")
        for _ in range(3000):
            await pilot.pause(0.02)
            if isinstance(app.screen, ReviewScreen):
                break
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.entry.name == "get_current_time"
        from textual.widgets import TabbedContent

        assert screen.query_one("#tabs", TabbedContent).active == "tab-description"
