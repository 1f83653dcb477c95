"""Drive the review app and write screenshots/*.svg (run from the repo root).

Two sets: the screens and modals on the sample drift (``tests/tui_sample.py``), and each
finding of ``mcp-review demo`` on its real bundled servers (``demo-*.svg``, for the README).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import ToolTable

ROOT = Path(__file__).resolve().parent.parent
# The sample drift is test data (tests/tui_sample.py), not part of the package.
sys.path.insert(0, str(ROOT / "tests"))
from tui_sample import groups_source, hostile_source, sample_source  # noqa: E402

OUT = ROOT / "screenshots"

# (file name, source factory, terminal size, theme, tool to select or None, keys to press)
SHOTS = [
    ("main", sample_source, (100, 30), None, None, ()),
    ("main-80x24", sample_source, (80, 24), None, None, ()),
    ("main-light", sample_source, (120, 34), "textual-light", None, ()),
    ("review-replay", sample_source, (110, 32), None, "get_forecast", ("enter",)),
    ("review-schema", sample_source, (110, 32), None, "get_forecast", ("enter", "1", "down")),
    ("review-description", sample_source, (100, 28), None, "list_dir", ("enter",)),
    ("review-annotations", sample_source, (100, 28), None, "read_file", ("enter", "4")),
    ("review-output", sample_source, (100, 28), None, "create_ticket", ("enter", "5")),
    ("confirm-blocked", sample_source, (100, 28), None, "read_file", ("enter", "a")),
    ("approve-compatible", sample_source, (100, 28), None, "search", ("A",)),
    ("policy", sample_source, (100, 28), None, "read_file", ("p",)),
    ("help", sample_source, (100, 34), None, None, ("question_mark",)),
    ("hostile", hostile_source, (100, 30), None, None, ()),
    ("groups", groups_source, (110, 24), None, None, ("G",)),
    ("group", groups_source, (110, 24), None, "find_notes", ("g", "down", "space")),
]


async def shoot(name, factory, size, theme, tool, keys) -> Path:
    app = ReviewApp(factory(), theme=theme)
    return await _drive(app, name, size, tool, keys)


async def _drive(app: ReviewApp, name, size, tool, keys) -> Path:
    async with app.run_test(size=size, notifications=False) as pilot:
        for _ in range(500):
            await pilot.pause(0.02)
            if app.main is not None and app.main.loaded:
                break
        if tool is not None:
            table = app.screen.query_one("#tools", ToolTable)
            for row in range(table.row_count):
                table.move_cursor(row=row)
                e = app.main.current_entry()
                if e is not None and e.name == tool:
                    break
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        return Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))


def demo_shots() -> list[tuple[str, str | None, tuple[str, ...]]]:
    from mcp_review.demo.definitions import SHADOW_NAME

    # (file name, tool to select, keys): one per finding the README walks through.
    return [
        ("demo-main", None, ()),
        ("demo-rug-pull", "lint_file", ("enter", "2")),
        ("demo-homoglyph", SHADOW_NAME, ("enter",)),
        ("demo-rename-replay", "deploy", ("enter", "3")),
        ("demo-annotation-relaxed", "deploy", ("enter", "4")),
        ("demo-c5-witness", "run_query_strict", ("enter", "3")),
        ("demo-enum-narrowed", "run_query_export", ("enter", "1")),
        ("demo-output-schema", "table_stats", ("enter",)),
        ("demo-removed", "export_csv", ("enter",)),
    ]


def shoot_demo() -> None:
    """The demo's real servers, pinned at v1 and serving v2, as `mcp-review demo` shows them."""
    from mcp_review.demo.workspace import drifted
    from mcp_review.services.inputs import resolve_paths
    from mcp_review.tui.source import ReviewSource

    with tempfile.TemporaryDirectory(prefix="mcp-review-shots-") as root:
        with drifted(root) as (ws, _urls):
            for name, tool, keys in demo_shots():
                inp = resolve_paths(config=str(ws.config_path), pins=str(ws.pins_path))
                app = ReviewApp(
                    ReviewSource.from_inputs(inp), subtitle="demo · pinned v1, serving v2"
                )
                # drifted() fetches synchronously (its own event loop): one loop per shot.
                print(asyncio.run(_drive(app, name, (120, 36), tool, keys)))


async def shoot_samples() -> None:
    for shot in SHOTS:
        print(await shoot(*shot))


def main() -> int:
    OUT.mkdir(exist_ok=True)
    asyncio.run(shoot_samples())
    shoot_demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
