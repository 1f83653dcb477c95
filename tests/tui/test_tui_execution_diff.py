"""The Schema tab's diff follows the highlighted change to the tool's ``execution`` field
(issue 30 item 16): an ``execution-changed`` or ``execution-explicit-default`` row showed the
input schema diff. A real pin file written by the real CLI, reviewed from a snapshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_review.cli import main
from mcp_review.store.readers import load_snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.review import ReviewScreen
from mcp_review.tui.source import ReviewSource
from mcp_review.tui.widgets.change_list import ChangeList
from mcp_review.tui.widgets.diff_view import SideBySide


def _snapshot(path: Path, execution: Any, depth_type: str) -> str:
    tool: dict[str, Any] = {
        "name": "run_job",
        "description": "Run a job.",
        "inputSchema": {"type": "object", "properties": {"depth": {"type": depth_type}}},
    }
    if execution is not None:
        tool["execution"] = execution
    path.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "jobs": {
                        "principal": "default",
                        "server_info": {"name": "jobs", "version": "1.0.0"},
                        "protocol_version": "2025-11-25",
                        "tools": [tool],
                    }
                },
            }
        )
    )
    return str(path)


@pytest.mark.parametrize(
    ("old", "new", "rule", "shown"),
    [
        (
            {"taskSupport": "forbidden"},
            {"taskSupport": "required"},
            "execution-changed",
            "required",
        ),
        (None, {}, "execution-explicit-default", "{}"),
    ],
)
async def test_an_execution_change_shows_the_execution_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old, new, rule, shown
):
    monkeypatch.chdir(tmp_path)
    v1 = _snapshot(tmp_path / "v1.json", old, "integer")
    v2 = _snapshot(tmp_path / "v2.json", new, "string")  # an input change beside it
    pins = str(tmp_path / "mcp-pins.toml")
    assert main(["pin", "--snapshot", v1, "--pins", pins, "-q"]) == 0
    app = ReviewApp(ReviewSource.open(SnapshotFetcher(load_snapshot(v2)), pins))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(1200):
            await pilot.pause(0.05)
            if app.main is not None and app.main.loaded:
                break
        tool = next(t for s in app.main.servers for t in s.tools if t.name == "run_job")
        app.open_review(tool)
        await pilot.pause(0.3)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await pilot.press("1")
        changes = review.query_one("#changes", ChangeList)
        diff = review.query_one("#schema-diff", SideBySide)
        at = next(i for i, c in enumerate(changes.changes) if c.rule == rule)
        inp = next(i for i, c in enumerate(changes.changes) if c.pointer.startswith("/inputSchema"))
        changes.move_cursor(row=inp)
        await pilot.pause(0.1)
        assert diff.old_title == "pinned inputSchema"
        changes.move_cursor(row=at)
        await pilot.pause(0.1)
        assert diff.old_title == "pinned execution"
        right = "\n".join(r.right.text for r in diff.rows if r.right is not None)
        assert shown in right and "depth" not in right, right
