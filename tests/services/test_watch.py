"""`watch`: re-lists on tools/list_changed (listen stream and legacy notification) and on ttlMs."""

from __future__ import annotations

import io
import json

import anyio
import pytest
from servers.toolserver import ToolServer, tool

from mcp_review.commands.watch import DriftPrinter
from mcp_review.engine.pins import PinFile
from mcp_review.services.config import ServerConfig
from mcp_review.services.watch import Update, watch_all


async def _run_until(configs, n_updates: int, action, *, limit: float = 120, **kw) -> list[Update]:
    updates: list[Update] = []
    got_first = anyio.Event()

    def on_update(u: Update) -> None:
        updates.append(u)
        got_first.set()

    with anyio.fail_after(limit):
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: watch_all(configs, on_update, **kw))
            await got_first.wait()
            await action()
            while len(updates) < n_updates:
                await anyio.sleep(0.02)
            tg.cancel_scope.cancel()
    return updates


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_relists_on_list_changed(mode: str):
    ts = ToolServer([tool("a"), tool("b")])
    cfg = ServerConfig("srv", target=ts.server, mode=mode, timeout=60)

    async def change() -> None:
        await anyio.sleep(0.3)  # let the listen stream be acknowledged
        ts.tools = [tool("a"), tool("c")]
        await ts.changed()

    ups = await _run_until([cfg], 2, change)
    assert [u.reason for u in ups[:2]] == ["connected", "list-changed"]
    assert [t.name for t in ups[0].snapshot.tools] == ["a", "b"]
    assert [t.name for t in ups[1].snapshot.tools] == ["a", "c"]
    assert ups[1].snapshot.protocol_version == ("2026-07-28" if mode == "auto" else "2025-11-25")


async def test_relists_when_ttl_expires():
    ts = ToolServer([tool("a")], ttl_ms=200)
    cfg = ServerConfig("srv", target=ts.server, timeout=60)

    async def change() -> None:
        ts.tools = [tool("z")]  # no notification: only the ttl tells us to look again

    ups = await _run_until([cfg], 2, change, min_ttl=0.1)
    assert ups[1].reason == "ttl-expired"
    assert [t.name for t in ups[1].snapshot.tools] == ["z"]


async def test_unreachable_server_is_reported_and_others_continue():
    ts = ToolServer([tool("a")])
    good = ServerConfig("good", target=ts.server, timeout=60)
    bad = ServerConfig("bad", command="mcp-review-no-such-command-xyz", timeout=60)

    async def change() -> None:
        ts.tools = [tool("b")]
        await anyio.sleep(0.3)
        await ts.changed()

    ups = await _run_until([bad, good], 3, change)
    by = {(u.server, u.reason) for u in ups}
    assert ("bad", "disconnected") in by and ("good", "list-changed") in by
    err = next(u for u in ups if u.server == "bad").snapshot.error
    assert err is not None and err["kind"] == "spawn-failed"


def test_printer_reports_each_drift_once():
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.snapshot import ServerSnapshot

    def snap(*tools: dict) -> ServerSnapshot:
        return ServerSnapshot(
            "web", tools=[ToolDef.from_wire(t) for t in tools], protocol_version="2026-07-28"
        )

    out = io.StringIO()
    p = DriftPrinter(PinFile(), {}, "json", "review", out)
    p(Update("web", "connected", snap(tool("a")), 0.0))
    p(Update("web", "ttl-expired", snap(tool("a")), 1.0))  # nothing new: nothing printed
    p(Update("web", "list-changed", snap(tool("a"), tool("b")), 2.0))
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [(x["event"], x.get("tool"), x.get("status")) for x in lines] == [
        ("connected", None, None),
        ("connected", "a", "new"),
        ("list-changed", "b", "new"),
    ]
    assert p.failed


async def test_relists_prompts_on_prompts_list_changed_and_prints_the_rug_pull():
    """issue 43: notifications/prompts/list_changed re-lists, and the printer reports the
    rug-pulled prompt with its outcome."""
    from pathlib import Path

    from servers.surfaceserver import SurfaceServer

    from mcp_review.engine.surfaces import make_surface_pin

    fix = Path(__file__).parent.parent / "fixtures" / "surfaces"
    p = json.loads((fix / "prompt.json").read_text())
    rug = json.loads((fix / "rugpull.json").read_text())["description"]
    srv = SurfaceServer([p])
    cfg = ServerConfig("srv", target=srv.server, mode="legacy", timeout=60)
    pins = PinFile()
    pins.decide_surface(
        make_surface_pin("srv", "prompt", p, "approved", principal="default", by="t", at="x")
    )

    async def change() -> None:
        await anyio.sleep(0.3)
        srv.prompts = [dict(p, description=rug)]
        await srv.changed()

    ups = await _run_until([cfg], 2, change)
    assert [u.reason for u in ups[:2]] == ["connected", "list-changed"]
    assert ups[1].snapshot.surfaces["prompt"][0]["description"] == rug
    out = io.StringIO()
    printer = DriftPrinter(pins, {}, "text", "review", out)
    for u in ups[:2]:
        printer(u)
    text = out.getvalue()
    assert 'CHANGED  srv prompt "write_summary"' in text and "[block]" in text
    assert printer.exit_code() == 1
