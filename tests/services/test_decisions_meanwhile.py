"""Decisions that never go missing (issue 25 items 9 and 10), on a real pin file on disk with the
real CLI deciding while the app is open.

- The app's undo restores what its own decision replaced only while the pin still holds that
  decision; a decision made meanwhile (``mcp-review approve ... --by alice``) is never thrown
  away: the undo refuses and says who changed it.
- A decision made in the app on a pin that changed on disk since the screen was computed asks
  again, showing the new state.
- Audit records are never backdated: ``ts`` is when the record is written, ``decided_at`` the
  decision's own time, and the log is in time order whatever command decided.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import press, settle, stdio_server_argv
from helpers import ready as _ready
from helpers import select as _select

from mcp_review.cli import main
from mcp_review.engine import clock
from mcp_review.engine.status import State
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins
from mcp_review.store.readers import load_snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.main import ToolTable
from mcp_review.tui.screens.modals import ConfirmScreen
from mcp_review.tui.source import ReviewSource

KEY = ("memory", "default", "read_graph")


def _tool(name: str, description: str) -> dict:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"depth": {"type": "integer"}}},
    }


def _snapshot(path: Path, read_graph: str, *, instructions: str | None = None) -> str:
    server: dict = {
        "principal": "default",
        "server_info": {"name": "memory", "version": "1.0.0"},
        "protocol_version": "2025-11-25",
        "tools": [
            _tool("read_graph", read_graph),
            _tool("create_entities", "Create entities in the knowledge graph."),
        ],
    }
    if instructions is not None:
        server["instructions"] = instructions
    path.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {"memory": server},
            }
        )
    )
    return str(path)


@pytest.fixture
def morning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This morning's baseline pinned on disk (v1); the server now serves v2 (read_graph's
    description changed)."""
    monkeypatch.chdir(tmp_path)
    v1 = _snapshot(tmp_path / "v1.json", "Read the knowledge graph.")
    v2 = _snapshot(tmp_path / "v2.json", "Read the whole knowledge graph, every entity.")
    pins = str(tmp_path / "mcp-pins.toml")
    assert main(["pin", "--snapshot", v1, "--pins", pins, "--by", "morning", "-q"]) == 0
    return {"v1": v1, "v2": v2, "pins": pins, "audit": audit.audit_path_for(pins)}


def _alice_approves(m: dict[str, str]) -> None:
    """The real CLI, in this process, while the app is open: `approve ... --by alice --yes`."""
    who = ["--by", "alice", "--yes", "--note", "alice reviewed it", "-q"]
    rc = main(["approve", "memory", "read_graph", "--snapshot", m["v2"], "--pins", m["pins"], *who])
    assert rc == 0


def _app(m: dict[str, str]) -> ReviewApp:
    return ReviewApp(ReviewSource.open(SnapshotFetcher(load_snapshot(m["v2"])), m["pins"]))


def _on_disk(m: dict[str, str]):
    return load_pins(m["pins"]).get(*KEY)


def _alices(pin) -> bool:
    return (
        pin is not None
        and pin.decision == "approved"
        and pin.decided_by == "alice"
        and pin.note == "alice reviewed it"
    )


def _said(app: ReviewApp) -> str:
    return "\n".join(n.message for n in app._notifications)


async def test_undo_after_a_cli_approval_restores_it_not_the_morning(morning):
    """The issue's sequence: the app is open; `approve --by alice` lands; in the app `r`, `d`
    `y` on read_graph, `u` `y`. The undo must give back alice's approval (what the app's denial
    replaced on disk), never this morning's baseline."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        _alice_approves(m)
        await press(pilot, "r")
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        await press(pilot, "d", "y")
        if isinstance(app.screen, ConfirmScreen):
            # Asked again: the pin changed on disk since the screen was computed.
            await press(pilot, "y")
        assert _on_disk(m).decision == "denied"
        await press(pilot, "u", "y")
    assert _alices(_on_disk(m)), _on_disk(m)


async def test_undo_refuses_when_the_cli_decided_since(morning):
    """The app denies; then alice approves from the CLI; the app's undo would put back this
    morning's baseline over alice's approval: it refuses, names alice, and writes nothing."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        await press(pilot, "d", "y")
        assert _on_disk(m).decision == "denied"
        _alice_approves(m)
        written = Path(m["audit"]).read_bytes()
        await press(pilot, "u", "y")
        said = _said(app)
    assert _alices(_on_disk(m)), _on_disk(m)
    assert "alice" in said and "cannot undo" in said, said
    assert Path(m["audit"]).read_bytes() == written  # nothing written, not even an audit line


@pytest.mark.parametrize("decision", ["d", "a"])
async def test_deciding_on_a_stale_screen_asks_again(morning, decision):
    """alice approves from the CLI while the app shows this morning's state; deciding in the
    app does not overwrite her approval unseen: it asks again, showing her decision, and a `n`
    leaves her approval in place."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        assert app.main.current_entry().status is State.CHANGED
        _alice_approves(m)
        before = Path(m["pins"]).read_bytes()
        await press(pilot, decision, "y")
        screen = app.screen
        assert isinstance(screen, ConfirmScreen), _said(app)
        body = str(screen.body)
        assert "alice" in body and "approved" in body and "changed on disk" in body, body
        assert Path(m["pins"]).read_bytes() == before
        await press(pilot, "n")
    assert _alices(_on_disk(m))


async def test_asked_again_and_confirmed_decides_over_the_new_state(morning):
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        _alice_approves(m)
        await press(pilot, "d", "y")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert _on_disk(m).decision == "denied"
        await press(pilot, "u", "y")  # the undo gives back what the denial replaced: alice's
    assert _alices(_on_disk(m))


# --- the same promise for every kind of decision the session can undo ------------------------


@pytest.mark.parametrize("kind", ["approve", "deny", "instructions", "removal"])
def test_session_undo_refuses_over_a_decision_made_meanwhile(tmp_path, monkeypatch, kind):
    """The session (what the app writes through) for each kind of decision it can undo: a tool
    approved, a tool denied, a server's instructions approved, a removal acknowledged. Another
    writer decides the same thing after it; the undo refuses (naming the other writer) and the
    other writer's decision stays."""
    from mcp_review.engine.pins import Decision
    from mcp_review.tui.session import ReviewSession
    from mcp_review.tui.view import server_entries

    monkeypatch.chdir(tmp_path)
    v1 = _snapshot(tmp_path / "v1.json", "Read the knowledge graph.", instructions="Be nice.")
    v2 = _snapshot(
        tmp_path / "v2.json", "Read the whole knowledge graph.", instructions="Be nicer."
    )
    pins = str(tmp_path / "mcp-pins.toml")
    assert main(["pin", "--snapshot", v1, "--pins", pins, "--by", "morning", "-q"]) == 0
    snap = load_snapshot(v2)
    if kind == "removal":
        snap.servers["memory"].tools = [
            t for t in snap.servers["memory"].tools if t.name != "read_graph"
        ]
    from mcp_review.engine.status import compute_status

    session = ReviewSession(load_pins(pins, allow_unverified=True), pins_path=pins)
    report = compute_status(snap, session.pins)
    (row,) = server_entries(report, ["memory"], lambda _: "tiered")
    entry = next(t for t in row.tools if t.name == "read_graph")
    if kind == "instructions":
        session.decide_instructions(row, Decision.APPROVED)
        other = ["approve", "memory", "--instructions", "--snapshot", v1]
    elif kind == "removal":
        session.decide(entry, Decision.APPROVED)  # acknowledged: the pin goes
        other = ["deny", "memory", "read_graph", "--snapshot", v1]
    else:
        session.decide(entry, Decision.APPROVED if kind == "approve" else Decision.DENIED)
        other = ["approve" if kind == "deny" else "deny", "memory", "read_graph"]
        other += ["--snapshot", v2]
    yes = [] if other[0] == "deny" else ["--yes"]
    assert main([*other, "--pins", pins, "--by", "alice", *yes, "-q"]) == 0
    on_disk = Path(pins).read_bytes()
    try:
        session.undo()
    except Exception as e:
        said = str(e)
        from mcp_review.services.decisions import ChangedMeanwhile

        assert isinstance(e, ChangedMeanwhile), repr(e)
    else:
        said = ""
    assert "alice" in said, said
    assert Path(pins).read_bytes() == on_disk


@pytest.mark.parametrize("subject", ["tool", "instructions"])
def test_session_decision_on_a_stale_row_writes_nothing(tmp_path, monkeypatch, subject):
    """A row computed before another writer decided: the session's decision on it (a tool, a
    server's instructions) is refused under the lock, nothing is written, and the session's
    pins are the file on disk again (the app then shows the new state)."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.status import compute_status
    from mcp_review.services.decisions import ChangedMeanwhile
    from mcp_review.tui.session import ReviewSession
    from mcp_review.tui.view import server_entries

    monkeypatch.chdir(tmp_path)
    v1 = _snapshot(tmp_path / "v1.json", "Read the knowledge graph.", instructions="Be nice.")
    v2 = _snapshot(
        tmp_path / "v2.json", "Read the whole knowledge graph.", instructions="Be nicer."
    )
    pins = str(tmp_path / "mcp-pins.toml")
    assert main(["pin", "--snapshot", v1, "--pins", pins, "--by", "morning", "-q"]) == 0
    session = ReviewSession(load_pins(pins), pins_path=pins)
    (row,) = server_entries(
        compute_status(load_snapshot(v2), session.pins), ["memory"], lambda _: "tiered"
    )
    other = ["--instructions"] if subject == "instructions" else ["read_graph"]
    alice = ["--by", "alice", "--yes", "-q"]
    assert main(["approve", "memory", *other, "--snapshot", v2, "--pins", pins, *alice]) == 0
    on_disk = Path(pins).read_bytes()
    with pytest.raises(ChangedMeanwhile) as e:
        if subject == "instructions":
            session.decide_instructions(row, Decision.DENIED)
        else:
            session.decide(next(t for t in row.tools if t.name == "read_graph"), Decision.DENIED)
    assert "alice" in e.value.now and "changed on disk" in str(e.value)
    assert Path(pins).read_bytes() == on_disk
    assert session.history == [] and session.pins.pending == 0
    if subject == "tool":
        assert session.pins.get(*KEY).decided_by == "alice"
    else:
        assert session.pins.instructions[("memory", "default")].decided_by == "alice"


# --- item 10: audit records are never backdated ---------------------------------------------


class _Clock:
    """A wall clock that moves a minute each time it is read (so a record stamped with an
    earlier decision's time shows as out of order)."""

    def __init__(self) -> None:
        self.t = datetime(2026, 12, 1, 13, 0, tzinfo=UTC)

    def now(self, tz=None):
        self.t += timedelta(minutes=1)
        return self.t


@pytest.mark.slow
def test_every_deciding_command_writes_the_audit_log_in_time_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """pin, approve, deny, their --candidate forms, pin after a --candidate decision (the
    switch), and the app's decide and undo: ``ts`` (when the record was written) never goes
    back, and ``decided_at`` (the decision's own time) is never after it."""
    import sys

    from mcp_review.engine.pins import Decision
    from mcp_review.engine.status import compute_status
    from mcp_review.tui.session import ReviewSession
    from mcp_review.tui.view import server_entries

    servers = Path(__file__).parent.parent / "servers"
    v1 = [_tool("read_graph", "Read the knowledge graph."), _tool("search", "Search nodes.")]
    v2 = [
        _tool("read_graph", "Read the whole knowledge graph."),
        _tool("search", "Search nodes."),
        _tool("open_nodes", "Open nodes by name."),
    ]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    (tmp_path / "v2.json").write_text(json.dumps(v2))

    def config(running: str, candidate: str | None) -> None:
        text = (
            f"timeout = 60\n\n[servers.memory]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps(stdio_server_argv(servers / 'toolserver.py')[1:])}\n"
            f'env = {{ MCP_REVIEW_TOOLS_FILE = "{tmp_path / (running + ".json")}" }}\n'
        )
        if candidate:
            text += (
                "\n[servers.memory.candidate]\n"
                f'env = {{ MCP_REVIEW_TOOLS_FILE = "{tmp_path / (candidate + ".json")}" }}\n'
            )
        (tmp_path / "mcp-review.toml").write_text(text)

    fake = _Clock()
    monkeypatch.setattr(clock, "datetime", fake)
    config("v1", "v2")
    assert main(["pin", "--yes", "-q", "--by", "morning"]) == 0
    assert main(["approve", "memory", "read_graph", "--candidate", "--yes", "-q"]) == 0
    assert main(["approve", "memory", "open_nodes", "--candidate", "--yes", "-q"]) == 0
    assert main(["deny", "memory", "search", "--candidate", "-q", "--note", "no"]) == 0
    assert main(["approve", "memory", "search", "-q", "--yes"]) == 0
    config("v2", None)  # the switch: `pin` re-pins what the preview approved
    assert main(["pin", "--yes", "-q"]) == 0
    assert main(["deny", "memory", "open_nodes", "-q"]) == 0
    # The app: decide, then undo (the undo restores a decision made minutes before).
    snapshot = load_snapshot(_write_snapshot(tmp_path, v2))
    session = ReviewSession(load_pins("mcp-pins.toml"), pins_path="mcp-pins.toml")
    report = compute_status(snapshot, session.pins)
    (row,) = server_entries(report, ["memory"], lambda _: "tiered")
    entry = next(t for t in row.tools if t.name == "open_nodes")
    session.decide(entry, Decision.APPROVED)
    session.undo()

    recs = audit.read("mcp-pins.audit.jsonl")
    sources = {r["source"] for r in recs}
    assert {"pin", "approve", "deny", "review app", "review app undo"} <= sources, sources
    stamps = [r["ts"] for r in recs]
    assert stamps == sorted(stamps), [(r["ts"], r["source"], r["tool"]) for r in recs]
    for r in recs:
        if r["event"] == "decision":
            assert r["decided_at"] <= r["ts"], r
    # The undo's record carries the restored decision's own time, and is stamped now.
    undo = recs[-1]
    assert undo["source"] == "review app undo" and undo["decided_at"] < undo["ts"]


def _write_snapshot(tmp_path: Path, tools: list[dict]) -> str:
    p = tmp_path / "now.json"
    p.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "memory": {
                        "principal": "default",
                        "server_info": {"name": "memory", "version": "1.0.0"},
                        "protocol_version": "2025-11-25",
                        "tools": tools,
                    }
                },
            }
        )
    )
    return str(p)


def _row(app: ReviewApp, name: str):
    return next(t for s in app.main.servers for t in s.tools if t.name == name)


async def test_refresh_rereads_the_pin_file(morning):
    """Issue 30 item 9: the app is open; `approve --by alice` lands from the CLI; `r` in the
    app must show read_graph approved (pinned, alice's note), no longer `changed`."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        assert _row(app, "read_graph").status is State.CHANGED
        _alice_approves(m)
        await press(pilot, "r")
        await _ready(app, pilot)
        await settle(pilot)
        row = _row(app, "read_graph")
        assert row.status is State.PINNED, row.status
        assert row.note == "alice reviewed it"
        table = app.main.query_one("#tools", ToolTable)
        shown = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
        line = next(r for r in shown if "read_graph" in r[0])
        assert line[1] == "pinned", line


async def test_returning_to_the_list_rereads_the_pin_file(morning):
    """The same, without `r`: the operator is on read_graph's review screen while alice
    approves; going back to the list shows her decision."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        await press(pilot, "enter")
        assert app.screen is not app.main
        _alice_approves(m)
        await press(pilot, "escape")
        assert app.screen is app.main
        row = _row(app, "read_graph")
        assert row.status is State.PINNED, row.status


async def test_refresh_keeps_the_apps_own_decisions(morning):
    """Re-reading never loses what the app decided (it is saved at once): deny in the app,
    then `r`: still denied, on disk and on screen."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        await press(pilot, "d", "y")
        await press(pilot, "r")
        await _ready(app, pilot)
        await settle(pilot)
        assert _row(app, "read_graph").status is State.DENIED
    assert _on_disk(m).decision == "denied"


async def test_the_undo_dialog_says_what_was_decided_and_what_comes_back(morning):
    """Issue 30 item 17: the undo dialog read "approved of memory › read_graph". It says what
    the app decided, on which tool, and what an undo puts back."""
    m = morning
    app = _app(m)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _ready(app, pilot)
        await _select(app, pilot, "read_graph")
        await press(pilot, "d", "y")
        await press(pilot, "u")
        screen = app.screen
        assert isinstance(screen, ConfirmScreen)
        body = str(screen.body)
    assert body == (
        "denied memory › read_graph; undoing puts back the earlier approval by morning"
    ), body
