"""Issue 13, app: each small thing driven with Pilot, asserting on state, the screen and the
files written (``sample.polish_source``: one server, ``docs``, drifted in each way)."""

from __future__ import annotations

from pathlib import Path

import tui_sample as sample
from helpers import press, settle
from helpers import ready as _ready
from helpers import select as _select
from textual.widgets import Static, TabbedContent

from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.screens.modals import ConfirmScreen, PolicyScreen
from mcp_review.tui.screens.review import ReviewScreen
from mcp_review.tui.widgets.change_list import ChangeList
from mcp_review.tui.widgets.diff_view import SideBySide


async def _open(app: ReviewApp, pilot, name: str) -> ReviewScreen:
    await _select(app, pilot, name)
    await press(pilot, "enter")
    assert isinstance(app.screen, ReviewScreen)
    return app.screen


def _row_text(table: ToolTable, row: int) -> list[str]:
    return [str(c) for c in table.get_row_at(row)]


def _static_text(w: Static) -> str:
    return str(w.render())


async def test_server_row_counts_the_tools_served():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        table = app.main.query_one("#tools", ToolTable)
        docs = app.main.servers[0]
        listed = len(docs.tools)  # read_file, label_issue, summarize, ping, rеad_file, archive_doc
        assert listed == 6
        served = sum(1 for t in docs.tools if t.status.value != "removed")
        assert served == 5  # the removed archive_doc is listed, not served
        assert _row_text(table, 0)[1] == "5 tools"


async def test_home_and_end_in_the_tool_list():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        table = app.main.query_one("#tools", ToolTable)
        await press(pilot, "down", "down")
        assert table.cursor_row == 2
        await press(pilot, "end")
        assert table.cursor_row == table.row_count - 1
        await press(pilot, "home")
        assert table.cursor_row == 0
        # In the filter box Home/End stay the box's own (cursor to the start / end of the text).
        await press(pilot, "slash", *"doc", "home")
        box = app.main.query_one("#filter")
        assert box.cursor_position == 0 and table.cursor_row == 0


async def test_5_on_a_tool_without_output_schema_says_so():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _ready(app, pilot)
        review = await _open(app, pilot, "ping")
        before = review.query_one("#tabs", TabbedContent).active
        await press(pilot, "5")
        assert review.query_one("#tabs", TabbedContent).active == before
        assert any("no output schema" in n.message for n in app._notifications)


async def test_a_long_change_message_is_shown_whole_under_the_list():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        review = await _open(app, pilot, "summarize")
        await press(pilot, "1")
        changes = review.query_one("#changes", ChangeList)
        desc = next(
            i for i, c in enumerate(changes.changes) if c.rule == "tool-description-changed"
        )
        changes.move_cursor(row=desc)
        await settle(pilot)
        detail = _static_text(review.query_one("#change-detail", Static))
        message = changes.changes[desc].message
        column = next(c for k, c in changes.columns.items() if k.value == "message")
        visible = changes.region.width - sum(
            c.get_render_width(changes) for k, c in changes.columns.items() if k.value != "message"
        )
        # Longer than the list's message column can show on this screen...
        assert len(message) > min(column.get_render_width(changes), visible)
        # ...and whole in the detail line (which wraps it).
        assert "tool-description-changed at /description" in detail
        assert message in detail and "then what is lef" in detail


async def test_an_annotations_only_change_opens_on_the_annotations_tab():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        review = await _open(app, pilot, "label_issue")
        assert review.comparison is not None and review.comparison.changes
        assert all(c.pointer.startswith("/annotations") for c in review.comparison.changes)
        assert review.query_one("#tabs", TabbedContent).active == "tab-annotations"


async def test_highlighting_an_output_change_shows_the_output_schema_diff():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        review = await _open(app, pilot, "summarize")
        await press(pilot, "1")
        changes = review.query_one("#changes", ChangeList)
        diff = review.query_one("#schema-diff", SideBySide)
        out = next(
            i for i, c in enumerate(changes.changes) if c.pointer.startswith("/outputSchema")
        )
        inp = next(
            (i for i, c in enumerate(changes.changes) if c.pointer.startswith("/inputSchema")), None
        )
        changes.move_cursor(row=out)
        await settle(pilot)
        assert review.query_one("#tabs", TabbedContent).active == "tab-schema"
        assert diff.old_title == "pinned outputSchema"
        shown = "\n".join(r.right.text for r in diff.rows if r.right is not None)
        assert '"words"' in shown and '"null"' in shown  # the output schema, not the input
        # The marked row is the change's line.
        assert diff.body.marked is not None
        # Back on a description change: the diff follows.
        desc = next(i for i, c in enumerate(changes.changes) if c.pointer == "/description")
        changes.move_cursor(row=desc)
        await settle(pilot)
        assert diff.old_title == "pinned description"
        assert inp is None  # (this tool has no input change; the schema diff is the default)


async def test_the_policy_dialog_marks_a_look_alike_name():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, sample.HOMOGLYPH)
        await press(pilot, "p")
        assert isinstance(app.screen, PolicyScreen)
        options = app.screen.query_one("#tiers")
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        tool_labels = [x for x in labels if x.startswith("tool ")]
        assert tool_labels and all("rе⟨U+0435⟩ad_file" in x for x in tool_labels)
        await press(pilot, "escape")


async def test_every_dialog_about_a_look_alike_marks_it():
    app = ReviewApp(sample.polish_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, sample.HOMOGLYPH)
        for key in ("a", "d"):
            await press(pilot, key)
            assert isinstance(app.screen, ConfirmScreen)
            shown = " ".join(_static_text(w) for w in app.screen.query(Static))
            assert sample.HOMOGLYPH not in shown.replace("rе⟨U+0435⟩ad_file", "")
            assert "rе⟨U+0435⟩ad_file" in shown
            await press(pilot, "n")
        await press(pilot, "e")
        assert "rе⟨U+0435⟩ad_file" in str(app.screen.query_one(".dialog-title").render())


async def test_a_on_a_removed_tool_says_removal_acknowledged(tmp_path: Path):
    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(sample.polish_source(pins_path=pins))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "archive_doc")
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmScreen)
        title = str(app.screen.query_one(".dialog-title").render())
        assert title == "Acknowledge the removal of archive_doc?"
        assert "Approving pins the definition" not in _static_text(
            app.screen.query_one(".dialog-body")
        )
        await press(pilot, "y")
        assert any(
            n.message == "removal acknowledged: docs › archive_doc" for n in app._notifications
        )
        # issue 30 item 17: "removal acknowledged of docs › archive_doc" read wrong
        last_decision = app.source.last_decision()
        assert last_decision is not None
        assert last_decision.startswith(
            "acknowledged the removal of docs › archive_doc; undoing puts back the earlier "
            "approval by "
        ), last_decision
    assert load_pins(pins).get("docs", "default", "archive_doc") is None
    last = audit.read(pins.replace(".toml", ".audit.jsonl"))[-1]
    # the audit log's one wording (services.decisions.audit_why), as the CLI's approve writes it
    assert last["tool"] == "archive_doc"
    assert last["why"] == "approved (removed: removal acknowledged)", last["why"]
