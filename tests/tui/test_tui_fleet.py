"""The list on a big fleet (issue 15 item 4): a row's cells are built when the row is first
drawn, a filter keystroke that hides nothing redraws nothing, and a status computation leaves
no reference cycles (what lets the app freeze a big fleet's objects out of the collector).
Functional checks only: the speed is bench_tui.py's."""

from __future__ import annotations

import copy
import gc

import pytest
import tui_sample as sample
from helpers import press, settle
from helpers import settled as _loaded
from rich.text import Text

from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.source import ReviewSource

SERVERS, PER_SERVER = 4, 60  # 244 rows: many more than a 30-line screen shows


def _tool(s: int, i: int, changed: bool) -> dict:
    props = {
        "q": {"type": "string"},
        "limit": {"type": "integer", "maximum": 50 if changed else 100},
    }
    return {
        "name": f"tool_{s}_{i:03d}",
        "description": f"Tool {i} of server {s}.",
        "inputSchema": {"type": "object", "properties": props},
    }


def _snap(changed: bool) -> Snapshot:
    return Snapshot(
        servers={
            f"srv{s}": ServerSnapshot(
                name=f"srv{s}",
                tools=[
                    ToolDef.from_wire(copy.deepcopy(_tool(s, i, changed and i % 10 == 0)))
                    for i in range(PER_SERVER)
                ],
            )
            for s in range(SERVERS)
        }
    )


def _fleet() -> ReviewSource:
    return ReviewSource.baseline(SnapshotFetcher(_snap(True)), _snap(False))


def _plain(cells) -> list[str]:
    return [c.plain if isinstance(c, Text) else str(c) for c in cells]


async def test_rows_are_built_when_drawn_and_read_as_built_eagerly():
    app = ReviewApp(_fleet())
    async with app.run_test(size=(80, 24)) as pilot:
        await _loaded(app, pilot)
        main = app.main
        table = main.query_one("#tools", ToolTable)
        assert table.row_count == SERVERS * (PER_SERVER + 1)
        tools = [k for k in table.row_keys() if k.startswith("tool\x00")]
        built = [k for k in tools if table.is_built(k)]
        assert len(tools) == SERVERS * PER_SERVER
        assert 0 < len(built) < 60  # the rows on screen (and a few around), not all 240
        # Any row, drawn or not, reads exactly as the row builder makes it.
        for entry in (main.servers[0].tools[0], main.servers[-1].tools[-1]):
            key = "tool\x00" + "\x00".join(entry.key)
            assert _plain(table.get_row(key)) == _plain(main._tool_row(entry))
        # Scrolling to the end draws (and so builds) the last rows.
        await pilot.press("end")
        await pilot.pause()
        last = "tool\x00" + "\x00".join(main.servers[-1].tools[-2].key)
        assert table.is_built(last)
        assert table.cursor_row == table.row_count - 1


async def test_a_filter_key_that_hides_nothing_keeps_the_rows_and_one_that_hides_narrows():
    app = ReviewApp(_fleet())
    async with app.run_test(size=(80, 24)) as pilot:
        await _loaded(app, pilot)
        main = app.main
        table = main.query_one("#tools", ToolTable)
        before = {k: table.cells(k) for k in table.row_keys()}
        await pilot.press("slash", "t")  # every tool is named tool_…: nothing hidden
        await pilot.pause()
        assert main.filter_text == "t"
        assert table.row_count == len(before)
        assert all(table.cells(k) is v for k, v in before.items())  # not rebuilt
        assert "filter: t" in str(main.query_one("#counts").render())
        await press(pilot, *"ool_2_00")
        await settle(pilot)
        keys = table.row_keys()
        tools = [k.split("\x00")[-1] for k in keys if k.startswith("tool\x00")]
        assert tools == [f"tool_2_00{i}" for i in range(10)]
        assert sum(k.startswith("server\x00") for k in keys) == SERVERS
        await press(pilot, *["backspace"] * len("ool_2_00t"))
        await settle(pilot)
        assert main.filter_text == ""
        assert table.row_count == len(before)


def test_a_status_computation_leaves_no_reference_cycles():
    # The app freezes a big fleet's objects out of the cyclic collector (gc.freeze): that is
    # sound only if what a computation builds is freed by reference counting alone.
    for src in (sample.sample_source(), _fleet()):
        src.apply(src.compute(snapshot=src.fetcher.snapshot))  # type: ignore[attr-defined]
        gc.collect()
        for compare in (False, True):
            computed = src.compute(
                snapshot=src.fetcher.snapshot,  # type: ignore[attr-defined]
                compare=compare,
            )
            servers = src.apply(computed)
            for s in servers:
                for t in s.tools:
                    t.pinned  # noqa: B018 - parsed when shown, as the app does
            del computed, servers
            src.apply(
                src.compute(
                    snapshot=src.fetcher.snapshot,  # type: ignore[attr-defined]
                    compare=False,
                )
            )
            assert gc.collect() == 0, compare


# --- full collections wait for a pause in the input (tui/heap.py) ------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Gen2:
    """Counts the full collections CPython really runs (gc.callbacks: the independent truth)."""

    def __init__(self) -> None:
        self.runs = 0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            self.runs += 1

    def close(self) -> None:
        gc.callbacks.remove(self)


def _middle_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)  # each one counts toward the next full collection, as CPython's own do


@pytest.fixture
def thaw():
    before = gc.get_threshold()
    yield
    gc.unfreeze()  # the tests freeze this process's heap: hand it back to the collector
    gc.set_threshold(*before)


def test_a_full_collection_waits_for_a_pause_in_the_input(thaw):
    from mcp_review.tui.heap import FREEZE_TOOLS, MAX_THRESHOLD, QuietCollector

    clock = _Clock()
    heap = QuietCollector(clock)
    default = gc.get_threshold()
    heap.settle(FREEZE_TOOLS - 1)  # a small review: CPython's own schedule
    assert not heap.deferring and gc.get_threshold() == default and not heap.tick()
    gen2 = _Gen2()
    try:
        heap.settle(FREEZE_TOOLS)
        assert heap.deferring and gc.get_freeze_count() > 0
        assert gc.get_threshold() == (default[0], default[1], MAX_THRESHOLD)
        # More middle collections than CPython waits for: it would have run a full one.
        _middle_collections(default[2] + 5)
        assert gen2.runs == 0
        heap.input()
        clock.now += heap.QUIET / 2
        assert not heap.tick() and gen2.runs == 0  # input just came in: not now
        clock.now += heap.QUIET
        assert heap.tick() and gen2.runs == 1 and heap.collections == 1  # quiet: now
        assert not heap.tick() and gen2.runs == 1  # nothing due any more
        # Input that never pauses still gets one once MAX_PENDING middle ones have passed.
        _middle_collections(heap.MAX_PENDING - 1)
        heap.input()
        assert not heap.tick() and gen2.runs == 1
        _middle_collections(1)
        assert heap.tick() and gen2.runs == 2
    finally:
        gen2.close()
        heap.restore()
    assert not heap.deferring and gc.get_threshold() == default


async def test_the_app_defers_full_collections_on_a_fleet_and_hands_them_back_when_it_stops(
    monkeypatch, thaw
):
    import mcp_review.tui.heap as heap_module

    default = gc.get_threshold()
    monkeypatch.setattr(heap_module, "FREEZE_TOOLS", SERVERS * PER_SERVER)  # this fleet is big
    app = ReviewApp(_fleet())
    gen2 = _Gen2()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _loaded(app, pilot)
            heap = app.heap
            assert heap.deferring and gc.get_threshold()[2] == heap_module.MAX_THRESHOLD
            seen, ran = gen2.runs, heap.collections
            typed = heap.last_input
            await pilot.press("down")
            assert heap.last_input > typed  # a key is input
            _middle_collections(default[2])  # a full collection is due
            for _ in range(1200):  # the app's timer runs it once the keys pause
                await pilot.pause(0.05)
                if heap.collections > ran:
                    break
            assert heap.collections == ran + 1
            assert gen2.runs - seen == heap.collections - ran  # none ran on CPython's own
    finally:
        gen2.close()
    assert not app.heap.deferring and gc.get_threshold() == default
