"""Record-only `proxy` in front of real stdio servers: the call log sees every call the server
runs, whatever the framing of the client's line.

The Python SDK's stdio server reads its stdin as text with universal newlines (a lone ``\\r``
ends a line, as ``\\n`` and ``\\r\\n`` do) and decodes invalid UTF-8 as U+FFFD; a server framing
as the TypeScript SDK does (``servers/proxy_node.mjs``, in Node) splits on ``\\n`` only, also
decodes with replacement, and parses with ``JSON.parse``, which reads a 5,000-digit integer as
Infinity and follows nesting far deeper than Python's parser. The proxy frames on ``\\n`` and
parses bytes. A line that splits, decodes or parses differently on the two sides could run a
call the call log never saw. Each server records every call it runs (``PROXY_RAN_FILE``): that
record, not the replies, is the evidence.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from servers.proxy_harness import SERVERS, RawClient, read_jsonl, sdk_warm

from mcp_review.services.proxy import PARSE_ERROR

pytestmark = pytest.mark.slow


def _msg(rid: int, method: str, params: bytes = b"") -> bytes:
    out = b'{"jsonrpc":"2.0","id":%d,"method":"%s"' % (rid, method.encode())
    return out + (b',"params":' + params if params else b"") + b"}"


def _call(rid: int, case: str, tool: str = "wipe", extra: bytes = b"") -> bytes:
    """A tools/call whose arguments name the case (so the server's record says which ran)."""
    args = b'{"case":"%s"%s}' % (case.encode(), extra)
    return _msg(rid, "tools/call", b'{"name":"%s","arguments":%s}' % (tool.encode(), args))


PING = _msg(1, "ping")

# Each hostile line, and the id the proxy can answer it under (None: it cannot read one).
# Before the fix the server ran the `wipe` call in most of them and the call log missed it.
HOSTILE: dict[str, tuple[bytes, int | None]] = {
    # A lone CR between two messages: one unparseable line to the proxy, two to the server.
    "cr-between": (_msg(101, "ping") + b"\r" + _call(102, "cr-between"), 101),
    # ... at the start: the proxy reads JSON whitespace, the server an empty line first.
    "cr-first": (b"\r" + _call(103, "cr-first"), 103),
    # ... as JSON whitespace inside a ping the proxy parses (and logs nothing for): the
    # server reads the ping's two halves as garbage and the call between them as a message.
    "cr-whitespace": (
        _msg(104, "ping", b'{"x":[\r' + _call(105, "cr-whitespace") + b"\r]}"),
        104,
    ),
    # ... raw inside a JSON string (an honest serialiser escapes it): the same, unparseable.
    "cr-in-string": (_msg(106, "ping", b'{"note":"\r' + _call(107, "cr-in-string") + b'\r"}'), 106),
    # CR CR LF: the first CR is not followed by LF.
    "cr-cr-lf": (_call(108, "cr-cr-lf") + b"\r\r", 108),  # + the LF every line gets
    # A batch, then a call after a CR.
    "cr-batch": (b"[" + _msg(109, "ping") + b"]\r" + _call(110, "cr-batch"), None),
    # Invalid UTF-8: one bad byte, an overlong "/", an encoded lone surrogate, a sequence cut
    # short by the closing quote, a bad byte in a key. The server reads U+FFFD and runs it.
    "utf8-ff": (_call(111, "utf8-ff", extra=b',"p":"/\xff"'), 111),
    "utf8-overlong": (_call(112, "utf8-overlong", extra=b',"p":"\xc0\xaf"'), 112),
    "utf8-surrogate": (_call(113, "utf8-surrogate", extra=b',"p":"\xed\xa0\x80"'), 113),
    "utf8-truncated": (_call(114, "utf8-truncated", extra=b',"p":"\xe2\x80"'), 114),
    "utf8-key": (_call(115, "utf8-key", extra=b',"p\xfe":1'), 115),
    "utf8-batch": (b"[" + _call(116, "utf8-batch", extra=b',"p":"\xff"') + b"]", None),
    # Valid UTF-8, no CR, but not JSON to the proxy's parsers; JSON.parse reads them.
    "huge-integer": (_call(117, "huge-integer", extra=b',"n":' + b"9" * 5000), 117),
    "deep-nesting": (_call(118, "deep-nesting", extra=b',"n":' + b"[" * 20000 + b"]" * 20000), 118),
}

# Lines every server frames and decodes alike: relayed as they are, run and logged.
HONEST: dict[str, bytes] = {
    "crlf": _call(201, "crlf", "echo") + b"\r",  # + the LF every line gets: CRLF
    "escaped-cr": _call(202, "escaped-cr", "echo", b',"p":"a\\rb\\r\\nc"'),
    "raw-u2028": _call(203, "raw-u2028", "echo", ',"p":"a\u2028b\u2029c"'.encode()),
    "raw-nel": _call(204, "raw-nel", "echo", ',"p":"a\u0085b"'.encode()),
    "escaped-nul": _call(205, "escaped-nul", "echo", b',"p":"a\\u0000b"'),
    "four-byte": _call(206, "four-byte", "echo", ',"p":"caf\u00e9 \U0001f600"'.encode()),
}

# No side can parse these (a raw NUL or control character inside a string): refused as well.
UNPARSEABLE: dict[str, tuple[bytes, int | None]] = {
    "raw-nul": (_call(301, "raw-nul", extra=b',"p":"a\x00b"'), 301),
    "raw-tab": (_call(302, "raw-tab", extra=b',"p":"a\tb"'), 302),
    "nul-between": (_msg(303, "ping") + b"\x00" + _call(304, "nul-between"), 303),
}
REFUSED = {**HOSTILE, **UNPARSEABLE}

# Nested 3,000 deep: the proxy parses it (so forwards it) but the call log's redactor cannot walk
# it; the call is logged all the same, its arguments withheld. Node runs it, the SDK does not.
DEEP = _call(119, "deep-3000", extra=b',"n":' + b"[" * 3000 + b"]" * 3000)
CASE_OF_ID = {json.loads(x.rstrip(b"\r"))["id"]: k for k, x in HONEST.items()} | {119: "deep-3000"}
NODE = [shutil.which("node") or "node", str(SERVERS / "proxy_node.mjs")]


def _tools(tmp: Path) -> Path:
    schema = {"type": "object", "properties": {"case": {"type": "string"}}}
    tools = [
        {"name": n, "description": f"{n} things", "inputSchema": schema} for n in ("echo", "wipe")
    ]
    path = tmp / "tools.json"
    path.write_text(json.dumps(tools))
    return path


def _ran(tmp: Path) -> set[str]:
    """The cases whose call the server ran (read without parsing: one is nested 3,000 deep)."""
    path = tmp / "ran.jsonl"
    text = path.read_text() if path.exists() else ""
    return set(re.findall(r'"case": ?"([^"]+)"', text))


@pytest.mark.parametrize(
    "server",
    [
        # The SDK server forked warm (proxy_harness.sdk_warm): the same script reading the same
        # pipe with the SDK's own stdin reader; its interpreter's start is not what is tested.
        pytest.param(None, id="python-sdk"),
        pytest.param(
            NODE,
            id="node-typescript-framing",
            marks=pytest.mark.skipif(shutil.which("node") is None, reason="no node"),
        ),
    ],
)
def test_the_call_log_sees_every_call_the_server_runs_whatever_the_framing(
    tmp_path: Path, server: list[str] | None
):
    server = server or sdk_warm()
    env = {"PROXY_TOOLS_FILE": str(_tools(tmp_path)), "PROXY_RAN_FILE": str(tmp_path / "ran.jsonl")}
    with RawClient(tmp_path, env=env, server=server) as c:
        c.initialize()
        assert [t["name"] for t in c.request("tools/list")["result"]["tools"]] == ["echo", "wipe"]
        lines = [x for x, _ in REFUSED.values()] + [*HONEST.values(), DEEP]
        c.send_raw(b"".join(x + b"\n" for x in lines))
        c.send_raw(_msg(900, "ping") + b"\n")
        got = []
        while True:
            m = c.recv()
            got.append(m)
            if isinstance(m, dict) and m.get("id") == 900:
                break
        # The honest calls are answered (the SDK server handles requests concurrently).
        want = {int(json.loads(HONEST[k].rstrip(b"\r"))["id"]) for k in HONEST}
        while not want <= {m.get("id") for m in got if isinstance(m, dict)}:
            got.append(c.recv())
        assert c.close() == 0
    ran = _ran(tmp_path)
    logged = {CASE_OF_ID.get(r.get("id")) for r in read_jsonl(tmp_path / "calls.jsonl")}
    # The promise: nothing ran that the call log did not see.
    assert ran <= logged, f"ran without a log entry: {sorted(ran - logged)}"
    # Honest lines still pass, run, and are logged; no refused line ran.
    assert ran - {"deep-3000"} == set(HONEST), sorted(ran)
    assert logged == {*HONEST, "deep-3000"}, sorted(logged)
    deep = next(r for r in read_jsonl(tmp_path / "calls.jsonl") if r["id"] == 119)
    assert deep["arguments"] == {} and deep["redacted"] is True
    # Each refused line: -32700 under the id the proxy could read, else dropped; logged.
    refusals = {
        m["id"]: m["error"]
        for m in got
        if isinstance(m, dict) and m.get("error", {}).get("code") == PARSE_ERROR and m["id"]
    }
    assert set(refusals) == {rid for _, rid in REFUSED.values() if rid is not None}
    assert all("Nothing was forwarded" in e["message"] for e in refusals.values())
    log = c.stderr()
    assert log.count("dropped from the client") == len(REFUSED)
    assert "a carriage return" in log and "not valid UTF-8" in log and "not JSON" in log
