"""A hostile server: markup, actions, links, ANSI, hidden characters and a 100 KB description
render literally, with hidden characters shown; the app neither crashes nor performs an action."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from helpers import press, settle, settled
from textual.widgets import Static
from tui_sample import HOSTILE_STRINGS, hostile_source

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.screens.review import ReviewScreen
from mcp_review.tui.widgets.diff_view import SideBySide

TABS = ("tab-schema", "tab-description", "tab-replay", "tab-annotations")


def _cells(app: ReviewApp) -> list[str]:
    table = app.screen.query_one("#tools", ToolTable)
    return [str(c) for r in range(table.row_count) for c in table.get_row_at(r)]


def _valid_svg(app: ReviewApp) -> None:
    svg = app.export_screenshot()
    assert "\x1b" not in svg
    ET.fromstring(svg)  # raw control characters would make it invalid XML


async def test_hostile_strings_render_literally_and_do_nothing():
    app = ReviewApp(hostile_source())
    # Every tab's frame once drawn is what is checked, not the frames of the tab underline
    # sliding over (a third of the test's CPU, twice its wall time, for frames never looked at)
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(app, pilot)
        cells = _cells(app)
        joined = "\n".join(cells)
        for s in (
            "x [/] y [/bold]#0",
            "[@click=app.quit]click me[/]#1",
            "[link=https://x]link[/link]#2",
            "list[str] and [$var] and \\[escaped]#7",
        ):
            assert s in joined, s
        assert "⟨ESC⟩[31mred⟨ESC⟩[0m" in joined
        assert "⟨U+200B⟩" in joined and "⟨RLO U+202E⟩" in joined and "⟨TAG i⟩" in joined
        assert "\x1b" not in joined
        # The failed server shows its cause, literally.
        assert "[@click=app.quit]click me[/]⟨ESC⟩[31mred" in joined
        _valid_svg(app)
        # Click every row (a second click selects): no action may run.
        table = app.screen.query_one("#tools", ToolTable)
        for _ in range(table.row_count):
            await pilot.click("#tools", offset=(5, table.cursor_row + 1))
        assert app.is_running and app.return_code is None
        # Open every hostile tool and every tab. The 100 KB description (`huge`: a tenth of
        # this test's CPU for its screen alone) is opened by the test below, its SVG checked there.
        for row in range(table.row_count):
            table.move_cursor(row=row)
            entry = app.main.current_entry()
            if entry is None or entry.name == "huge":
                continue
            await press(pilot, "enter")
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            for tab in TABS:
                screen.action_tab(tab)
                await settle(pilot)
                _valid_svg(app)
            await pilot.click("#summary", offset=(3, 0))
            await press(pilot, "escape")
        assert app.is_running and app.return_code is None


async def test_huge_description_shows_every_hidden_char():
    app = ReviewApp(hostile_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        table = app.screen.query_one("#tools", ToolTable)
        for row in range(table.row_count):
            table.move_cursor(row=row)
            e = app.main.current_entry()
            if e is not None and e.name == "huge":
                break
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        # The tool also writes out an empty `properties` (a cosmetic schema change), so the
        # screen may open on the schema tab: open the description tab, where the diff is drawn.
        await press(pilot, "2")
        diff = screen.query_one("#desc-diff", SideBySide)
        shown = "".join(r.right.text for r in diff.rows if r.right)
        assert shown.count("⟨U+200B⟩") == 100 and len(shown) > 100_000
        lines = diff.body  # the line-API body: every visual line, as it would be drawn
        body = "\n".join(lines.line_text(y) for y in range(lines.line_count))
        assert body.count("⟨U+") > 50 and "\u200b" not in body
        notes = str(screen.query_one("#text-notes", Static).content)
        assert "100 hidden characters" in notes
        _valid_svg(app)


def test_hostile_strings_cover_the_issue_list():
    kinds = "".join(HOSTILE_STRINGS)
    for needle in (
        "[/]",
        "[@click=app.quit]",
        "[link=https://x]",
        "\x1b[",
        "\u200b",
        "\u202e",
        chr(0xE0069),
    ):
        assert needle in kinds
