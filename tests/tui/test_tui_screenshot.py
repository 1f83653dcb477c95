"""The command palette's "Screenshot" on a machine with no Downloads folder (a server, a
container: where the operator's walk ran, benchmarks/README.md "The operator's walk on two real
upgrades"): Textual writes into the platform's downloads folder and, when there is none, only
says "Failed to save screenshot". The app saves it in the current folder then, and says where.
Driven through the palette as the operator does (ctrl+p, "screenshot", enter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import settled, until
from textual.command import CommandList, CommandPalette
from tui_sample import sample_source

from mcp_review.tui.app import ReviewApp


def _screenshot_highlighted(app: ReviewApp) -> bool:
    """The palette is open and its highlighted command is "Screenshot" (the search runs in a
    worker: a fixed pause lost the race under load)."""
    screen = app.screen
    if not isinstance(screen, CommandPalette):
        return False
    found = screen.query_one(CommandList)
    at = found.highlighted
    return at is not None and "Screenshot" in str(found.get_option_at_index(at).prompt)


async def _palette_screenshot(app: ReviewApp, pilot) -> None:
    await settled(app, pilot)
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette open")
    for ch in "screenshot":
        await pilot.press(ch)
    await until(pilot, lambda: _screenshot_highlighted(app), '"Screenshot" found and highlighted')
    await pilot.press("enter")


def _whole_svg(folder: Path) -> bool:
    """An SVG in ``folder``, written to its end (seen by name alone, it may still be short)."""
    return any(
        p.read_text(encoding="utf-8").rstrip().endswith("</svg>") for p in folder.glob("*.svg")
    )


def _home_and_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, downloads: bool
) -> tuple[Path, Path]:
    """A home (with a Downloads folder or none) and a current folder to run the app in."""
    home, work = tmp_path / "home", tmp_path / "work"
    (home / "Downloads" if downloads else home).mkdir(parents=True)
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(home / "Downloads"))
    monkeypatch.chdir(work)
    return home, work


async def test_palette_screenshot_lands_in_the_cwd_without_a_downloads_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    home, work = _home_and_work(tmp_path, monkeypatch, downloads=False)
    app = ReviewApp(sample_source())
    async with app.run_test(size=(100, 30)) as pilot:
        await _palette_screenshot(app, pilot)
        # Textual writes the file from a thread: wait for it whole, not only for its name.
        await until(pilot, lambda: _whole_svg(work), "a whole SVG in the current folder")
        svg = next(work.glob("*.svg")).read_text(encoding="utf-8")
        assert svg.startswith("<svg") and "mcp-review" in svg
    assert not (home / "Downloads").exists()


async def test_palette_screenshot_keeps_an_existing_downloads_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    home, work = _home_and_work(tmp_path, monkeypatch, downloads=True)
    app = ReviewApp(sample_source())
    async with app.run_test(size=(100, 30)) as pilot:
        await _palette_screenshot(app, pilot)
        await until(pilot, lambda: _whole_svg(home / "Downloads"), "a whole SVG in Downloads")
    assert not list(work.glob("*.svg"))
