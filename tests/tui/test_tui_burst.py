"""A burst of keys never decides and never stacks dialogs (issue 25 item 11).

Keys typed faster than a dialog opens (``ax``, ``dxy``, ``axxy``, ``asdf`` in one burst) used to
reach the screen under the dialog: the dialog then waited for ``y`` with the cancelling key
already spent, or a second decision dialog opened over the first. A key that arrives while a
dialog is opening belongs to that dialog (and any key but its own cancels it), and no second
decision dialog opens while one is open.

Bursts are sent two ways: Pilot's ``press`` with several keys at once, and raw, every key handed
to the app's driver before the app has handled the first (what a terminal delivers when keys
are typed or pasted faster than a frame). Evidence: the pin file and audit log on disk are
byte-identical, at most one dialog was ever open at a time, and no dialog is left waiting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tui_sample as sample
from helpers import key_event, settle, until
from helpers import select as _select
from helpers import settled as _ready
from textual.screen import ModalScreen

from mcp_review.store import audit
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.modals import NoteScreen, ReasonScreen
from mcp_review.tui.screens.review import ReviewScreen


async def _raw_burst(app: ReviewApp, pilot: Any, keys: list[str]) -> None:
    """Every key handed to the driver at once, before the app handles the first; then until
    the app has handled them all and what they started (``helpers.settle``)."""
    driver = app._driver
    assert driver is not None
    for k in keys:
        driver.send_message(key_event(app, k))  # the events pilot.press would send
    await settle(pilot)


async def _pilot_burst(app: ReviewApp, pilot: Any, keys: list[str]) -> None:
    await pilot.press(*keys)
    await settle(pilot)


BURSTS = {"raw": _raw_burst, "pilot": _pilot_burst}


class _Watch:
    """The most modal screens (dialogs) ever stacked at once (since the last :meth:`reset`)."""

    def __init__(self, app: ReviewApp):
        self.most = 0
        push = app.push_screen

        def watched(*a: Any, **kw: Any) -> Any:
            out = push(*a, **kw)
            self.most = max(self.most, sum(isinstance(s, ModalScreen) for s in app.screen_stack))
            return out

        app.push_screen = watched  # type: ignore[method-assign]

    def reset(self) -> None:
        self.most = 0


def _on_disk(src: Any) -> tuple[bytes, bytes]:
    pins = Path(src.pins_path)
    log = Path(audit.audit_path_for(src.pins_path))
    return pins.read_bytes(), (log.read_bytes() if log.exists() else b"")


# (tool, keys): every deciding key of the main screen, then a key that is not its dialog's
MAIN = [
    ("search", "ax"),
    ("search", "dxy"),
    ("search", "axxy"),
    ("search", "asdf"),
    ("search", "Ax"),
    ("search", "Px"),
    ("search", "gx"),
    ("search", "px"),
    ("search", "ux"),
    ("read_file", "ax"),  # blocked: the confirmation before the reason
    ("read_file", "axy"),
    ("read_file", "dx"),
]


@pytest.mark.parametrize("how", list(BURSTS))
async def test_a_burst_on_the_main_screen_decides_nothing_and_leaves_no_dialog(
    tmp_path: Path, how: str
):
    """Every burst of MAIN, one after the other in one app: each case starts where a fresh
    app would (the main screen alone, nothing decided: asserted before it runs) and must
    leave it so (on the main screen, the pin file and audit log byte-identical), so a case
    sees nothing of the one before it."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        start, fresh = _on_disk(src), app.screen_stack
        watch = _Watch(app)
        for tool, keys in MAIN:
            assert app.screen_stack == fresh, (tool, keys)
            await _select(app, pilot, tool)
            assert _on_disk(src) == start
            watch.reset()
            await BURSTS[how](app, pilot, list(keys))
            assert watch.most <= 1, f"{tool} {keys!r}: {watch.most} dialogs stacked"
            assert app.screen is app.main, f"{tool} {keys!r} left {type(app.screen).__name__} open"
            assert _on_disk(src) == start, f"{tool} {keys!r} decided something"


@pytest.mark.parametrize("how", list(BURSTS))
async def test_keys_after_e_are_the_notes_text(tmp_path: Path, how: str):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "search")
        before = _on_disk(src)
        watch = _Watch(app)
        await BURSTS[how](app, pilot, list("eady"))
        assert isinstance(app.screen, NoteScreen) and watch.most == 1
        from textual.widgets import Input

        assert app.screen.query_one(Input).value == "ady"
        assert _on_disk(src) == before


@pytest.mark.parametrize("how", list(BURSTS))
async def test_a_burst_after_yes_to_a_blocked_approval_lands_in_the_reason(
    tmp_path: Path, how: str
):
    """``a`` ``y`` on a blocked tool opens the reason field: the keys after it are its text,
    never an approval without a reason, and ``enter`` without one approves nothing."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_file")
        before = _on_disk(src)
        watch = _Watch(app)
        await BURSTS[how](app, pilot, ["a", "y", "enter", "d"])
        assert watch.most <= 1
        assert isinstance(app.screen, ReasonScreen), type(app.screen).__name__
        from textual.widgets import Input

        # enter with no reason approved nothing; the "d" after it was typed, not submitted
        # (it was: the field's enter ran after the "d", approving with the reason "d")
        assert app.screen.query_one(Input).value == "d"
        assert _on_disk(src) == before


@pytest.mark.parametrize("how", list(BURSTS))
async def test_a_reason_typed_in_one_burst_is_recorded_whole(tmp_path: Path, how: str):
    """The deliberate path, typed fast: ``a`` ``y``, a reason, enter: approved with exactly the
    reason typed before enter (the keys after it are not part of it)."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_file")
        await BURSTS[how](app, pilot, ["a", "y", *"vetted by ops", "enter", *"zz"])
    log = Path(audit.audit_path_for(src.pins_path)).read_text()
    # services.decisions.audit_why (issue 31 item 2): the CLI's wording, the reason last.
    assert '"why": "approved (changed: ' in log, log[-600:]
    assert '; confirmed in the review app]: vetted by ops"' in log, log[-600:]


REVIEW = ["ax", "axy", "dax"]


@pytest.mark.parametrize("how", list(BURSTS))
async def test_a_burst_on_the_review_screen_of_a_blocked_tool_decides_nothing(
    tmp_path: Path, how: str
):
    """Each burst of REVIEW on read_file's review screen, one after the other on the same
    screen: each must leave it open with nothing decided, where the next one starts."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_file")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen")
        review, opened = app.screen, app.screen_stack
        before = _on_disk(src)
        watch = _Watch(app)
        for keys in REVIEW:
            watch.reset()
            # "d" denies at once on the review screen (its own key, no dialog): start with "a"
            await BURSTS[how](app, pilot, list(keys.removeprefix("d")))
            assert watch.most <= 1, keys
            assert app.screen is review, (keys, type(app.screen).__name__)
            assert app.screen_stack == opened, keys
            assert _on_disk(src) == before, keys


# The group screen (review by kind): `g` opens a screen, not a dialog; its deciding keys ask
GROUP = [["g", "a", "x"], ["g", "d", "x", "y"], ["g", "space", "a", "s", "d", "f"]]


@pytest.mark.parametrize("how", list(BURSTS))
async def test_a_burst_on_the_group_screen_decides_nothing_and_leaves_no_dialog(
    tmp_path: Path, how: str
):
    """Each burst of GROUP (its ``g`` opens stat_path's group from the list), one after the
    other in one app: each must leave the group screen open (no dialog) with nothing decided;
    escape then goes back to the list, where the next case starts as in a fresh app (asserted),
    and opens a new group screen (nothing left out)."""
    from mcp_review.tui.screens.groups import GroupScreen

    src = sample.groups_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        before, fresh = _on_disk(src), app.screen_stack
        watch = _Watch(app)
        for keys in GROUP:
            assert app.screen_stack == fresh, keys
            await _select(app, pilot, "stat_path")
            watch.reset()
            await BURSTS[how](app, pilot, keys)
            assert watch.most <= 1, f"{keys!r}: {watch.most} dialogs stacked"
            assert isinstance(app.screen, GroupScreen), f"{keys!r} left {type(app.screen).__name__}"
            assert _on_disk(src) == before, f"{keys!r} decided something"
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.main, "back on the list")
