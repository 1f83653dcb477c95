"""The app's group screen (issue 28 items 3 and 5): review by kind from the list.

``g`` on a grouped tool opens its group, ``G`` the groups view of the whole drift; the group
screen shows the kind in one line and each member's own values; space leaves a member out;
one confirmation (and one reason when blocked) decides the rest through
``services.decisions.decide_group``: pins written, one audit record per member with the
group's id. ``n`` visits blocked tools alone first, then the groups by size. Driven with
Textual's pilot on real pin files and audit logs (tests/tui_sample.py ``groups_source``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import press, select, settled, until
from tui_sample import HOSTILE_NAME, groups_snapshots, groups_source

from mcp_review.engine.pins import Decision
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins
from mcp_review.tui.app import ReviewApp

LESS = "annotations claim less power"
MORE = "annotations claim more power"


def _static(w: Any) -> str:
    return str(w.render())


def _pinned_wire(pins: str, server: str, tool: str) -> dict:
    pin = load_pins(pins).get(server, "default", tool)
    assert pin is not None
    return pin.tool_def().wire


def _wire(which: int, server: str, tool: str) -> dict:
    snap = groups_snapshots()[which]
    return next(t.wire for t in snap.servers[server].tools if t.name == tool)


def _records(pins: str) -> list[dict]:
    return audit.read(audit.audit_path_for(pins))


async def _open_group(app: Any, pilot: Any, tool: str) -> Any:
    from mcp_review.tui.screens.groups import GroupScreen

    await settled(app, pilot)
    await select(app, pilot, tool)
    await press(pilot, "g")
    await until(pilot, lambda: isinstance(app.screen, GroupScreen), "the group screen")
    return app.screen


async def test_g_opens_the_group_and_one_confirmation_approves_every_member(tmp_path: Path):
    from mcp_review.tui.screens.modals import ConfirmScreen

    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(groups_source(pins_path=pins))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "find_notes")
        group = screen.group
        assert group.label == LESS and group.size == 5
        # The kind in one line; each member's own values side by side.
        assert LESS in _static(screen.query_one("#group-kind"))
        table = screen.query_one("#members")
        rows = [" ".join(c.plain for c in table.get_row_at(i)) for i in range(table.row_count)]
        assert all("readOnlyHint: (absent) → true" in r for r in rows), rows
        assert {m.server for m in group.members} == {"files", "notes"}
        n_before = len(_records(pins))
        await press(pilot, "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "y")  # the one confirmation: no reason, the kind is not blocked
        await until(pilot, lambda: len(_records(pins)) > n_before, "the audit records")
        await settled(app, pilot)
        statuses = {(s.name, t.name): str(t.status) for s in app.main.servers for t in s.tools}
    # Each tool whose only pending kind this was is pinned to the definition served now...
    for server, tool in [("files", "stat_path"), ("files", HOSTILE_NAME), ("notes", "find_notes")]:
        assert _pinned_wire(pins, server, tool) == _wire(1, server, tool), tool
        assert statuses[(server, tool)] == "pinned", (tool, statuses)
    # ... read_text and list_tree keep their title kind pending: their pins stay, this kind's
    # approval is kept beside them.
    for tool in ("read_text", "list_tree"):
        assert _pinned_wire(pins, "files", tool) == _wire(0, "files", tool)
        assert statuses[("files", tool)] == "changed"
        kinds = load_pins(pins).kinds[("files", "default", tool)]
        assert [a.label for a in kinds.approved] == [LESS]
    # One audit record per member, each with the group's id.
    recs = _records(pins)[n_before:]
    assert sorted(r["tool"] for r in recs) == sorted(m.tool for m in group.members)
    assert all(r["group"] == group.id for r in recs), recs
    assert all(r["source"] == "review app" for r in recs)


async def test_a_member_left_out_stays_undecided(tmp_path: Path):
    from mcp_review.tui.screens.modals import ConfirmScreen

    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(groups_source(pins_path=pins))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "stat_path")
        group = screen.group
        names = [m.tool for m in group.members]
        table = screen.query_one("#members")
        table.move_cursor(row=names.index("stat_path"))
        await press(pilot, "space")  # leave stat_path out
        assert screen.left_out == {("files", "default", "stat_path")}
        assert "1 left out" in _static(screen.query_one("#group-info"))
        row = table.get_row_at(names.index("stat_path"))
        assert row[0].plain == "–"
        n_before = len(_records(pins))
        await press(pilot, "d")  # deny the rest
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        body = _static(app.screen.query_one(".dialog-body"))
        assert "1 left out: nothing is decided for them" in body
        assert "stat_path" not in body
        await press(pilot, "y")
        await until(pilot, lambda: len(_records(pins)) > n_before, "the audit records")
        await settled(app, pilot)
    back = load_pins(pins)
    recs = _records(pins)[n_before:]
    assert "stat_path" not in {r["tool"] for r in recs}
    assert len(recs) == group.size - 1
    stat = back.get("files", "default", "stat_path")
    assert stat is not None and stat.decision is Decision.APPROVED
    assert stat.tool_def().wire == _wire(0, "files", "stat_path")  # untouched
    for m in group.members:
        if m.tool != "stat_path":
            assert back.get(m.server, "default", m.tool).decision is Decision.DENIED, m.tool


async def test_space_twice_takes_a_member_back(tmp_path: Path):
    app = ReviewApp(groups_source())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "stat_path")
        table = screen.query_one("#members")
        table.move_cursor(row=0)
        await press(pilot, "space")
        table.move_cursor(row=0)
        await press(pilot, "space")
        assert screen.left_out == set()
        assert table.get_row_at(0)[0].plain == "✓"


async def test_a_blocked_group_asks_one_confirmation_and_one_reason(tmp_path: Path):
    from mcp_review.tui.screens.modals import ConfirmScreen, ReasonScreen

    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(groups_source(pins_path=pins))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "get_page")
        assert screen.group.label == MORE and str(screen.group.outcome) == "block"
        n_before = len(_records(pins))
        await press(pilot, "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "y")
        await until(pilot, lambda: isinstance(app.screen, ReasonScreen), "the reason")
        await press(pilot, *"vendor changelog 2.0", "enter")
        await until(pilot, lambda: len(_records(pins)) > n_before, "the audit records")
        await settled(app, pilot)
        assert not any(isinstance(s, ConfirmScreen | ReasonScreen) for s in app.screen_stack)
    recs = _records(pins)[n_before:]
    assert sorted(r["tool"] for r in recs) == ["get_links", "get_page"]
    for r in recs:
        assert r["group"] == screen.group.id
        assert "[blocked: " in r["why"] and "confirmed in the review app" in r["why"]
        assert "vendor changelog 2.0" in r["why"]
    for tool in ("get_links", "get_page"):
        assert _pinned_wire(pins, "web", tool) == _wire(1, "web", tool)


async def test_markup_in_names_and_values_stays_text_on_the_group_screen(tmp_path: Path):
    """A member named in Rich/Textual markup, with an action link: shown literally in the
    table, the detail line and the confirmation; nothing styled by it, nothing run."""
    from mcp_review.tui.screens.groups import GroupScreen
    from mcp_review.tui.screens.modals import ConfirmScreen

    app = ReviewApp(groups_source())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "stat_path")
        table = screen.query_one("#members")
        names = [m.tool for m in screen.group.members]
        row = table.get_row_at(names.index(HOSTILE_NAME))
        assert HOSTILE_NAME in row[1].plain
        # No style came from the name: only the table's own (muted server, marks).
        assert not any("red" in str(s.style) for s in row[1].spans)
        await press(pilot, "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        body = _static(app.screen.query_one(".dialog-body"))
        assert HOSTILE_NAME in body
        await press(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, GroupScreen), "back on the group")
        assert app.is_running  # the [@click=app.quit] in the name did nothing


async def test_groups_view_lists_the_alone_tools_first_then_the_groups_by_size(tmp_path: Path):
    from mcp_review.engine.kinds import Alone, Group
    from mcp_review.tui.screens.groups import GroupScreen, GroupsScreen
    from mcp_review.tui.screens.review import ReviewScreen

    app = ReviewApp(groups_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await press(pilot, "G")
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "the groups view")
        view = app.screen
        items = view.items
        shown = [
            (x.tool if isinstance(x, Alone) else x.label, x.outcome.value, getattr(x, "size", 1))
            for x in items
        ]
        assert shown == [
            ("write_note", "block", 1),
            (MORE, "block", 2),  # blocked before what waits for review (issue 41 item 6)
            (LESS, "review", 5),
            ("title added, no cue", "review", 2),
        ]
        count = _static(view.query_one("#groups-count"))
        assert "4 decisions: 3 groups of alike changes, 1 alone" in count
        await press(pilot, "enter")  # write_note stands alone: its review screen
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review screen")
        assert app.screen.entry.name == "write_note"
        await press(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "the groups view")
        await press(pilot, "down", "enter")
        await until(pilot, lambda: isinstance(app.screen, GroupScreen), "the group screen")
        assert isinstance(items[1], Group) and app.screen.group.id == items[1].id


async def test_g_on_a_tool_in_two_groups_lists_its_groups_and_on_a_tool_alone_says_so():
    from mcp_review.tui.screens.groups import GroupsScreen
    from mcp_review.tui.screens.main import MainScreen

    app = ReviewApp(groups_source())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(app, pilot)
        await select(app, pilot, "read_text")
        await press(pilot, "g")
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "its groups")
        assert sorted(g.label for g in app.screen.items) == [LESS, "title added, no cue"]
        await press(pilot, "escape")
        await until(pilot, lambda: isinstance(app.screen, MainScreen), "the list")
        await select(app, pilot, "write_note")
        await press(pilot, "g")
        assert isinstance(app.screen, MainScreen)
        said = [str(n.message) for n in app._notifications]
        assert any("write_note stands alone (annotation claim contradicted" in m for m in said)


async def test_n_visits_blocked_tools_alone_first_then_groups_by_size():
    app = ReviewApp(groups_source())
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(app, pilot)
        landed = []
        for _ in range(5):
            await press(pilot, "n")
            e = app.main.current_entry()
            landed.append(e.name if e else None)
        said = [str(n.message) for n in app._notifications]
    # write_note (blocked, alone), the blocked group, then the groups for review, largest
    # first, then around (issue 41 item 6: blocked first, then attention, then by size).
    assert landed[0] == "write_note"
    assert landed[1] in {"get_links", "get_page"}
    assert landed[2] in {"list_tree", "read_text", "stat_path", HOSTILE_NAME, "find_notes"}
    assert landed[3] not in landed[:3]
    assert landed[4] == "write_note"
    assert any(m.startswith(f"group: {LESS} (5 tools; g opens it)") for m in said), said


@pytest.mark.parametrize("member", ["find_notes", "list_tree"])
async def test_a_member_decided_on_disk_meanwhile_makes_the_group_write_nothing(
    tmp_path: Path, member: str
):
    """The CLI denies a member while its group is on screen: approving the group then writes
    nothing (a compare-and-set on each member's pin, as for one tool) and says so; for a
    member whose pin moves (find_notes) and one that would keep the kind's approval beside
    other pending kinds (list_tree)."""
    from mcp_review.engine.pins import with_decision
    from mcp_review.store.pinfile import save_pins
    from mcp_review.tui.screens.modals import ConfirmScreen

    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(groups_source(pins_path=pins))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _open_group(app, pilot, "stat_path")
        other = load_pins(pins)  # another writer: `mcp-review deny SERVER MEMBER`
        server = "notes" if member == "find_notes" else "files"
        pin = other.get(server, "default", member)
        other.decide(with_decision(pin, Decision.DENIED, by="cli"), source="deny")
        save_pins(other, pins)
        on_disk = (Path(pins).read_bytes(), Path(audit.audit_path_for(pins)).read_bytes())
        await press(pilot, "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "y")
        await until(
            pilot,
            lambda: any("nothing decided" in str(n.message) for n in app._notifications),
            "the refusal",
        )
        said = [str(n.message) for n in app._notifications if "nothing decided" in str(n.message)]
    assert (Path(pins).read_bytes(), Path(audit.audit_path_for(pins)).read_bytes()) == on_disk
    assert f"{server}/default/{member} changed on disk since" in said[0], said
    assert "cli" in said[0]


def _limits_source() -> Any:
    """Three tools whose `limit` maximum drops from 100 to 50: one breaking kind, each member
    with its own generated witness (a call the old schema accepts and the new one rejects)."""
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
    from mcp_review.tui.fetchers import SnapshotFetcher
    from mcp_review.tui.source import ReviewSource

    def snap(maximum: int) -> Snapshot:
        tools = [
            ToolDef.from_wire(
                {
                    "name": f"search_{i}",
                    "description": f"Search index {i}.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {"limit": {"type": "integer", "maximum": maximum - i}},
                    },
                }
            )
            for i in range(3)
        ]
        return Snapshot(servers={"idx": ServerSnapshot(name="idx", tools=tools)})

    return ReviewSource.baseline(SnapshotFetcher(snap(50)), snap(100))


async def test_each_member_shows_its_own_values_and_witness():
    app = ReviewApp(_limits_source())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_group(app, pilot, "search_1")
        assert screen.group.size == 3
        table = screen.query_one("#members")
        assert [c.label.plain for c in table.columns] == ["", "tool", "old → new", "witness"]
        rows = {table.get_row_at(i)[1].plain: table.get_row_at(i) for i in range(3)}
        for i in range(3):
            cells = rows[f"idx › search_{i}"]
            # Its own bound, not the first member's: maximum 100-i -> 50-i.
            assert f"<= {100 - i} → <= {50 - i}" in cells[2].plain, cells[2].plain
            assert cells[3].plain.startswith("call: {"), cells[3].plain
            # Its own witness: a limit its old bound accepts and its new one rejects.
            limit = json.loads(cells[3].plain.removeprefix("call: "))["limit"]
            assert 50 - i < limit <= 100 - i, (i, limit)
        detail = _static(screen.query_one("#member-detail"))
        assert "witness call: {" in detail


async def test_on_G_a_and_d_decide_the_selected_group_or_tool_with_its_confirmation(
    tmp_path: Path,
):
    """Issue 41 item 7: the groups view decides without enter first. ``a`` on the blocked
    group asks the group's one confirmation and one reason; ``d`` on the tool alone asks
    first as the list does; any other key cancels and nothing is written."""
    from mcp_review.tui.screens.groups import GroupsScreen
    from mcp_review.tui.screens.modals import ConfirmScreen, ReasonScreen

    pins = str(tmp_path / "mcp-pins.toml")
    app = ReviewApp(groups_source(pins_path=pins))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await press(pilot, "G")
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "the groups view")
        view = app.screen
        assert view.items[1].label == MORE  # blocked, right after the tool alone
        n_before = len(_records(pins))
        # a stray key on the confirmation cancels: nothing written
        await press(pilot, "down", "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "the groups view")
        assert len(_records(pins)) == n_before
        await press(pilot, "a")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "y")
        await until(pilot, lambda: isinstance(app.screen, ReasonScreen), "the reason")
        await press(pilot, *"vendor changelog 2.0", "enter")
        await until(pilot, lambda: len(_records(pins)) > n_before, "the audit records")
        await settled(app, pilot)
        recs = _records(pins)[n_before:]
        assert sorted(r["tool"] for r in recs) == ["get_links", "get_page"]
        assert all("vendor changelog 2.0" in r["why"] for r in recs)
        # d on the tool alone (write_note, first row): asks first, then denies it
        await until(pilot, lambda: isinstance(app.screen, GroupsScreen), "the groups view")
        await press(pilot, "home")
        view = app.screen
        assert view.current().tool == "write_note"
        await press(pilot, "d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the confirmation")
        await press(pilot, "y")
        await until(pilot, lambda: len(_records(pins)) > n_before + 2, "the denial")
        await settled(app, pilot)
    pin = load_pins(pins).get("notes", "default", "write_note")
    assert pin is not None and pin.decision is Decision.DENIED
