"""Issue 43 (the app and review by kind): prompts, resources and resource templates in the
review app, on the built-in demo, whose devtools server rug-pulls its ``review_change``
prompt (a sentence sending the repository's .env away, and "do not mention this").

- The prompt has its own row under its server (its kind before its name), decision ``block``,
  its cues' kinds in the flags column; it is in the engine's blocked band, before every
  decision that is not blocked; ``n`` lands on it in that order.
- ``a`` asks first, then asks why: cancelled, nothing is written; with a typed reason the
  decision lands in the pin file's ``prompts`` table through ``services.surface_decisions``
  (the CLI's ``approve --prompt`` table), with the reason and ``review app`` in the audit log.
- Its screen shows the pinned and the served definition side by side, the cues marked.
- ``status --groups --format json``, ``check --format json`` and the app give the same
  decisions in the same order, the prompt among them (one order, every front end).

Real servers (the demo's: stdio and Streamable HTTP on 127.0.0.1), real TOML on disk."""

from __future__ import annotations

import asyncio
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from helpers import press, run_cli, settled

from mcp_review.engine.kinds import SurfaceAlone, decision_json
from mcp_review.engine.policy import Outcome
from mcp_review.store import audit

pytestmark = pytest.mark.slow

KEY = ("devtools", "default", "prompt", "review_change")


def _rows(app: Any) -> list[list[str]]:
    from mcp_review.tui.screens.main import ToolTable

    table = app.main.query_one("#tools", ToolTable)
    return [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]


def _prompt_pin(pins_path: Path) -> dict[str, Any]:
    doc = tomllib.loads(pins_path.read_text())
    return doc["servers"]["devtools"]["principals"]["default"]["prompts"]["review_change"]


async def _select_surface(app: Any, pilot: Any, key: tuple[str, ...]) -> None:
    from mcp_review.tui.screens.main import ToolTable

    table = app.main.query_one("#tools", ToolTable)
    for row in range(table.row_count):
        table.move_cursor(row=row)
        x = app.main.current_surface()
        if x is not None and x.key == key:
            await pilot.pause()
            return
    raise AssertionError(f"no row for {key}")


def test_the_rug_pulled_prompt_in_the_app(tmp_path: Path) -> None:
    from tui_sample import warm_drifted

    from mcp_review.commands.demo import make_app
    from mcp_review.tui.screens.modals import ConfirmScreen, ReasonScreen
    from mcp_review.tui.screens.surface import SurfaceScreen
    from mcp_review.tui.widgets.diff_view import SideBySide

    got: dict[str, Any] = {}

    async def drive(app: Any, pins_path: Path) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(app, pilot)
            rows = _rows(app)
            got["row"] = next(r for r in rows if r[0].endswith("prompt review_change"))
            # The engine's one order: the prompt is blocked, so it is visited before every
            # decision that is not, after the tool whose cue is more severe (hidden text).
            order = app.source.grouping().ordered()
            got["order"] = [(type(i).__name__, i.outcome) for i in order]
            got["at"] = next(i for i, x in enumerate(order) if isinstance(x, SurfaceAlone))
            # `n` from the top follows it.
            table = app.main.query_one("#tools")
            table.move_cursor(row=0, animate=False)
            visits = []
            for _ in range(3):
                await press(pilot, "n")
                visits.append(app.main.current_key())
            got["visits"] = visits
            # The counts line counts it: blocked and to review.
            got["counts"] = str(app.main.query_one("#counts").render())
            before = pins_path.read_bytes()
            # Enter: its screen, the diff with the cues marked.
            await _select_surface(app, pilot, KEY)
            await press(pilot, "enter")
            assert isinstance(app.screen, SurfaceScreen)
            got["summary"] = str(app.screen.query_one("#surface-summary").render())
            diff = app.screen.query_one("#surface-diff", SideBySide)
            got["new_side"] = "\n".join(r.right.text for r in diff.rows if r.right is not None)
            got["marks"] = {m.kind for r in diff.rows if r.right for m in r.right.cues}
            # `a` on its screen: asks first; escape cancels, nothing is written.
            await press(pilot, "a")
            assert isinstance(app.screen, ConfirmScreen)
            await press(pilot, "escape")
            assert isinstance(app.screen, SurfaceScreen)
            await press(pilot, "escape")
            # `a` on the list: yes, then the reason; an empty reason decides nothing.
            await press(pilot, "a")
            assert isinstance(app.screen, ConfirmScreen)
            got["confirm_title"] = app.screen.title_text
            await press(pilot, "y")
            assert isinstance(app.screen, ReasonScreen)
            await press(pilot, "enter")
            assert isinstance(app.screen, ReasonScreen)
            assert pins_path.read_bytes() == before  # nothing written yet
            await press(pilot, *"reviewed the upload with the vendor", "enter")
            await settled(app, pilot)
            got["after_rows"] = _rows(app)
            got["after_counts"] = str(app.main.query_one("#counts").render())
            got["undo"] = app.source.last_decision()

    with warm_drifted(tmp_path / "ws") as (ws, _):
        asyncio.run(drive(make_app(ws), ws.pins_path))
        pin = _prompt_pin(ws.pins_path)
        rec = audit.read(audit.audit_path_for(str(ws.pins_path)))[-1]
        # Served now (the rug pull), from the live server
        from mcp_review.demo import definitions

        live = definitions.prompts("devtools", "v2")[0]

    assert got["row"][1:3] == ["changed", "block"], got["row"]
    assert "exfiltration" in got["row"][3] and "concealment" in got["row"][3], got["row"]
    blocked = [o for _, o in got["order"]][: got["at"] + 1]
    assert all(o is Outcome.BLOCK for o in blocked), got["order"]
    assert got["order"][got["at"]][1] is Outcome.BLOCK
    # blocked first: nothing that is not blocked comes before it
    assert got["visits"][1] == "surface\x00" + "\x00".join(KEY), got["visits"]
    assert "4 blocked" in got["counts"], got["counts"]
    assert "cues:" in got["summary"] and "exfiltration" in got["summary"], got["summary"]
    assert "review-cache.example.net" in got["new_side"]
    marked = ", ".join(sorted(got["marks"]))  # one mark may carry several kinds
    assert "exfiltration" in marked and "concealment" in marked and "url" in marked, marked
    assert "prompt review_change" in got["confirm_title"], got["confirm_title"]
    # Written where `approve devtools --prompt review_change` writes it.
    from mcp_review.engine.surfaces import surface_digest

    assert pin["decision"] == "approved"
    assert pin["digest"] == surface_digest(live)
    assert rec["decision"] == "approved" and rec["source"] == "review app", rec
    assert "confirmed in the review app]: reviewed the upload with the vendor" in rec["why"]
    assert rec["why"].startswith("approved (changed prompt) [blocked: "), rec["why"]
    # The row left the list (pinned as served), the counts follow, and `u` can undo it.
    assert not any(r[0].endswith("prompt review_change") for r in got["after_rows"])
    assert "3 blocked" in got["after_counts"], got["after_counts"]
    assert got["undo"] is not None and 'prompt "review_change"' in got["undo"]


def test_every_front_end_gives_the_same_decisions(tmp_path: Path) -> None:
    """``status --groups --format json``, ``check --format json`` and the app's grouping: the
    same decisions, in the same order, the rug-pulled prompt among the blocked."""
    from tui_sample import warm_drifted

    from mcp_review.commands.demo import make_app

    got: dict[str, Any] = {}

    async def drive(app: Any) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settled(app, pilot)
            got["app"] = [decision_json(i) for i in app.source.grouping().ordered()]

    with warm_drifted(tmp_path / "ws") as (ws, _):
        paths = ["--config", str(ws.config_path), "--pins", str(ws.pins_path)]
        st = run_cli(["status", "--groups", "--format", "json", *paths])
        ck = run_cli(["check", "--format", "json", *paths])
        asyncio.run(drive(make_app(ws)))
    status = json.loads(st.stdout)
    check = json.loads(ck.stdout)
    assert status["decisions"] == check["decisions"] == got["app"], (
        status["decisions"],
        check["decisions"],
        got["app"],
    )
    surf = [d for d in status["decisions"] if "surface" in d]
    assert surf == [
        {
            "surface": "devtools/(prompt) review_change",
            "subject": "prompt",
            "server": "devtools",
            "principal": "default",
            "name": "review_change",
            "outcome": "block",
        }
    ]
    i = status["decisions"].index(surf[0])
    assert all(d["outcome"] == "block" for d in status["decisions"][: i + 1])
    assert status["surfaces_alone"][0]["reasons"][0] == "blocking cue"

    # A drift with two honest prompt rewordings and one rug-pulled prompt (a real MCP server):
    # the rug pull alone and first, the two honest ones one group, the same in every front end.
    work = tmp_path / "prompts"
    snap, pins = _prompt_drift(work)
    st = run_cli(["status", "--groups", "--format", "json", "--snapshot", snap], cwd=work)
    ck = run_cli(["check", "--format", "json", "--from-snapshot", snap], cwd=work)
    asyncio.run(drive(_snapshot_app(snap, pins)))
    status = json.loads(st.stdout)
    check = json.loads(ck.stdout)
    assert status["decisions"] == check["decisions"] == got["app"], (
        status["decisions"],
        check["decisions"],
        got["app"],
    )
    first, group = status["decisions"]
    assert first["surface"] == "srv/(prompt) write_summary" and first["outcome"] == "block"
    assert group["kind"] == "prompt description reworded, no cue" and group["size"] == 2
    assert {m["tool"] for m in status["groups"][0]["members"]} == {"translate", "plain_note"}


def _prompt_drift(work: Path) -> tuple[str, str]:
    """Three prompts pinned as first served, then one rug-pulled and two honestly reworded
    (tests/servers/surfaceserver.py over the SDK); returns (snapshot path, pin file path)."""
    import anyio
    from servers.surfaceserver import SurfaceServer

    from mcp_review.engine.snapshot import Snapshot
    from mcp_review.services.config import ServerConfig
    from mcp_review.services.fetch import fetch_server

    work.mkdir()
    fix = Path(__file__).parent.parent / "fixtures" / "surfaces"
    prompt = json.loads((fix / "prompt.json").read_text())
    rug = json.loads((fix / "rugpull.json").read_text())["description"]
    first = [prompt, PROMPTS[0], PROMPTS[1]]
    srv = SurfaceServer([dict(p) for p in first])

    def snap(name: str) -> str:
        s = anyio.run(fetch_server, ServerConfig("srv", target=srv.server, timeout=60))
        assert s.error is None
        path = work / name
        path.write_text(Snapshot(servers={"srv": s}, taken_at="2026-12-03T00:00:00Z").dumps())
        return str(path)

    assert run_cli(["pin", "--snapshot", snap("s1.json")], cwd=work).returncode == 0
    srv.prompts = [
        dict(prompt, description=rug),
        dict(PROMPTS[0], description="Translate a text into another language."),
        dict(PROMPTS[1], description="Write a plain note in the user's words."),
    ]
    return snap("s2.json"), str(work / "mcp-pins.toml")


PROMPTS = [
    {"name": "translate", "description": "Translate a text."},
    {"name": "plain_note", "description": "Write a plain note."},
]


def _snapshot_app(snap: str, pins: str) -> Any:
    from mcp_review.engine.snapshot import parse_snapshot
    from mcp_review.store.pinfile import load_pins
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.fetchers import SnapshotFetcher
    from mcp_review.tui.source import ReviewSource

    s = parse_snapshot(json.loads(Path(snap).read_text()))
    app = ReviewApp(ReviewSource(SnapshotFetcher(s), load_pins(pins), pins_path=pins))
    app.animation_level = "none"
    return app


async def test_the_groups_view_decides_a_group_of_prompts(tmp_path: Path) -> None:
    """``G``: the rug-pulled prompt first and alone, then the group of the two honest
    rewordings; ``enter`` opens it (each member's whole added text), ``a`` asks once and
    approves both through the one recording path; ``u`` undoes them one by one."""
    from helpers import settle

    from mcp_review.engine.kinds import Group
    from mcp_review.tui.screens.groups import GroupScreen, GroupsScreen
    from mcp_review.tui.screens.modals import ConfirmScreen

    snap, pins = await asyncio.to_thread(_prompt_drift, tmp_path / "w")
    app = _snapshot_app(snap, pins)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        # `g` on a member's row opens its group.
        await _select_surface(app, pilot, ("srv", "default", "prompt", "translate"))
        await press(pilot, "g")
        assert isinstance(app.screen, GroupScreen), app.screen
        await press(pilot, "escape")
        await press(pilot, "G")
        screen = app.screen
        assert isinstance(screen, GroupsScreen)
        assert isinstance(screen.items[0], SurfaceAlone) and isinstance(screen.items[1], Group)
        row = [c.plain for c in screen.query_one("#groups").get_row_at(1)]
        assert row[0] == "prompt description reworded, no cue" and row[1] == "2 prompts", row
        screen.query_one("#groups").move_cursor(row=1)
        await settle(pilot)
        await press(pilot, "enter")
        assert isinstance(app.screen, GroupScreen)
        table = app.screen.query_one("#members")
        cells = " ".join(c.plain for i in range(table.row_count) for c in table.get_row_at(i))
        detail = str(app.screen.query_one("#member-detail").render())
        shown = cells + " " + detail
        assert "translate" in cells and "plain_note" in cells, cells
        assert "into another language" in shown or "in the user's words" in shown, shown
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmScreen)
        assert "approve it on 2 prompts" in app.screen.body, app.screen.body
        await press(pilot, "y")
        await settled(app, pilot)
        # The view follows the new status: only the rug pull waits.
        items = app.source.grouping().ordered()
        assert [type(i).__name__ for i in items] == ["SurfaceAlone"], items
        doc = tomllib.loads(Path(pins).read_text())
        # `u` undoes one member's decision (the last recorded): it waits again, alone now.
        await press(pilot, "escape")
        await settled(app, pilot)
        await press(pilot, "u")
        assert isinstance(app.screen, ConfirmScreen), app.screen
        await press(pilot, "y")
        await settled(app, pilot)
        items = app.source.grouping().ordered()
        assert len(items) == 2 and all(isinstance(i, SurfaceAlone) for i in items), items
    after = tomllib.loads(Path(pins).read_text())["servers"]["srv"]["principals"]["default"]
    assert (
        sum(
            "another language" in after["prompts"][n]["definition"]
            or "user's words" in after["prompts"][n]["definition"]
            for n in ("translate", "plain_note")
        )
        == 1
    )
    table = doc["servers"]["srv"]["principals"]["default"]["prompts"]
    assert table["translate"]["decision"] == table["plain_note"]["decision"] == "approved"
    assert "another language" in table["translate"]["definition"]
    assert "id_rsa" not in table["write_summary"]["definition"]
    recs = [r for r in audit.read(audit.audit_path_for(pins)) if r.get("group")]
    assert len(recs) == 2 and all(r["source"] == "review app" for r in recs), recs


async def test_hostile_prompts_and_resources_render_as_data() -> None:
    """A server's prompt and resource named and described with markup, actions, ANSI and
    hidden characters: every row, screen and dialog shows them as those characters, the
    SVG stays valid XML, and nothing runs (issue 43: untrusted text never reaches markup)."""
    import xml.etree.ElementTree as ET

    from helpers import settle
    from tui_sample import HOSTILE_STRINGS, demo_source

    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.screens.modals import ConfirmScreen
    from mcp_review.tui.screens.surface import SurfaceScreen
    from mcp_review.tui.widgets.diff_view import SideBySide

    bad = "".join(HOSTILE_STRINGS)
    extra = {
        "prompt": [{"name": "[@click=app.quit]p[/]\u202e", "description": bad}],
        "resource": [{"uri": "file:///[bold]x[/]\x1b[31m", "name": "r", "description": bad}],
    }
    app = ReviewApp(demo_source(extra_v2=extra))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        cells = "\n".join(" | ".join(r) for r in _rows(app))
        assert "prompt [@click=app.quit]p[/]⟨RLO U+202E⟩" in cells, cells
        assert "resource file:///[bold]x[/]⟨ESC⟩[31m" in cells, cells
        assert "\x1b" not in cells
        ET.fromstring(app.export_screenshot())
        for key in (
            ("devtools", "default", "prompt", "[@click=app.quit]p[/]\u202e"),
            ("devtools", "default", "resource", "file:///[bold]x[/]\x1b[31m"),
        ):
            await _select_surface(app, pilot, key)
            await press(pilot, "enter")
            screen = app.screen
            assert isinstance(screen, SurfaceScreen)
            summary = str(screen.query_one("#surface-summary").render())
            assert "\x1b" not in summary and ("[@click=app.quit]" in summary or "[bold]" in summary)
            right = "\n".join(
                r.right.text for r in screen.query_one(SideBySide).rows if r.right is not None
            )
            assert "[@click=app.quit]click me[/]" in right and "\x1b" not in right
            ET.fromstring(app.export_screenshot())
            await press(pilot, "d")  # deny asks nothing on its screen, as for a tool
            await settle(pilot)
            assert app.is_running and app.return_code is None
        # Denied: the rows say so (a denied prompt stays listed, as a denied tool does).
        denied = [r for r in _rows(app) if "[@click=app.quit]p" in r[0] or "[bold]x" in r[0]]
        assert [r[1] for r in denied] == ["denied", "denied"], denied
        assert isinstance(app.screen, type(app.main))
        await press(pilot, "u")
        assert isinstance(app.screen, ConfirmScreen)
        assert "resource" in app.screen.body and "file:///[bold]x[/]" in app.screen.body
        await press(pilot, "y")
        await settled(app, pilot)
        back = [r for r in _rows(app) if "resource file:///[bold]x" in r[0]]
        assert back and back[0][1:3] == ["new", "block"], back  # undone: new and blocked again


async def test_the_groups_view_lists_and_decides_the_prompt(tmp_path: Path) -> None:
    """``G``: the prompt is a decision of its own in the one order (blocked, among the first);
    ``a`` on it asks yes, then why (as on the list), and writes to the pin file; ``enter``
    opens its screen."""
    from helpers import settle
    from tui_sample import demo_source

    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.screens.groups import GroupsScreen
    from mcp_review.tui.screens.modals import ConfirmScreen, ReasonScreen
    from mcp_review.tui.screens.surface import SurfaceScreen

    pins = tmp_path / "pins.toml"
    app = ReviewApp(demo_source(pins_path=str(pins)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await press(pilot, "G")
        screen = app.screen
        assert isinstance(screen, GroupsScreen)
        at = next(i for i, x in enumerate(screen.items) if isinstance(x, SurfaceAlone))
        assert all(x.outcome is Outcome.BLOCK for x in screen.items[: at + 1])
        row = [c.plain for c in screen.query_one("#groups").get_row_at(at)]
        assert row[0] == "alone: devtools › prompt review_change" and row[2] == "block", row
        assert "blocking cue" in row[3] and "exfiltration" in row[3], row
        screen.query_one("#groups").move_cursor(row=at)
        await settle(pilot)
        await press(pilot, "enter")
        assert isinstance(app.screen, SurfaceScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, GroupsScreen)
        await press(pilot, "a")
        assert isinstance(app.screen, ConfirmScreen)
        await press(pilot, "y")
        assert isinstance(app.screen, ReasonScreen)
        await press(pilot, *"checked", "enter")
        await settled(app, pilot)
        assert isinstance(app.screen, GroupsScreen)
        # The view follows the new status: the prompt needs no decision now.
        assert not any(isinstance(x, SurfaceAlone) for x in app.screen.items)
    pin = tomllib.loads(pins.read_text())["servers"]["devtools"]["principals"]["default"]
    assert pin["prompts"]["review_change"]["decision"] == "approved"


async def test_the_filter_reads_a_surface_rows_words() -> None:
    """``/status:prompt`` keeps the prompt's row (its kind is a word of its status), and
    ``/decision:block`` keeps it with the blocked tools."""
    from tui_sample import demo_source

    from mcp_review.tui.app import ReviewApp

    app = ReviewApp(demo_source())
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(app, pilot)
        await press(pilot, "slash", *"status:prompt", "enter")
        rows = [r[0] for r in _rows(app) if r[0].startswith("│")]
        assert rows == ["│ prompt review_change"], rows
        await press(pilot, "escape", "slash", *"decision:block", "enter")
        rows = [r[0] for r in _rows(app) if r[0].startswith("│")]
        assert "│ prompt review_change" in rows and "│ lint_file" in rows, rows
        assert not any("run_query" in r for r in rows), rows
