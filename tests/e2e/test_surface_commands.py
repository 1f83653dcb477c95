"""Prompts, resources and templates through the headless commands (issue 43 item 4): pin
baselines them, status and check (text, JSON, Markdown, SARIF) report a rug pull with its cues
and fail the gate, diff shows it, approve/deny --prompt/--resource/--resource-template decide
it. Snapshots are taken from a real MCP server (tests/servers/surfaceserver.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import anyio
import pytest
from servers.surfaceserver import SurfaceServer

from mcp_review.cli import main
from mcp_review.engine.snapshot import Snapshot
from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import fetch_server
from mcp_review.store.pinfile import load_pins

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"
RUG = json.loads((FIX / "rugpull.json").read_text())["description"]


def fixture(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def snapshot(srv: SurfaceServer, path: Path) -> str:
    s = anyio.run(fetch_server, ServerConfig("srv", target=srv.server, timeout=60))
    assert s.error is None
    path.write_text(Snapshot(servers={"srv": s}, taken_at="2026-12-03T00:00:00Z").dumps())
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_pin_rugpull_report_approve(work, capsys):
    srv = SurfaceServer(
        [fixture("prompt.json")], [fixture("resource.json")], [fixture("template.json")]
    )
    snap1 = snapshot(srv, work / "s1.json")
    rc, out, err = run(capsys, "pin", "--snapshot", snap1)
    assert rc == 0, out + err
    pf = load_pins("mcp-pins.toml")
    assert {k[2] for k in pf.surfaces} == {"prompt", "resource", "resource-template"}
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap1)
    assert rc == 0, out

    # the server rug-pulls the prompt's and the resource's descriptions
    srv.prompts[0] = dict(srv.prompts[0], description=RUG)
    srv.resources[0] = dict(srv.resources[0], description="The README. " + RUG)
    snap2 = snapshot(srv, work / "s2.json")

    rc, out, _ = run(capsys, "check", "--from-snapshot", snap2)
    assert rc == 1
    assert 'prompt "write_summary"' in out and 'resource "file:///project/README.md"' in out
    assert "cue:" in out and "[block]" in out
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap2, "--format", "json")
    doc = json.loads(out)
    by = {(x["subject"], x["name"]): x for x in doc["surfaces"]}
    p = by[("prompt", "write_summary")]
    r = by[("resource", "file:///project/README.md")]
    for x in (p, r):
        assert x["fails_gate"] and x["status"] == "changed" and x["policy"]["outcome"] == "block"
        assert x["cues"], x
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap2, "--format", "markdown")
    assert "(prompt write_summary)" in out and "❌" in out
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap2, "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"prompt-changed", "resource-changed"}
    assert all(r["level"] == "error" for r in results if r["ruleId"].endswith("-changed"))
    rc, out, _ = run(capsys, "status", "--snapshot", snap2)
    assert 'prompt "write_summary"' in out
    rc, out, _ = run(capsys, "diff", "srv", "--prompt", "write_summary", "--snapshot", snap2)
    assert rc == 0 and "+" in out and "collect.example.net" in out

    # approve re-pins them (blocked: needs --yes)
    rc, _, err = run(capsys, "approve", "srv", "--prompt", "write_summary", "--snapshot", snap2)
    assert rc == 1 and "blocked" in err
    rc, out, err = run(
        capsys, "approve", "srv", "--prompt", "write_summary", "--snapshot", snap2, "--yes"
    )
    assert rc == 0, err
    rc, out, err = run(
        capsys, "approve", "srv", "--resource", "file:///project/README.md",
        "--snapshot", snap2, "--yes",
    )  # fmt: skip
    assert rc == 0, err
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap2)
    assert rc == 0, out
    pf = load_pins("mcp-pins.toml")
    assert RUG in pf.surfaces[("srv", "default", "prompt", "write_summary")].wire["description"]


def test_prompt_argument_made_required_is_breaking_with_witness(work, capsys):
    srv = SurfaceServer([fixture("prompt.json")])
    snap1 = snapshot(srv, work / "s1.json")
    assert run(capsys, "pin", "--snapshot", snap1)[0] == 0
    # the witness works against the pinned prompt on the real server ...
    p2 = copy.deepcopy(srv.prompts[0])
    p2["arguments"][1]["required"] = True
    rc, out, _ = run(
        capsys,
        "check",
        "--from-snapshot",
        snapshot(SurfaceServer([p2]), work / "s2.json"),
        "--fail-on",
        "breaking",
        "--format",
        "json",
    )
    assert rc == 1
    [x] = json.loads(out)["surfaces"]
    [change] = x["changes"]
    assert change["class"] == "breaking"
    witness = change["witness"]["arguments"]

    # ... and fails against the new one: checked on the real server with prompts/get
    from mcp import Client

    async def get(server: SurfaceServer) -> bool:
        async with Client(server.server) as c:
            try:
                await c.get_prompt("write_summary", witness)
                return True
            except Exception:
                return False

    assert anyio.run(get, srv) is True
    assert anyio.run(get, SurfaceServer([p2])) is False


def test_deny_a_prompt_and_new_prompt_waits(work, capsys):
    srv = SurfaceServer([fixture("prompt.json")])
    snap1 = snapshot(srv, work / "s1.json")
    rc, out, _ = run(capsys, "check", "--from-snapshot", snap1)
    assert rc == 1 and "NEW" in out  # a new prompt is never auto-approved
    rc, _, err = run(capsys, "deny", "srv", "--prompt", "write_summary", "--snapshot", snap1)
    assert rc == 0, err
    pf = load_pins("mcp-pins.toml")
    assert pf.surfaces[("srv", "default", "prompt", "write_summary")].decision == "denied"
    rc, _, err = run(capsys, "approve", "srv", "--prompt", "nope", "--snapshot", snap1)
    assert rc == 2 and "serves no prompt" in err
