"""Drive the review app on the sample drift and write screenshots/*.svg (run from the repo root)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from textual.widgets import DataTable

from mcp_review.tui.app import ReviewApp
from mcp_review.tui.sample import hostile_source, sample_source

OUT = Path(__file__).resolve().parent.parent / "screenshots"

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
]


async def shoot(name, factory, size, theme, tool, keys) -> Path:
    app = ReviewApp(factory(), theme=theme)
    async with app.run_test(size=size, notifications=False) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if app.main is not None and app.main.loaded:
                break
        if tool is not None:
            table = app.screen.query_one("#tools", DataTable)
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


async def main() -> int:
    OUT.mkdir(exist_ok=True)
    for shot in SHOTS:
        print(await shoot(*shot))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
