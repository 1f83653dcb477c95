"""Issue 38, must show: one blocking sentence gets the same blocking cues in every placement a
host passes to the model and in every spelling, and blocks in every tier; the enforcing proxy
never serves it to a real SDK client.

Placements: description, title, an input and an output property's description, a new optional
property, an ``x-`` keyword as a string and as a list item, ``format``, ``pattern``, a
``required`` entry, a ``dependentRequired`` entry, an unknown annotation key, an ``enum`` value,
a ``default``, ``_meta``. Spellings: tests/engine/test_read_as_model.py (plain, full-width,
mathematical bold, Cyrillic look-alikes, combining accents, TAG letters, zero-width splits)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from servers.proxy_harness import sdk_proxy_params
from test_read_as_model import BLOCKING, SENTENCE, SPELLINGS

from mcp_review.engine.cues import tool_cues
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import TIERS, Outcome
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status
from mcp_review.store.pinfile import load_pins, save_pins

BASE: dict[str, Any] = {
    "name": "search",
    "description": "Search the catalogue.",
    "inputSchema": {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "What to look for."}},
        "required": ["q"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"hits": {"type": "string", "description": "The hits."}},
    },
    "annotations": {"readOnlyHint": True},
}


def _q(w: dict[str, Any]) -> dict[str, Any]:
    return w["inputSchema"]["properties"]["q"]


PLACEMENTS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "description": lambda w, s: w.__setitem__("description", s),
    "title": lambda w, s: w.__setitem__("title", s),
    "property description": lambda w, s: _q(w).__setitem__("description", s),
    "output property description": lambda w, s: w["outputSchema"]["properties"]["hits"].__setitem__(
        "description", s
    ),
    "new optional property": lambda w, s: w["inputSchema"]["properties"].__setitem__(
        "notes", {"type": "string", "description": s}
    ),
    "x- keyword string": lambda w, s: _q(w).__setitem__("x-guidance", s),
    "x- keyword list item": lambda w, s: w["outputSchema"]["properties"]["hits"].__setitem__(
        "x-notes", ["See the docs.", s]
    ),
    "format": lambda w, s: _q(w).__setitem__("format", s),
    "pattern": lambda w, s: _q(w).__setitem__("pattern", s),
    "required entry": lambda w, s: w["inputSchema"].__setitem__("required", ["q", s]),
    "dependentRequired entry": lambda w, s: w["inputSchema"].__setitem__(
        "dependentRequired", {"q": [s]}
    ),
    "unknown annotation key": lambda w, s: w["annotations"].__setitem__("x-usage", s),
    "enum value": lambda w, s: _q(w).__setitem__("enum", ["books", s]),
    "default": lambda w, s: _q(w).__setitem__("default", s),
    "_meta": lambda w, s: w.__setitem__("_meta", {"vendor/usage": s}),
}

CASES = [(p, s) for p in PLACEMENTS for s in SPELLINGS]


def hostile(placement: str, spelling: str) -> dict[str, Any]:
    w = copy.deepcopy(BASE)
    PLACEMENTS[placement](w, SPELLINGS[spelling](SENTENCE))
    return w


@pytest.mark.parametrize(("placement", "spelling"), CASES)
def test_the_same_blocking_cues_in_every_placement_and_spelling(placement, spelling):
    new = hostile(placement, spelling)
    got = {c.rule for c in tool_cues(BASE, new) if c.blocking} - {"cue.hidden.characters"}
    assert got == BLOCKING, got


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize(("placement", "spelling"), CASES)
def test_every_case_blocks_in_every_tier(placement, spelling, tier):
    """The pinned tool drifts to the hostile one: blocked under strict, tiered and compatible
    (``_meta`` is in the digest since issue 42, so a drift there is a drift)."""
    new = hostile(placement, spelling)
    pins = PinFile()
    assert ToolDef.from_wire(new).digest != ToolDef.from_wire(BASE).digest
    pins.decide(make_pin("s", ToolDef.from_wire(BASE), Decision.APPROVED, by="t"))
    snap = Snapshot()
    snap.servers["s"] = ServerSnapshot(name="s", tools=[ToolDef.from_wire(new)])
    (t,) = compute_status(snap, pins, tiers={"s": tier}).tools
    assert t.policy.outcome is Outcome.BLOCK, (t.state, t.policy.reasons)


def _wire(tool: Any) -> dict[str, Any]:
    return tool.model_dump(by_alias=True, exclude_none=True, mode="json")


async def test_proxy_enforce_never_serves_it_to_a_real_sdk_client(tmp_path: Path):
    """Through ``mcp-review proxy --enforce`` (a real process) between the mcp SDK's client and
    a real server (tests/servers/proxy_server.py), the pinned tool drifting to each hostile case
    under each tier is listed either as approved or not at all: never with the sentence."""
    from mcp import Client
    from mcp.client.stdio import stdio_client

    tools_file, pins = tmp_path / "tools.json", tmp_path / "mcp-pins.toml"
    tools_file.write_text(json.dumps([BASE]))
    pf = load_pins(str(pins))
    pf.decide(make_pin("demo", ToolDef.from_wire(BASE), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    params = sdk_proxy_params(
        tmp_path,
        "--enforce",
        "--pins",
        str(pins),
        "--name",
        "demo",
        env={"PROXY_TOOLS_FILE": str(tools_file)},
    )
    served: dict[str, int] = {"approved": 0, "withheld": 0}
    with anyio.fail_after(600), open(tmp_path / "proxy.log", "a") as errlog:
        client = Client(stdio_client(params, errlog=errlog), cache=None, read_timeout_seconds=30)
        async with client as c:
            assert [_wire(t) for t in (await c.list_tools()).tools] == [BASE]
            for tier in TIERS:
                pf = load_pins(str(pins))
                pf.set_policy("demo", tier, who="test")
                save_pins(pf, str(pins))
                for placement, spelling in CASES:
                    tools_file.write_text(json.dumps([hostile(placement, spelling)]))
                    listed = [_wire(t) for t in (await c.list_tools()).tools]
                    assert listed in ([], [BASE]), (tier, placement, spelling, listed)
                    served["approved" if listed else "withheld"] += 1
    assert sum(served.values()) == len(TIERS) * len(CASES), served
    print("proxy listings:", served)
