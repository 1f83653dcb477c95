"""`mcp-review review` starts the app before it reads the pin file and the snapshot (a fleet's
take a second): the app says "loading…" meanwhile and nothing on screen can decide anything
until both are read and the status is computed; a pin file that does not read still ends the
command with exit 2, the file named and left untouched, as when it was read before the app.

The read is held on a gate (a threading.Event) so the tests act while it runs: no timing
assumption, the order of events is forced."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
import tui_sample as sample
from helpers import until as _until
from textual.widgets import Static

from mcp_review.cli import build_parser
from mcp_review.commands import review
from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.services.inputs import resolve_paths
from mcp_review.tui.app import LoadingScreen, ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.main import MainScreen
from mcp_review.tui.source import ReviewSource


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pin file approving the sample's pinned tools, and a snapshot of what they serve now
    (changed, new and removed tools); no config in the directory."""
    monkeypatch.chdir(tmp_path)
    ReviewSource.baseline(
        SnapshotFetcher(sample.current_snapshot()),
        sample.pinned_snapshot(),
        pins_path=str(tmp_path / "mcp-pins.toml"),
    )
    (tmp_path / "snap.json").write_text(sample.current_snapshot().dumps())
    return tmp_path


def _app(*argv: str) -> ReviewApp:
    args = build_parser().parse_args(["review", *argv])
    return review.build_app(args)


class Gate:
    """Holds the app's read of its source until released."""

    def __init__(self, app: ReviewApp) -> None:
        assert app._load is not None, "the command reads its files in the app"
        self.read = app._load
        self.started = threading.Event()
        self.release = threading.Event()
        app._load = self._gated

    def _gated(self) -> ReviewSource:
        self.started.set()
        assert self.release.wait(30), "the test never released the read"
        return self.read()


DECIDING = ["a", "d", "enter", "n", "A", "S", "P", "p", "u", "e", "r", "slash", "y"]
"""Every key the list binds that decides, opens a decision or moves to one (and `y`)."""


async def test_the_app_says_loading_and_nothing_is_decidable_before_the_pins_are_read(work):
    pins = work / "mcp-pins.toml"
    before = pins.read_bytes()
    audit = work / "mcp-pins.audit.jsonl"
    audit_before = audit.read_bytes()
    app = _app("--snapshot", "snap.json", "--pins", "mcp-pins.toml")
    gate = Gate(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, gate.started.is_set, "the read started")
        await _until(pilot, lambda: isinstance(app.screen, LoadingScreen), "the loading screen")
        line = str(app.screen.query_one("#loading", Static).render())
        assert "loading…" in line and "mcp-pins.toml" in line and "snap.json" in line
        for key in DECIDING:
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, LoadingScreen), key  # no dialog, no list
            assert app.main is None
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert not any("pprove" in t or "Undo" in t or "olicy" in t for t in titles), titles
        assert pins.read_bytes() == before and audit.read_bytes() == audit_before

        gate.release.set()
        await _until(
            pilot,
            lambda: app.main is not None and app.main.loaded and not app.main.computing,
            "the list with every comparison",
        )
        assert isinstance(app.screen, MainScreen)
        shown = {
            (t.server, t.name): (t.status.value, t.policy)
            for s in app.main.servers
            for t in s.tools
        }
    # The same statuses the headless commands compute from the same two files.
    inp = resolve_paths(config=None, pins="mcp-pins.toml", snapshot="snap.json")
    report = inp.status(inp.snapshot())
    truth = {(t.server, t.tool): (t.state.value, t.policy.outcome) for t in report.tools}
    assert shown == truth
    assert {"changed", "new", "removed"} <= {state for state, _ in truth.values()}
    assert pins.read_bytes() == before and audit.read_bytes() == audit_before


async def test_quitting_while_loading_leaves_everything_as_it_was(work):
    pins = work / "mcp-pins.toml"
    before = pins.read_bytes()
    app = _app("--snapshot", "snap.json", "--pins", "mcp-pins.toml")
    gate = Gate(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await _until(pilot, gate.started.is_set, "the read started")
        await pilot.press("q")
        gate.release.set()
    assert app.main is None and app.load_error is None
    assert pins.read_bytes() == before


def _in_a_terminal(argv: list[str], cwd: Path, timeout: float = 120) -> tuple[int, str]:
    """Run ``argv`` on a real pseudo-terminal (120x36), as a person does; its exit code and
    everything it wrote (the app's frames and stderr share the terminal)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    p = subprocess.Popen(
        argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    out = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child's side is closed
                    break
                if not chunk:
                    break
                out += chunk
            elif p.poll() is not None:
                break
        else:
            raise AssertionError(f"still running after {timeout} s: {bytes(out)[-2000:]!r}")
        return p.wait(timeout), out.decode("utf-8", "replace")
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)


def _headless_review(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``mcp-review ARGV`` in this process, the app run headless: its exit code and stderr."""
    import contextlib
    import io

    from mcp_review.cli import main

    run = ReviewApp.run
    monkeypatch.setattr(ReviewApp, "run", lambda self, **kw: run(self, headless=True, **kw))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, err.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, why, terminal",
    [
        # One kind on a real terminal, as a person runs it: the app takes the terminal, ends,
        # gives it back and the error is printed after. What the terminal sees is the same
        # whichever way the pin file fails to read (the app exits on the read's error), so
        # the other kinds run the same command in this process, the app headless: each
        # kind's own message, exit 2, the file untouched.
        ("malformed", "cannot parse the pin file", True),
        ("link to a shell rc", "not an mcp-review pin file", False),
        ("digest forged", "do not verify", False),
    ],
)
def test_a_pin_file_that_does_not_read_is_exit_2_named_and_untouched(
    work, kind, why, terminal, monkeypatch
):
    bad = work / "bad.toml"
    if kind == "malformed":
        bad.write_bytes((work / "mcp-pins.toml").read_bytes() + b"\n[servers\n")
        target = bad
    elif kind == "link to a shell rc":
        target = work / ".bashrc"
        target.write_text("export PATH=$HOME/bin:$PATH\n")
        bad.symlink_to(target)
    else:
        text = (work / "mcp-pins.toml").read_text()
        i = text.index('digest = "sha256:') + len('digest = "sha256:')
        bad.write_text(text[:i] + ("0" if text[i] != "0" else "1") + text[i + 1 :])
        target = bad
    before = target.read_bytes()
    argv = ["review", "--snapshot", "snap.json", "--pins", "bad.toml"]
    if terminal:
        rc, out = _in_a_terminal([sys.executable, "-m", "mcp_review", *argv], work)
    else:
        rc, out = _headless_review(argv, monkeypatch)
    assert rc == 2, out[-3000:]
    assert "mcp-review: error: bad.toml" in out and why in out, out[-3000:]
    assert "Traceback" not in out
    assert target.read_bytes() == before
    assert not (work / "bad.audit.jsonl").exists()


def _statuses(computed) -> dict[tuple[str, str], tuple[str, object, bool]]:
    return {
        (t.server, t.tool): (t.state.value, t.policy.outcome, t.pending)
        for t in computed.report.tools
    }


async def test_a_status_computed_ahead_answers_only_the_same_question(tmp_path):
    """The command computes the list's first status while it reads the files; the list's first
    compute() gets that result only for the same snapshot, pin state and comparison."""
    src = ReviewSource.baseline(
        SnapshotFetcher(sample.current_snapshot()),
        sample.pinned_snapshot(),
        pins_path=str(tmp_path / "mcp-pins.toml"),
    )
    snap = src.snapshot_given
    assert snap is not None
    for compare in (True, False):
        src.compute_ahead(compare=compare)
        ahead = src._ready[3]
        assert src.compute(src.pins_view(), snap, compare=compare) is ahead  # used, once
        fresh = src.compute(src.pins_view(), snap, compare=compare)
        assert fresh is not ahead and _statuses(fresh) == _statuses(ahead)
    # Asked with the other comparison: computed again (digests only vs every comparison).
    src.compute_ahead(compare=False)
    full = src.compute(src.pins_view(), snap, compare=True)
    assert not any(pending for _, _, pending in _statuses(full).values())
    digests = src.compute(src.pins_view(), snap, compare=False)
    assert any(pending for _, _, pending in _statuses(digests).values())  # the flag matters
    # A decision in between: computed again, with it.
    assert await src.fetch(lambda *_: None) is snap  # what the list does first
    changed = next(
        t for s in src.entries() for t in s.tools if t.status.value == "changed" and not t.blocked
    )
    src.compute_ahead(compare=True)
    src.decide(changed, "approved")
    after = src.compute(src.pins_view(), snap, compare=True)
    assert _statuses(after)[(changed.server, changed.name)][0] == "pinned"


def _fleet(changed: bool) -> Snapshot:
    def tool(s: int, i: int) -> dict:
        lowered = changed and i % 10 == 0
        return {
            "name": f"tool_{s}_{i:03d}",
            "description": f"Tool {i} of server {s}.",
            "inputSchema": {
                "type": "object",
                "properties": {"limit": {"type": "integer", "maximum": 50 if lowered else 100}},
            },
        }

    return Snapshot(
        servers={
            f"server-{s}": ServerSnapshot(
                name=f"server-{s}", tools=[ToolDef.from_wire(tool(s, i)) for i in range(100)]
            )
            for s in range(4)
        }
    )


async def test_on_a_fleet_the_first_list_is_digests_only_and_a_change_waits_for_its_comparison(
    tmp_path, monkeypatch
):
    """400 tools (above MainScreen.SYNC_TOOLS): the status computed while loading is the digest
    one, so the list first shows changed tools "comparing…" and refuses to decide them; the
    comparisons (held here) then make them decidable."""
    monkeypatch.chdir(tmp_path)
    ReviewSource.baseline(
        SnapshotFetcher(_fleet(True)), _fleet(False), pins_path=str(tmp_path / "mcp-pins.toml")
    )
    (tmp_path / "snap.json").write_text(_fleet(True).dumps())
    pins = tmp_path / "mcp-pins.toml"
    before = pins.read_bytes()
    app = _app("--snapshot", "snap.json", "--pins", "mcp-pins.toml")
    read = app._load
    assert read is not None
    release = threading.Event()
    ahead: list[bool] = []

    def load() -> ReviewSource:
        src = read()
        ahead.append(src._ready is not None and src._ready[2] is False)  # digests only
        compute = src.compute

        def held(*a, **kw):  # the comparisons wait until the test has tried to decide
            if kw.get("compare", True):
                assert release.wait(30), "the test never released the comparisons"
            return compute(*a, **kw)

        src.compute = held
        return src

    app._load = load
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _until(pilot, lambda: app.main is not None and app.main.loaded, "the list")
        assert ahead == [True]
        main = app.main
        pending = [t for s in main.servers for t in s.tools if t.pending]
        assert len(pending) == 40 and all(t.status.value == "changed" for t in pending)
        table = main.query_one("#tools")
        table.move_cursor(row=table.get_row_index(main._keys[id(pending[0])]))
        await pilot.pause()
        assert main.current_entry() is pending[0]
        for key in ("a", "d", "enter"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is main, key  # no dialog: still comparing
        assert any("still comparing" in n.message for n in app._notifications)
        assert pins.read_bytes() == before

        release.set()
        await _until(pilot, lambda: not main.computing, "every comparison")
        assert not any(t.pending for s in main.servers for t in s.tools)
        await pilot.press("a")
        await _until(pilot, lambda: app.screen is not main, "the confirm dialog")
