"""``proxy --enforce`` and prompts, resources and templates (issue 43 item 5): a real SDK
client through the proxy to a real SDK server lists and gets only the approved ones; a
rug-pulled prompt or resource is withheld until it is approved again; a resources/read of a
URI that is neither an approved resource nor matches an approved template is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import stdio_server_argv
from servers.proxy_harness import ROOT, SERVERS

from mcp_review.engine.surfaces import PROMPT, RESOURCE, TEMPLATE, make_surface_pin
from mcp_review.services.proxy.surfaces_gate import template_regex
from mcp_review.store.pinfile import load_pins, save_pins

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"
RUG = json.loads((FIX / "rugpull.json").read_text())["description"]


def fixture(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def approve(pins: Path, kind: str, wire: dict[str, Any]) -> None:
    pf = load_pins(str(pins))
    pf.decide_surface(
        make_surface_pin("srv", kind, wire, "approved", principal="default", by="t", at="x")
    )
    save_pins(pf, str(pins))


def test_template_regex():
    rx = template_regex("file:///project/{path}")
    assert rx is not None and rx.match("file:///project/a.txt")
    assert not rx.match("file:///project/a/b.txt") and not rx.match("file:///etc/passwd")
    rx = template_regex("file:///project/{+path}")
    assert rx is not None and rx.match("file:///project/a/b.txt")
    rx = template_regex("search://q{?term,limit}")
    assert rx is not None and rx.match("search://q?term=x&limit=2") and rx.match("search://q")


def test_enforce_withholds_unapproved_prompts_and_resources(tmp_path: Path):
    from mcp import Client, MCPError, StdioServerParameters
    from mcp.client.stdio import stdio_client

    p, r, t = fixture("prompt.json"), fixture("resource.json"), fixture("template.json")
    other = dict(r, uri="file:///other.txt", name="other")
    surfaces = tmp_path / "surfaces.json"
    surfaces.write_text(json.dumps({"prompts": [p], "resources": [r, other], "templates": [t]}))
    pins = tmp_path / "mcp-pins.toml"
    approve(pins, PROMPT, p)
    approve(pins, RESOURCE, r)
    approve(pins, TEMPLATE, t)
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m", "mcp_review", "proxy", "--enforce", "--pins", str(pins), "--name", "srv",
            "--", *stdio_server_argv(SERVERS / "surfaceserver.py"),
        ],
        env={"MCP_REVIEW_SURFACES_FILE": str(surfaces)},
        cwd=str(ROOT),
    )  # fmt: skip

    async def go() -> None:
        with open(tmp_path / "proxy.log", "a") as errlog, anyio.fail_after(120):
            client = Client(
                stdio_client(params, errlog=errlog), cache=None, read_timeout_seconds=30
            )
            async with client as c:
                # approved as served: listed and usable; "other" was never approved
                assert [x.name for x in (await c.list_prompts()).prompts] == ["write_summary"]
                assert [str(x.uri) for x in (await c.list_resources()).resources] == [r["uri"]]
                assert [x.name for x in (await c.list_resource_templates()).resource_templates] == [
                    "project_file"
                ]
                await c.get_prompt("write_summary", {"topic": "x"})
                assert (await c.read_resource(r["uri"])).contents[0].text
                assert (await c.read_resource("file:///project/notes.txt")).contents  # template
                for uri in ("file:///other.txt", "file:///etc/passwd"):
                    with pytest.raises(MCPError) as e:
                        await c.read_resource(uri)
                    assert "neither an approved resource" in e.value.error.message

                # the server rug-pulls the prompt's and the resource's descriptions
                p2, r2 = dict(p, description=RUG), dict(r, description="README. " + RUG)
                surfaces.write_text(
                    json.dumps({"prompts": [p2], "resources": [r2, other], "templates": [t]})
                )
                assert (await c.list_prompts()).prompts == []
                assert (await c.list_resources()).resources == []
                with pytest.raises(MCPError) as e:
                    await c.get_prompt("write_summary", {"topic": "x"})
                assert "changed since it was approved" in e.value.error.message
                with pytest.raises(MCPError):
                    await c.read_resource(r["uri"])

                # the operator approves them: served again, without restarting anything
                approve(pins, PROMPT, p2)
                approve(pins, RESOURCE, r2)
                [listed] = (await c.list_prompts()).prompts
                assert listed.description == RUG
                assert [str(x.uri) for x in (await c.list_resources()).resources] == [r["uri"]]
                await c.get_prompt("write_summary", {"topic": "x"})
                assert (await c.read_resource(r["uri"])).contents

    anyio.run(go)
    log = (tmp_path / "proxy.log").read_text()
    assert "withheld prompt 'write_summary'" in log and "refused resources/read" in log, log


def test_ui_resources_in_a_resource_list_follow_the_tools_pin(tmp_path: Path):
    """A ui:// resource in resources/list is the tool's (issue 42): listed when an approved
    tool names it, withheld otherwise; fetch does not pin it as a resource."""
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin
    from mcp_review.services.proxy.enforce import PinEnforcer

    pins = tmp_path / "mcp-pins.toml"
    chart = {
        "name": "show_chart",
        "inputSchema": {"type": "object"},
        "_meta": {"ui": {"resourceUri": "ui://charts/view.html"}},
    }
    pf = load_pins(str(pins))
    pf.decide(make_pin("srv", ToolDef.from_wire(chart), Decision.APPROVED, by="t"))
    save_pins(pf, str(pins))
    gate = PinEnforcer(str(pins), "srv")
    items = [
        {"uri": "ui://charts/view.html", "name": "chart"},
        {"uri": "ui://other/x.html", "name": "other"},
        {"uri": "file:///a", "name": "a"},
    ]
    kept, withheld = gate.surfaces("resource", items)
    assert [w["uri"] for w in kept] == ["ui://charts/view.html"]
    assert sorted(n for n, _ in withheld) == ["file:///a", "ui://other/x.html"]
