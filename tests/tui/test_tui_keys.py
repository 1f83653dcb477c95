"""Keys that never decide by accident (issue 12 #5): Pilot tests on the demo's drift and the
sample servers, asserting on the pin file and audit log on disk."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import tui_sample as sample
from helpers import press, settle
from helpers import ready as _ready
from helpers import select as _select
from textual.widgets import Input

from mcp_review.demo import definitions
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import State
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins, save_pins
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.groups import GroupScreen, GroupsScreen
from mcp_review.tui.screens.modals import (
    ConfirmScreen,
    NoteScreen,
    PolicyScreen,
    ReasonScreen,
)
from mcp_review.tui.screens.review import ReviewScreen
from mcp_review.tui.source import ReviewSource


def _demo_source(tmp_path: Path) -> ReviewSource:
    """The demo's two servers: v1 pinned on disk, v2 served."""

    def snap(version: str) -> Snapshot:
        return Snapshot(
            servers={
                s: ServerSnapshot(
                    name=s,
                    tools=[
                        ToolDef.from_wire(copy.deepcopy(t)) for t in definitions.tools(s, version)
                    ],
                )
                for s in definitions.SERVERS
            }
        )

    pins_path = str(tmp_path / "mcp-pins.toml")
    pf = PinFile(path=pins_path)
    for name, s in snap("v1").servers.items():
        for t in s.tools:
            pf.decide(
                make_pin(name, t, Decision.APPROVED, by="demo", note="v1 baseline"), source="pin"
            )
    save_pins(pf)
    return ReviewSource(SnapshotFetcher(snap("v2")), load_pins(pins_path), pins_path=pins_path)


def _kind(app: ReviewApp, entry: Any) -> tuple[object, ...]:
    """What decides which code each key of the main screen runs on a row: its status (a
    removal's approval is an acknowledgement), whether it is blocked (an approval asks a
    reason), its policy (the policy dialog's choices), how many groups it is in and whether it
    stands alone (``g``: the group screen, the groups view, or a notice), and whether it
    shadows another tool's name (the dialogs mark a look-alike)."""
    grouping = app.source.grouping()
    return (
        entry.status,
        entry.blocked,
        entry.policy,
        min(len(grouping.groups_of(entry.key)), 2),
        grouping.alone_of(entry.key) is not None,
        bool(entry.shadows),
    )


async def test_typing_on_the_demo_main_screen_decides_nothing(tmp_path: Path):
    """ "all good, deploy it" typed on the main screen, on a row of every kind of row the demo
    has (:func:`_kind`; the demo's other rows of a kind run the same code for every key, e.g.
    its four broken, not blocked tools under the review policy): no approval, denial, policy
    change or undo; the pin file and the audit log are byte-identical afterwards."""
    src = _demo_source(tmp_path)
    pins = Path(src.pins_path)
    log = Path(audit.audit_path_for(src.pins_path))
    before = (pins.read_bytes(), log.read_bytes())
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        rows = [t for s in app.main.servers for t in s.tools]
        assert len(rows) >= 10
        kinds = {_kind(app, t): t.name for t in reversed(rows)}  # the first row of each kind
        assert len(kinds) >= 8, kinds
        for name in kinds.values():
            await _select(app, pilot, name)
            await press(pilot, *"all good, deploy it")
            # back on the main screen after each run (every dialog was cancelled), or in the
            # note field the `e` opened, whose text is never saved without enter, or on the
            # group screen the `g` of "good" opened (its `d` asked first and was cancelled)
            while app.screen is not app.main:
                assert isinstance(
                    app.screen,
                    NoteScreen | ConfirmScreen | PolicyScreen | GroupScreen | GroupsScreen,
                ), type(app.screen)
                await press(pilot, "escape")
        assert app.is_running
    assert (pins.read_bytes(), log.read_bytes()) == before


async def test_every_decision_key_on_the_main_screen_asks_first(tmp_path: Path):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "search")  # compatible: not blocked
        for key, screen in (("a", ConfirmScreen), ("d", ConfirmScreen), ("p", PolicyScreen)):
            await press(pilot, key)
            assert isinstance(app.screen, screen), key
            await press(pilot, "x")  # not one of its choices: cancels
            assert app.screen is app.main, key
        assert app.main.current_entry().status is State.CHANGED
        # dialogs show their keys
        await press(pilot, "a")
        shown = " ".join(str(w.render()) for w in app.screen.query("Static, Button"))
        assert "(y)" in shown and "(n)" in shown and "any other key" in shown
        await press(pilot, "y")
        assert app.main.current_entry().status is State.PINNED
        # undo asks too
        await press(pilot, "u")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "space")
        assert app.screen is app.main and app.main.current_entry().status is State.PINNED


async def test_note_on_the_main_screen_is_kept_and_not_lost_on_esc(tmp_path: Path):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "search")
        await press(pilot, "e")
        assert isinstance(app.screen, NoteScreen)
        # keys are text while the field has focus: q, a, d, y do nothing but type
        await press(pilot, *"qady checked")
        assert app.is_running and isinstance(app.screen, NoteScreen)
        await press(pilot, "escape")  # closes without saving ...
        await press(pilot, "e")  # ... but the text is still there
        assert app.screen.query_one("#note", Input).value == "qady checked"
        await press(pilot, *" with ops", "enter")
        await press(pilot, "a", "y")
    pin = load_pins(src.pins_path).get("files", "default", "search")
    assert pin.decision is Decision.APPROVED and pin.note == "qady checked with ops"


async def test_review_screen_note_survives_esc_and_q_quits_everywhere(tmp_path: Path):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "get_forecast")
        await press(pilot, "enter")
        review = app.screen
        assert isinstance(review, ReviewScreen)
        await press(pilot, "e", *"draft text", "escape")
        assert review.draft == "draft text" and review.note == ""
        await press(pilot, "e")
        assert app.screen.query_one("#note", Input).value == "draft text"
        await press(pilot, "escape")
        await press(pilot, "q")  # the review screen: q quits
        assert not app.is_running
    app = ReviewApp(sample.sample_source(pins_path=str(tmp_path / "pins.toml")))
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "search")
        await press(pilot, "p")  # a dialog: q quits (deciding nothing)
        await press(pilot, "q")
        assert not app.is_running


async def test_blocked_approval_on_the_review_screen_asks_a_reason_for_the_audit_log(
    tmp_path: Path,
):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_file")
        assert app.main.current_entry().blocked
        await press(pilot, "enter")
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert isinstance(app.screen, ReasonScreen)
        await press(pilot, *"vendor confirmed the hint fix", "enter")
        assert app.screen is app.main
    rec = audit.read(audit.audit_path_for(src.pins_path))[-1]
    assert (rec["tool"], rec["decision"]) == ("read_file", "approved")
    assert "vendor confirmed the hint fix" in rec["why"] and "blocked:" in rec["why"]


async def test_tab_keys_pressed_before_the_review_tabs_mount_are_honoured(tmp_path: Path):
    """`1`..`5` reaching the review screen in the same moment it is pushed (before its
    TabbedContent has mounted its tabs: the app's own key dispatch, ``_check_bindings``, run
    right after the push) never raise NoMatches and land on the tab asked for, once mounted;
    pressed the ordinary way right behind `enter`, the same."""
    from textual.widgets import TabbedContent

    app = ReviewApp(sample.sample_source(pins_path=str(tmp_path / "pins.toml")))
    async with app.run_test(size=(80, 24)) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "get_forecast")
        entry = app.main.current_entry()
        # `4` alone is the last key of ("5", "4"), which must land on the annotations tab
        # (get_forecast has no output schema: its `5` stays where it is)
        for keys, want in (
            (("2",), "tab-description"),
            (("2", "1"), "tab-schema"),
            (("3",), "tab-replay"),
            (("5", "4"), "tab-annotations"),
        ):
            for deliver in ("before-mount", "pilot"):
                if deliver == "pilot":
                    await pilot.press("enter", *keys)  # Pilot's own delivery
                else:
                    app.open_review(entry)  # pushed, not awaited: nothing mounted yet
                    for k in keys:
                        await app._check_bindings(k)  # what a key event does
                await settle(pilot)
                review = app.screen
                assert isinstance(review, ReviewScreen), (keys, deliver)
                tabs = review.query_one("#tabs", TabbedContent)
                assert tabs.active == want, (keys, deliver, tabs.active)
                assert tabs.active_pane is not None and tabs.active_pane.display
                await press(pilot, "escape")
    assert app.return_code in (None, 0)


def _help_keys() -> set[str]:
    """Every key the help screen names, as Textual spells keys."""
    from mcp_review.tui.screens.modals import HELP

    words = {"esc": "escape", "?": "question_mark", "/": "slash", "↑": "up", "↓": "down"}
    out: set[str] = set()
    for _, rows in HELP:
        for key, _what in rows:
            toks = key.replace("/", " / ").split()
            if "–" in toks:  # a range: "1 – 5"
                i = toks.index("–")
                out.update(str(n) for n in range(int(toks[i - 1]), int(toks[i + 1]) + 1))
            out.update(words.get(t, t) for t in toks if t not in ("–",))
    return out


def test_help_lists_every_key_the_main_and_review_screens_bind():
    """Every key bound by mcp-review's own screens and widgets (not the dialogs, whose keys
    the help sums up as "y / n" and "text") is named on the help screen, so a new key (the
    word diff's `w`) cannot arrive unlisted. Textual's own widget keys are not ours to list."""
    import importlib
    import inspect
    import pkgutil

    import mcp_review.tui.screens as screens
    import mcp_review.tui.widgets as widgets

    bound: dict[str, str] = {}
    for pkg in (screens, widgets):
        for mod in pkgutil.iter_modules(pkg.__path__):
            if mod.name == "modals":
                continue
            m = importlib.import_module(f"{pkg.__name__}.{mod.name}")
            for _, cls in inspect.getmembers(m, inspect.isclass):
                if cls.__module__ != m.__name__ or "BINDINGS" not in cls.__dict__:
                    continue
                for b in cls.BINDINGS:
                    for k in (b.key if hasattr(b, "key") else b[0]).split(","):
                        bound[k.strip()] = f"{cls.__name__}: {b}"
    assert {"1", "5", "b", "enter", "home", "slash"} <= set(bound)  # the walk found them
    assert "w" in _help_keys()  # the word diff's "compute the rest" (branch scale's SideBySide)
    missing = {k: v for k, v in bound.items() if k not in _help_keys()}
    assert not missing, missing
