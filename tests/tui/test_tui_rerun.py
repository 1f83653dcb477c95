"""The app's `b` on a tool's replay tab: plan, confirm, re-send, outcomes beside the recorded
result; on the demo workspace (devtools over HTTP, whose read_file answer changed at v2)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from helpers import ready as _loaded
from helpers import until as _until

pytestmark = pytest.mark.slow


def _entry(app: Any, server: str, tool: str) -> Any:
    return next(t for s in app.main.servers for t in s.tools if s.name == server and t.name == tool)


def _panel_text(screen: Any) -> str:
    from textual.widgets import Static

    return str(screen.query_one("#rerun-text", Static).content)


def test_b_asks_then_reruns_and_shows_the_changed_answer(tmp_path: Path) -> None:
    from tui_sample import warm_drifted

    from mcp_review.commands.demo import make_app
    from mcp_review.tui.screens.modals import ConfirmScreen
    from mcp_review.tui.screens.review import ReviewScreen
    from mcp_review.tui.widgets.diff_view import SideBySide

    got: dict[str, Any] = {}

    async def drive(app: Any) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _loaded(app, pilot)
            app.open_review(_entry(app, "devtools", "read_file"))
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            await pilot.press("b")
            await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            got["question"] = app.screen.body
            await pilot.press("y")
            await _until(pilot, lambda: "changed" in _panel_text(screen), "the outcome")
            got["panel"] = _panel_text(screen)
            diff = screen.query_one("#rerun-diff", SideBySide)
            got["diff_shown"] = diff.display and diff.changed
            got["tab"] = screen.query_one("#tabs").active
            # deploy: destructive and changed; `b` plans, nothing to send, no question.
            await pilot.press("escape")
            app.open_review(_entry(app, "devtools", "deploy"))
            await pilot.pause()
            screen2 = app.screen
            await pilot.press("b")
            await _until(pilot, lambda: "skipped" in _panel_text(screen2), "the plan")
            got["deploy_panel"] = _panel_text(screen2)
            got["deploy_asked"] = isinstance(app.screen, ConfirmScreen)

    with warm_drifted(tmp_path / "ws") as (ws, _):
        asyncio.run(drive(make_app(ws)))
    assert "send               read_file" in got["question"]
    assert "deploy/staging.yaml" in got["question"]
    assert "/content/0/text" in got["panel"] and '"rolling" → "recreate"' in got["panel"]
    assert got["diff_shown"] and got["tab"] == "tab-replay"
    assert "live definition is not the approved one" in got["deploy_panel"]
    assert got["deploy_asked"] is False
