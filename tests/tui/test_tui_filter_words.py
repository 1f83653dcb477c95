"""Every word the list shows is a word its filter accepts (issue 30 item 8): `/flag:relaxed`
matched 0 rows while 19 rows showed `relaxed`. Checked over every row the app draws for the
sample, polish and hostile sources: each word of a tool row's status and flags cells, typed
as `status:WORD` / `flag:WORD`, keeps that row; and over every flag and status the app has."""

from __future__ import annotations

import pytest
import tui_sample as sample

from mcp_review.engine.status import State
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.view import Flag


async def _ready(app: ReviewApp, pilot) -> None:
    for _ in range(3000):  # Textual's wait-until-idle, until the first status is shown
        await pilot.pause()
        if app.main is not None and app.main.loaded:
            return
    raise AssertionError("the app never loaded")


@pytest.mark.parametrize(
    "make", [sample.sample_source, sample.polish_source, sample.hostile_source]
)
async def test_every_shown_word_filters_to_its_rows(make):
    app = ReviewApp(make())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        main = app.main
        table = main.query_one("#tools", ToolTable)
        shown: dict[str, tuple[str, str, str]] = {}  # row key -> (status, decision, flags)
        for s in main.servers:
            for t in s.tools:
                key = main._keys[id(t)]
                cells = table.get_row(key)
                shown[key] = (cells[1].plain, cells[2].plain, cells[3].plain)
        kinds = ("status", "decision", "flag")
        words = {
            (kind, w)
            for cells in shown.values()
            for kind, c in zip(kinds, cells, strict=True)
            for w in c.split()
        }
        assert ("flag", "more-power") in words or make is not sample.sample_source
        assert ("decision", "block") in words or make is sample.polish_source
        seen = 0
        for kind, word in sorted(words):
            want = {k for k, cells in shown.items() if word in cells[kinds.index(kind)].split()}
            main.filter_text = f"{kind}:{word}"  # what typing `/flag:WORD` sets
            await pilot.pause()
            got = {main._keys[id(t)] for s in main.servers for t in main.visible_tools(s)}
            assert want <= got, (kind, word, want - got)
            seen += 1
        assert seen


def test_every_flag_and_status_word_is_a_filter_word():
    """The words the list can show at all: a flag's column word and a status's value are
    the words the filter compares (no second vocabulary)."""
    from mcp_review.tui.screens.main import filter_words
    from mcp_review.tui.view import ToolEntry

    for flag in Flag:
        row = ToolEntry("s", "default", "t", State.CHANGED, flags=frozenset({flag}))
        assert flag.short in filter_words(row)["flag"]
    for state in State:
        row = ToolEntry("s", "default", "t", state)
        assert state.value in filter_words(row)["status"]
