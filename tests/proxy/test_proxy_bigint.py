"""Integers past 64 bits keep their value on every path the proxy reads JSON.

orjson reads an integer outside [-2**63, 2**64) as the nearest float without a word
(engine/exactints.py): every place the proxy parses a line with it must give the value the
stdlib's ``json.loads`` gives (exact integers), which is what the server, the client and a
validator read from the same bytes. Held here against that truth: the line parsers alone, then
end to end through the real proxy and the raw test server, record-only (the call log and the
results log) and enforcing (what the client receives).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from servers.proxy_harness import RawClient, read_jsonl

from mcp_review.services.proxy.framing import loads, relay_loads, strict_loads, wire

BIG = 123456789012345678901234567890
EDGES = [
    2**63 - 1,
    2**63,
    2**64 - 1,  # the largest orjson reads as an integer
    2**64,  # the smallest it reads as a float
    -(2**63),  # the smallest it reads as an integer
    -(2**63) - 1,  # the largest negative it reads as a float (19 digits)
    10**19,
    -(10**30),
    BIG,
    int("9" * 300),
]


def typed(v: Any) -> Any:
    """``v`` with every number tagged by its type: 1.0 == 1 and 1e30 == 10**30 in Python, a
    float in place of an integer is exactly the loss looked for."""
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    return (type(v).__name__, v)


def _lines(rnd: random.Random) -> list[bytes]:
    """Client and server lines holding integers around orjson's limits, among floats,
    strings with long digit runs (hashes, ids) and text; short and past 4 KiB (where the
    value is looked at before the text)."""
    out = []
    for n in EDGES:
        out.append(b'{"jsonrpc":"2.0","id":1,"result":{"n":%d}}\n' % n)
        out.append(b'{"jsonrpc": "2.0", "id": 1, "params": {"a": [1, %d, 2.5]}}' % n)
    for _ in range(300):
        parts = []
        for _ in range(rnd.randint(1, 6)):
            r = rnd.random()
            if r < 0.3:
                parts.append(str(rnd.choice(EDGES) * rnd.choice([1, -1])))
            elif r < 0.45:
                parts.append(str(rnd.randrange(-(2**70), 2**70)))
            elif r < 0.55:
                parts.append(rnd.choice(["1.5", "1e30", "-0.0", "12345678901234567890.5"]))
            elif r < 0.7:
                parts.append('"' + "7" * rnd.randint(15, 40) + '"')  # a long id, as a string
            elif r < 0.8:
                parts.append(json.dumps("prose " * rnd.randint(1, 1500)))
            else:
                parts.append(str(rnd.randrange(-1000, 1000)))
        body = ",".join(f'"k{i}":{p}' for i, p in enumerate(parts))
        out.append(b'{"jsonrpc":"2.0","id":7,"params":{' + body.encode() + b"}}\n")
    return out


def test_the_line_parsers_read_every_integer_as_the_stdlib_does():
    """``loads`` (server lines, HTTP bodies) and ``relay_loads`` (the record-only relay's
    client lines): the stdlib's value, types and all, on every line; bytes and text alike."""
    lines = _lines(random.Random(64))
    long_lines = 0
    for line in lines:
        want = typed(json.loads(line))
        assert typed(loads(line)) == want, line[:200]
        assert typed(loads(line.decode())) == want, line[:200]
        got, why = relay_loads(line)
        assert why is None and typed(got) == want, line[:200]
        long_lines += len(line) >= 4096
    assert long_lines > 30  # the value-first path is taken too


def test_the_enforcing_parse_and_its_wire_keep_the_integer():
    """``strict_loads`` takes orjson's value only when orjson writes the line back byte for
    byte (a float never does); ``wire`` then writes what was judged, digit for digit."""
    for n in EDGES:
        line = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n":%d}}\n' % n
        msg = strict_loads(line)
        assert typed(msg) == typed(json.loads(line))
        assert wire(msg) == line
        # a server's pretty-printed answer is re-framed on one line the same way
        assert wire(loads(b'{\n  "id": 1,\n  "n": %d\n}' % n)) == b'{"id":1,"n":%d}\n' % n


TOOLS = [
    {
        "name": "echo",
        "description": "echo the arguments",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "multipleOf": 10}, "m": {"type": "integer"}},
        },
    }
]


def _call(rid: int, n: int, m: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"n": n, "m": m}},
    }


@pytest.mark.slow
def test_record_only_records_and_replays_the_integer_the_server_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A 30-digit argument through the record-only proxy: the server reads the client's bytes;
    the call log and the results log hold the integer, not 1.2345678901234568e+29; the recorded
    call replays as the good call it is (``multipleOf: 10`` refuses the float); its seal
    verifies."""
    from mcp_review.engine.replay import ReplayOutcome, replay
    from mcp_review.store.calllog import seal_key, sealed
    from mcp_review.store.readers import load_calls

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PROXY_TOOLS_FILE": str(tools)}
    calls = [(BIG, -(2**63) - 1), (10 * 2**64, 2**64 - 1)]
    with RawClient(tmp_path, "--record-results", env=env) as c:
        c.initialize()
        c.request("tools/list")
        sent = []
        for i, (n, m) in enumerate(calls):
            sent.append(c.send(_call(100 + i, n, m)))
            reply = c.recv()
            got = reply["result"]["structuredContent"]
            assert got["sha256"] == hashlib.sha256(sent[-1]).hexdigest()
            assert typed(got["arguments"]) == typed({"n": n, "m": m})
        assert c.close() == 0
    recs = [r for r in read_jsonl(tmp_path / "calls.jsonl") if r.get("tool") == "echo"]
    assert [typed(r["arguments"]) for r in recs] == [typed({"n": n, "m": m}) for n, m in calls]
    key = seal_key(create=False)
    assert all(sealed(r, key) for r in recs)
    results = read_jsonl(tmp_path / "calls.jsonl.results.jsonl")
    assert [typed(r["result"]["structuredContent"]["arguments"]) for r in results] == [
        typed({"n": n, "m": m}) for n, m in calls
    ]
    loaded = load_calls(str(tmp_path / "calls.jsonl"), tool="echo")
    schema = TOOLS[0]["inputSchema"]
    outcomes = [o.outcome for o in replay(schema, schema, loaded).outcomes]
    assert outcomes == [ReplayOutcome.OK] * len(calls)


@pytest.mark.slow
def test_the_enforcing_proxy_passes_the_servers_integer_on_digit_for_digit(tmp_path: Path):
    """``--enforce`` re-serialises what it judged from the server: the client gets the
    server's integer, not the nearest float."""
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin
    from mcp_review.store.pinfile import load_pins, save_pins

    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    pins = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(pins))
    pf.decide(make_pin("srv", ToolDef.from_wire(TOOLS[0]), Decision.APPROVED, by="test"))
    save_pins(pf, str(pins))
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PROXY_TOOLS_FILE": str(tools)}
    args = ("--enforce", "--pins", str(pins), "--name", "srv")
    with RawClient(tmp_path, *args, env=env) as c:
        c.initialize()
        c.request("tools/list")
        c.send(_call(9, BIG, -(2**63) - 1))
        line = c.recv_line()
        assert line is not None
        assert b"%d" % BIG in line and b"%d" % (-(2**63) - 1) in line, line[:300]
        got = json.loads(line)["result"]["structuredContent"]["arguments"]
        assert typed(got) == typed({"n": BIG, "m": -(2**63) - 1})
        assert c.close() == 0


@pytest.mark.slow
async def test_the_http_front_passes_the_servers_integer_on_digit_for_digit(tmp_path: Path):
    """The HTTP front writes every server message to its client anew (``wire``), record-only
    too: a real SDK client (which reads integers exactly) gets the server's integers back, and
    the call log holds them."""
    import anyio
    from servers.proxy_harness import RAW
    from test_proxy_http import Front

    front = Front(tmp_path, tools=TOOLS, server=RAW)
    try:
        with anyio.fail_after(120):
            async with front.client() as c:
                r = await c.call_tool("echo", {"n": BIG, "m": -(2**63) - 1})
        got = r.structured_content["arguments"]
        assert typed(got) == typed({"n": BIG, "m": -(2**63) - 1})
    finally:
        front.stop()
    (rec,) = [r for r in read_jsonl(tmp_path / "calls.jsonl") if r.get("tool") == "echo"]
    assert typed(rec["arguments"]) == typed({"n": BIG, "m": -(2**63) - 1})
