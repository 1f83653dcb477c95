"""Status recomputation off the UI thread (issue 15 item 3): after a decision the app
recomputes every tool's status in a worker thread, keys keep working meanwhile, a decision made
while it runs is not lost, and the result of a computation that went stale is never shown.

The worker is held on a gate (a threading.Event) so the tests decide while it runs: no timing
assumption, the order of events is forced."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import tui_sample as sample
from helpers import select as _select
from helpers import settle
from helpers import until as _until

from mcp_review.engine.status import State
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.screens.main import MainScreen, ToolTable
from mcp_review.tui.screens.modals import ConfirmScreen


async def _decide(app: ReviewApp, pilot, name: str, key: str) -> None:
    await _select(app, pilot, name)
    await pilot.press(key)
    await _until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "confirm dialog")
    await pilot.press("y")
    await _until(pilot, lambda: app.screen is app.main, "back on the main screen")


class Gated:
    """Wraps ReviewSource.compute: every call after the first ``free`` ones waits until
    released; records what each call computed and which results were applied."""

    def __init__(self, src, free: int) -> None:
        self.src, self.free = src, free
        self.compute, self.apply = src.compute, src.apply
        self.calls: list[object] = []
        self.applied: list[object] = []
        self.started = threading.Event()
        self.release = threading.Event()
        src.compute = self._compute
        src.apply = self._apply

    def _compute(self, *a, **kw):
        n = len(self.calls)
        self.calls.append(None)
        if n >= self.free:
            self.started.set()
            assert self.release.wait(30), "the test never released the worker"
        out = self.compute(*a, **kw)
        self.calls[n] = out
        return out

    def _apply(self, computed):
        self.applied.append(computed)
        return self.apply(computed)


@pytest.fixture
def worker_always(monkeypatch):
    monkeypatch.setattr(MainScreen, "SYNC_TOOLS", 0)  # the sample is small: force the worker


async def test_a_decision_while_status_is_recomputed_is_not_lost(tmp_path: Path, worker_always):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    gate = Gated(src, free=2)  # the fetch's two computations run; the next ones wait
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(
            pilot,
            lambda: app.main is not None and app.main.loaded and not app.main.computing,
            "first fetch",
        )
        main = app.main
        await _decide(app, pilot, "search", "a")  # compatible change: approve
        await _until(pilot, gate.started.is_set, "a recomputation in the worker")
        assert main.computing
        assert "updating" in str(main.query_one("#counts").render())
        # Keys work while it runs: the cursor moves, a dialog opens, another decision lands.
        table = main.query_one("#tools", ToolTable)
        row = table.cursor_row
        await pilot.press("down")
        await pilot.pause()
        assert table.cursor_row == row + 1
        await _decide(app, pilot, "read_file", "d")  # annotation claims more power: deny
        assert src.pins.get("files", "default", "search").approved
        assert not src.pins.get("files", "default", "read_file").approved
        # The first computation saw only the approval: its result is stale and is dropped;
        # one more computation runs with both decisions, and that one is shown.
        gate.release.set()
        await _until(pilot, lambda: not main.computing, "recomputation done")
        # fetch (digests, then every comparison), the stale one, the one with both decisions
        assert len(gate.calls) == 4
        stale, fresh = gate.calls[2], gate.calls[3]
        assert stale not in gate.applied and fresh in gate.applied
        assert gate.applied[-1] is fresh
        by_name = {t.name: t for s in main.servers for t in s.tools if s.name == "files"}
        assert by_name["search"].status is State.PINNED
        assert by_name["read_file"].status is State.DENIED
        # and the stale result really differed: it did not know about the denial
        stale_by_name = {t.name: t for s in stale.servers for t in s.tools if s.name == "files"}
        assert stale_by_name["read_file"].status is not State.DENIED
        assert "updating" not in str(main.query_one("#counts").render())


async def test_a_burst_of_decisions_computes_once_after_the_running_computation(
    tmp_path: Path, worker_always
):
    """Issue 31 item 6: the status worker is exclusive. Decisions made while one computation
    runs cancel each other's computations: one computation runs after the running one, with
    all of them, and it alone is shown (no thread per decision competing for the
    interpreter)."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    gate = Gated(src, free=2)
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(
            pilot,
            lambda: app.main is not None and app.main.loaded and not app.main.computing,
            "first fetch",
        )
        main = app.main
        await _decide(app, pilot, "search", "a")
        await _until(pilot, gate.started.is_set, "a recomputation in the worker")
        await _decide(app, pilot, "read_file", "d")
        await _decide(app, pilot, "list_dir", "d")
        gate.release.set()
        await _until(pilot, lambda: not main.computing, "recomputation done")
        await settle(pilot)
        # fetch (digests, comparisons), the running one, one with all three decisions
        assert len(gate.calls) == 4
        assert gate.applied[-1] is gate.calls[3] and gate.calls[2] not in gate.applied
        by_name = {t.name: t for s in main.servers for t in s.tools if s.name == "files"}
        assert by_name["search"].status is State.PINNED
        assert by_name["read_file"].status is State.DENIED
        assert by_name["list_dir"].status is State.DENIED


async def test_a_failed_recomputation_is_reported_and_the_app_stays_up(
    tmp_path: Path, worker_always
):
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(
            pilot,
            lambda: app.main is not None and app.main.loaded and not app.main.computing,
            "first fetch",
        )
        compute = src.compute

        def broken(*a, **kw):
            raise RuntimeError("disk on fire")

        src.compute = broken
        await _decide(app, pilot, "search", "a")
        await _until(pilot, lambda: not app.main.computing, "the failure handled")
        assert any("disk on fire" in str(n.message) for n in app._notifications)
        # The decision itself was written; the next recomputation works again.
        assert src.pins.get("files", "default", "search").approved
        src.compute = compute
        await _decide(app, pilot, "read_file", "d")
        await _until(pilot, lambda: not app.main.computing, "recomputed")
        by_name = {t.name: t for s in app.main.servers for t in s.tools if s.name == "files"}
        assert by_name["search"].status is State.PINNED
        assert by_name["read_file"].status is State.DENIED
        assert app.is_running


async def test_a_big_fleet_shows_digests_first_and_nothing_is_decided_on_them(
    tmp_path: Path, worker_always
):
    """First frame by digests (issue 15 item 4): changed tools read "comparing…" until their
    comparison is shown, and neither opening nor deciding works on them meanwhile (their
    policy could be block: fail closed)."""
    src = sample.sample_source(pins_path=str(tmp_path / "pins.toml"))
    gate = Gated(src, free=1)  # the digest-only pass runs; the full comparison waits
    app = ReviewApp(src)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: app.main is not None and app.main.loaded, "first frame")
        main = app.main
        assert main.computing
        # the comparisons start once the digest-only frame is drawn (and wait at the gate)
        await _until(pilot, lambda: gate.started.is_set(), "comparisons started")
        entries = {t.name: t for s in main.servers for t in s.tools if s.name == "files"}
        pending = [t for s in main.servers for t in s.tools if t.pending]
        assert pending and all(
            t.status is State.CHANGED and t.summary == "comparing…" for t in pending
        )
        assert entries["search"].pending
        before = (tmp_path / "pins.toml").read_bytes()
        await _select(app, pilot, "search")
        for key in ("a", "d", "enter"):
            await pilot.press(key)
            await pilot.pause(0.05)
            assert app.screen is main, key  # no dialog, no review screen
        assert app.decide(entries["search"], "approved") is False
        assert (tmp_path / "pins.toml").read_bytes() == before
        assert any("still comparing" in str(n.message) for n in app._notifications)
        gate.release.set()
        await _until(pilot, lambda: not main.computing, "every comparison shown")
        entries = {t.name: t for s in main.servers for t in s.tools if s.name == "files"}
        assert not any(t.pending for s in main.servers for t in s.tools)
        # the same statuses as a synchronous computation over the same pins
        truth = {
            (t.server, t.name): (t.status, t.policy) for s in src.compute().servers for t in s.tools
        }
        assert {
            (t.server, t.name): (t.status, t.policy) for s in main.servers for t in s.tools
        } == truth
        await _decide(app, pilot, "search", "a")
        await _until(pilot, lambda: not main.computing, "recomputed")
        assert src.pins.get("files", "default", "search").approved


def test_digest_only_status_marks_exactly_the_changed_tools_pending():
    from mcp_review.engine.status import PENDING_REASON, compute_status

    src = sample.sample_source()
    snap = sample.current_snapshot()
    full = compute_status(snap, src.pins, calls=src.calls)
    quick = compute_status(snap, src.pins, calls=src.calls, compare=False)
    assert [t.key for t in full.tools] == [t.key for t in quick.tools]
    for f, q in zip(full.tools, quick.tools, strict=True):
        if f.comparison is not None:
            assert q.pending and q.state is State.CHANGED and q.comparison is None
            assert q.policy.reasons[-1] == PENDING_REASON or PENDING_REASON in q.policy.reasons
            assert str(q.policy.outcome) in ("review", "block")
        else:
            assert not q.pending
            assert (q.state, q.policy, q.notes) == (f.state, f.policy, f.notes)


def _counts(app: ReviewApp) -> str:
    from textual.widgets import Static

    assert app.main is not None
    return str(app.main.query_one("#counts", Static).render())


async def test_before_the_first_status_the_counts_line_never_says_nothing_to_review():
    """While the servers are read the counts line says so; "0 to review" would read as a
    clean bill before anything is known."""
    app = ReviewApp(sample.sample_source(delay=60))
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: app.main is not None and app.main.is_mounted, "mounted")
        await pilot.pause(0.1)
        line = _counts(app)
        assert "reading 4 servers…" in line and "to review" not in line, line


async def test_a_fetch_that_fails_says_so_on_the_counts_line_and_r_fetches_again():
    from mcp_review.tui.fetchers import SnapshotFetcher

    class FailsOnce(SnapshotFetcher):
        calls = 0

        async def fetch(self, progress):  # type: ignore[no-untyped-def]
            FailsOnce.calls += 1
            if FailsOnce.calls == 1:
                raise RuntimeError("the config's servers could not be read")
            return await super().fetch(progress)

    source = sample.sample_source()
    source.fetcher = FailsOnce(source.fetcher.snapshot)  # type: ignore[attr-defined]
    app = ReviewApp(source)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, lambda: app.main is not None and app.main.fetch_failed, "failed")
        line = _counts(app)
        assert "fetch failed: r fetches again" in line and "to review" not in line, line
        await pilot.press("r")
        await _until(pilot, lambda: app.main.loaded, "loaded")
        await settle(pilot)
        line = _counts(app)
        assert "to review" in line and "fetch failed" not in line, line
