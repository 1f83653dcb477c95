"""A server's version is shown with a `v` in front (`v1.2.0`), but many servers report one that
already has it (`v2`, `V1.0`): `check` and the app printed `vv2`, as a user trying the proxy in
front of an SDK server named `v1` saw. Every place that shows it uses one label."""

from __future__ import annotations

from pathlib import Path

import pytest
import tui_sample as sample
from helpers import ready

from mcp_review.cli import main
from mcp_review.engine.snapshot import version_label
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.source import ReviewSource


@pytest.mark.parametrize(
    ("version", "label"),
    [
        ("1.2.0", "v1.2.0"),
        ("v2", "v2"),
        ("V1.0", "V1.0"),
        ("2026.10.19", "v2026.10.19"),
        ("v", "vv"),
    ],
)
def test_version_label(version: str, label: str):
    assert version_label(version) == label


def _versioned(version: str):
    snap = sample.current_snapshot()
    snap.servers["weather"].server_info = {"name": "weather", "version": version}
    return snap


def test_check_shows_a_v_version_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "now.json").write_text(_versioned("v2").dumps())
    main(["pin", "--snapshot", "now.json", "-q"])
    capsys.readouterr()
    main(["check", "-q", "--from-snapshot", "now.json"])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("weather"))
    assert line.endswith(" v2") and "vv2" not in line, line


async def test_the_app_shows_a_v_version_once(tmp_path: Path):
    src = ReviewSource.baseline(
        SnapshotFetcher(_versioned("v2")),
        sample.pinned_snapshot(),
        pins_path=str(tmp_path / "mcp-pins.toml"),
    )
    app = ReviewApp(src)
    async with app.run_test(size=(120, 30), notifications=False) as pilot:
        await ready(app, pilot)
        table = app.screen.query_one("#tools", ToolTable)
        rows = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
        weather = next(r for r in rows if "weather" in r and "tools" in r)
        assert "v2 · " in weather and "vv2" not in weather, weather
