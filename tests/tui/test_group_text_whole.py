"""A group never approves text no one was shown (issue 38 item 4).

Three tools reword their descriptions, each adding a long sentence of its own (under 600
characters), and a fourth adds more than 600: the three are one text kind, grouped, and every
surface that shows the group shows each member's added text whole (``status --groups`` as text
and JSON, ``check``'s Markdown, ``approve --group``'s confirmation, the app's group screen); the
fourth stands alone ("added text too long to show whole"). On the real CLI over snapshot and pin
files on disk, and the app driven with Textual's pilot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import press, settled, until

from mcp_review.cli import main
from mcp_review.engine.hidden import md_text, safe_text
from mcp_review.engine.kind_text import SHOWN_WHOLE
from mcp_review.engine.kinds import AloneReason, group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import PinFile
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

OLD = "Lists the files of a folder."


def _long(i: int, n: int) -> str:
    """A sentence of ``n`` characters, its own words per tool, its end distinct (a screen that
    cut it in the middle or at its end would lose what tells the members apart). Honest text
    in sentences: one run-on sentence of 450 characters that grows a six-word description
    reads as unlike the pinned text (engine/cue_change_whole.py), which is not this test's
    case."""
    words = f" Entries of folder {i} are listed with their sizes, dates and owners."
    s = (words * (n // len(words) + 1))[: n - 12]
    return s + f" (tool {i} end)."


ADDED = {f"list_{i}": _long(i, 450 + 20 * i) for i in range(3)}
TOO_LONG = _long(9, SHOWN_WHOLE + 100)


def _tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    }


def _snapshots() -> tuple[Snapshot, Snapshot]:
    names = [*ADDED, "list_9"]
    old = [_tool(n, OLD) for n in names]
    new = [_tool(n, OLD + ADDED[n]) for n in ADDED] + [_tool("list_9", OLD + TOO_LONG)]
    out = []
    for tools in (old, new):
        s = Snapshot(taken_at="2026-12-01T00:00:00Z")
        s.servers["fs"] = ServerSnapshot(name="fs", tools=[ToolDef.from_wire(w) for w in tools])
        out.append(s)
    return out[0], out[1]


def _added(n: str) -> str:
    return ADDED[n].strip()


def test_the_engine_groups_the_three_and_sets_the_long_one_apart():
    old, new = _snapshots()
    pins = PinFile()
    from mcp_review.engine.pins import Decision, make_pin

    for t in old.servers["fs"].tools:
        pins.decide(make_pin("fs", t, Decision.APPROVED, by="t"))
    g = group_report(compute_status(new, pins))
    (grp,) = g.groups
    assert sorted(m.tool for m in grp.members) == sorted(ADDED)
    for m in grp.members:
        assert [(a.pointer, a.text) for a in m.added] == [("/description", _added(m.tool))]
    (alone,) = g.alone
    assert alone.tool == "list_9" and alone.reasons == (AloneReason.LONG_TEXT,)


def _run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_every_cli_surface_shows_each_members_added_text_whole(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    old, new = _snapshots()
    Path("old.json").write_text(old.dumps())
    Path("new.json").write_text(new.dumps())
    assert _run(capsys, "pin", "--snapshot", "old.json", "--yes", "-q")[0] == 0

    rc, text, _ = _run(capsys, "status", "--snapshot", "new.json", "--groups")
    assert rc == 1
    for n in ADDED:
        assert f'adds at /description: "{safe_text(_added(n))}"' in text, n
    assert "added text too long to show whole" in text

    _, out, _ = _run(capsys, "status", "--snapshot", "new.json", "--groups", "--format", "json")
    (grp,) = json.loads(out)["groups"]
    got = {m["tool"]: m["added_text"] for m in grp["members"]}
    assert got == {n: [{"pointer": "/description", "text": _added(n)}] for n in ADDED}

    _, md, _ = _run(capsys, "check", "--from-snapshot", "new.json", "--format", "markdown")
    for n in ADDED:
        assert f"| fs/{n} | /description | {md_text(_added(n))} |" in md, n

    rc, said, _ = _run(capsys, "approve", "--snapshot", "new.json", "--group", grp["id"])
    assert rc == 0
    for n in ADDED:
        assert f'fs/{n} adds at /description: "{safe_text(_added(n))}"' in said, n


async def test_the_app_group_screen_shows_each_members_added_text_whole():
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.fetchers import SnapshotFetcher
    from mcp_review.tui.screens.groups import GroupScreen
    from mcp_review.tui.source import ReviewSource

    old, new = _snapshots()
    app = ReviewApp(ReviewSource.baseline(SnapshotFetcher(new), old))
    async with app.run_test(size=(80, 24)) as pilot:
        from helpers import select

        await settled(app, pilot)
        await select(app, pilot, "list_0")
        await press(pilot, "g")
        await until(pilot, lambda: isinstance(app.screen, GroupScreen), "the group screen")
        screen = app.screen
        assert sorted(m.tool for m in screen.group.members) == sorted(ADDED)
        seen = {}
        for _ in range(screen.group.size):
            m = screen._current()
            detail = "".join(str(screen.query_one("#member-detail").render()).split())
            seen[m.tool] = detail
            await press(pilot, "down")
        for n in ADDED:
            whole = "".join(json.dumps(_added(n), ensure_ascii=False).split())
            assert whole in seen[n], n
