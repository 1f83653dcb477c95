"""The proxy package's structure: cancellation propagates and leaves nothing behind, nothing
swallows it, and the gate's judgement is cached off the relay path until the pin file changes.

The relay runs in this process (``Proxy.run`` on two real pipes) so the test can see its tasks
and threads; the server is a real subprocess (``tests/servers/proxy_raw.py``)."""

from __future__ import annotations

import ast
import asyncio
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from servers.proxy_harness import RAW, alive, wait_gone

import mcp_review.services.proxy as proxy_pkg
from mcp_review.engine.errors import InputError
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.services.proxy import REFUSED_CODE, PinEnforcer, Proxy
from mcp_review.services.proxy import enforce as enforce_mod
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.slow

ECHO = {
    "name": "echo",
    "description": "echo text",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}


def _pins_with(path: Path, tool: dict, decision: Decision) -> bytes:
    """The bytes of a pin file holding ``tool`` with ``decision`` (written, then read back)."""
    if path.exists():
        path.unlink()
    pf = load_pins(str(path))
    pf.decide(make_pin("srv", ToolDef.from_wire(tool), decision, by="test"))
    save_pins(pf, str(path))
    return path.read_bytes()


class InProcess:
    """``Proxy.run`` in this event loop on two pipes; the test is the client."""

    def __init__(self, tmp: Path, proxy: Proxy):
        self.proxy = proxy
        self.c2p_r, self.c2p_w = os.pipe()  # client -> proxy stdin
        self.p2c_r, self.p2c_w = os.pipe()  # proxy stdout -> client
        self.replies = os.fdopen(self.p2c_r, "rb")
        self.rc: int | None = None
        self.returned = False
        self.disconnected = False

    async def run(self) -> None:
        self.rc = await self.proxy.run(self.c2p_r, self.p2c_w)
        self.returned = True  # not reached when the run was cancelled

    def send(self, obj: Any) -> None:
        os.write(self.c2p_w, json.dumps(obj).encode() + b"\n")

    async def recv(self) -> Any:
        with anyio.fail_after(30):
            line = await anyio.to_thread.run_sync(self.replies.readline)
        assert line, "the proxy closed its stdout"
        return json.loads(line)

    async def initialize(self) -> None:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "0"},
                },
            }
        )
        assert (await self.recv())["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def hanging_call(self) -> None:
        """A ``tools/call`` the server never answers, in flight: the ``ping`` sent after it is
        answered, and the server reads its stdin in order."""
        self.send(
            {
                "jsonrpc": "2.0",
                "id": "hang",
                "method": "tools/call",
                "params": {"name": "hang", "arguments": {}},
            }
        )
        self.send({"jsonrpc": "2.0", "id": "after", "method": "ping"})
        assert (await self.recv())["id"] == "after"

    def disconnect(self) -> None:
        if not self.disconnected:
            os.close(self.c2p_w)
            self.disconnected = True

    def close(self) -> None:
        self.disconnect()
        for fd in (self.c2p_r, self.p2c_w):
            os.close(fd)
        self.replies.close()


def _stubborn_proxy(tmp: Path, **kw: Any) -> tuple[Proxy, Path]:
    """A proxy in front of the worst server: ignores stdin EOF and SIGTERM, has a child."""
    pidfile = tmp / "pids"
    env = {**os.environ, "PROXY_PID_FILE": str(pidfile), "PROXY_CHILD": "1", "PROXY_STUBBORN": "1"}
    diag = open(tmp / "proxy.log", "a")
    return Proxy(
        RAW, name="proxy_raw", env=env, diag=diag, server_log=str(tmp / "server.log"), **kw
    ), pidfile


def _other_tasks(before: set[asyncio.Task[Any]]) -> set[asyncio.Task[Any]]:
    return {t for t in asyncio.all_tasks() if t not in before and not t.done()}


async def test_client_disconnect_mid_call_cancels_the_relay_and_leaves_nothing(tmp_path: Path):
    proxy, pidfile = _stubborn_proxy(tmp_path)
    io = InProcess(tmp_path, proxy)
    before = set(asyncio.all_tasks())
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(io.run)
            await io.initialize()
            server_pid, child_pid = map(int, pidfile.read_text().split())
            assert alive(server_pid) and alive(child_pid)
            # A call the server never answers, then the client goes away mid-call.
            await io.hanging_call()
            assert not io.returned
            io.disconnect()
        # The task group returned: the relay ended by itself on the client's EOF.
        assert io.returned and io.rc == 0
        assert wait_gone([server_pid, child_pid], 5) == []
        assert _other_tasks(before) == set(), "a task of the relay outlived it"
    finally:
        io.close()


async def test_cancelling_the_proxy_mid_call_propagates_and_kills_the_server(tmp_path: Path):
    proxy, pidfile = _stubborn_proxy(tmp_path)
    io = InProcess(tmp_path, proxy)
    before = set(asyncio.all_tasks())
    try:
        with anyio.CancelScope() as outer:
            async with anyio.create_task_group() as tg:
                tg.start_soon(io.run)
                await io.initialize()
                server_pid, child_pid = map(int, pidfile.read_text().split())
                await io.hanging_call()
                outer.cancel()  # the caller gives up while the call is in flight
                await anyio.sleep_forever()
        # The cancellation went through Proxy.run (nothing swallowed it: run never returned)
        # and reached this scope; the server group was killed on the way out.
        assert outer.cancelled_caught
        assert not io.returned and io.rc is None
        assert wait_gone([server_pid, child_pid], 5) == []
        assert _other_tasks(before) == set()
    finally:
        io.close()


def _suppressions(tree: ast.AST) -> list[str]:
    """Every place a handler could swallow a cancellation: ``except BaseException``, a bare
    ``except:``, ``contextlib.suppress(BaseException | CancelledError | ...)``, and
    ``gather(..., return_exceptions=True)``."""
    cancel_names = {
        "BaseException",
        "CancelledError",
        "Cancelled",
        "KeyboardInterrupt",
        "GeneratorExit",
        "SystemExit",
        "get_cancelled_exc_class",
    }

    def names(node: ast.AST | None) -> set[str]:
        out: set[str] = set()
        for n in ast.walk(node) if node is not None else ():
            if isinstance(n, ast.Name):
                out.add(n.id)
            elif isinstance(n, ast.Attribute):
                out.add(n.attr)
        return out

    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.ExceptHandler):
            if n.type is None or names(n.type) & cancel_names:
                found.append(f"line {n.lineno}: except {ast.unparse(n.type) if n.type else ''}")
        elif isinstance(n, ast.Call):
            fn = ast.unparse(n.func)
            if fn.endswith("suppress") and any(names(a) & cancel_names for a in n.args):
                found.append(f"line {n.lineno}: {ast.unparse(n)}")
            if any(k.arg == "return_exceptions" for k in n.keywords):
                found.append(f"line {n.lineno}: {ast.unparse(n)}")
    return found


def test_the_proxy_package_never_suppresses_cancellation():
    pkg = Path(proxy_pkg.__file__).parent
    files = sorted(pkg.glob("*.py"))
    assert {f.name for f in files} >= {
        "__init__.py",
        "framing.py",
        "enforce.py",
        "process.py",
        "relay.py",
    }
    for f in files:
        text = f.read_text()
        assert "BaseException" not in text, f.name
        assert _suppressions(ast.parse(text)) == [], f.name
    # The checker itself finds each form it looks for.
    planted = (
        "try:\n    pass\nexcept BaseException:\n    pass\n"
        "try:\n    pass\nexcept:\n    pass\n"
        "with contextlib.suppress(asyncio.CancelledError):\n    pass\n"
        "asyncio.gather(a, return_exceptions=True)\n"
    )
    assert len(_suppressions(ast.parse(planted))) == 4


# The gate -----------------------------------------------------------------------------------


@pytest.mark.parametrize("settled", [False, True], ids=["just-written", "settled"])
def test_a_pin_file_rewritten_in_place_is_seen_by_the_next_check(
    tmp_path: Path, monkeypatch: Any, settled: bool
):
    """The attacker's test: between two calls the pin file is rewritten in place (same inode)
    to the same size, and its mtime is set back. The second call sees the new decision."""
    pins = tmp_path / "mcp-pins.toml"
    denied = _pins_with(pins, ECHO, Decision.DENIED)
    approved = _pins_with(pins, ECHO, Decision.APPROVED)
    width = max(len(denied), len(approved))
    denied += b"#" * (width - len(denied))
    approved += b"#" * (width - len(approved))
    pins.write_bytes(approved)
    if settled:
        # As if the file had been written long ago: its signature alone is trusted.
        real = enforce_mod._now_ns
        monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    gate = PinEnforcer(str(pins), "srv")
    tool = dict(ECHO)
    assert gate.check([tool])["echo"].allowed
    st = os.stat(pins)
    if settled:
        _wait_for_a_new_ctime(tmp_path, st.st_ctime_ns)
    with open(pins, "r+b") as f:
        f.write(denied)
    os.utime(pins, ns=(st.st_atime_ns, st.st_mtime_ns))
    st2 = os.stat(pins)
    # What the old (mtime, size, inode) signature saw: nothing.
    assert (st2.st_mtime_ns, st2.st_size, st2.st_ino) == (st.st_mtime_ns, st.st_size, st.st_ino)
    v = gate.check([tool])["echo"]
    assert not v.allowed and v.status == "denied"


def _wait_for_a_new_ctime(tmp: Path, ctime_ns: int) -> None:
    """ctime has a coarse clock: wait until a write would stamp a different one, as it would
    between two real calls long after the file was written."""
    probe = tmp / "ctime.probe"
    while True:
        probe.write_bytes(b"")
        if os.stat(probe).st_ctime_ns != ctime_ns:
            return
        time.sleep(0.005)


def test_an_unchanged_pin_file_is_judged_once_and_served_from_the_cache(
    tmp_path: Path, monkeypatch: Any
):
    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, ECHO, Decision.APPROVED)
    real = enforce_mod._now_ns
    monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    gate = PinEnforcer(str(pins), "srv")
    judged: list[int] = []
    judge = gate._judge

    def counting(tools: list[dict[str, Any]]) -> Any:
        judged.append(len(tools))
        return judge(tools)

    gate._judge = counting  # type: ignore[method-assign]
    tool = dict(ECHO)
    assert gate.peek([tool]) is None  # never judged: only check() can answer
    first = gate.check([tool])
    for _ in range(5):
        assert gate.check([tool]) == first
        assert gate.peek([tool]) == first
    assert (judged, gate.reloads) == ([1], 1)
    # A new definition object of the same tool is judged afresh (the server re-listed it).
    assert gate.peek([dict(ECHO)]) is None
    gate.check([dict(ECHO)])
    assert (judged, gate.reloads) == ([1, 1], 1)


FORECAST = {
    "name": "forecast",
    "description": "the forecast for a city",
    "inputSchema": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    },
}


def test_calls_recorded_after_the_gate_started_decide_its_next_verdict(
    tmp_path: Path, monkeypatch: Any
):
    """A long-running proxy (the HTTP front, a long session) judges with the calls recorded
    since it started, as `status` does: under the `compatible` tier a removed optional property
    is re-pinned only while no recorded call sends it. Before, the log was read with the pins
    only, so a call recorded through the proxy never counted until the pin file changed, and
    the proxy forwarded a tool `status` and `check` held for review."""
    from mcp_review.store.calllog import CallLog

    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, FORECAST, Decision.APPROVED)
    echo = dict(ECHO)
    _pins_with_also(pins, echo)
    log = tmp_path / "calls.jsonl"
    real = enforce_mod._now_ns  # the pin file written long ago: its signature alone is trusted
    monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    gate = PinEnforcer(str(pins), "srv", default_tier="compatible", calls_path=str(log))
    v3 = {
        **FORECAST,
        "inputSchema": {**FORECAST["inputSchema"], "properties": {"city": {"type": "string"}}},
    }
    first = gate.check([v3, echo])
    assert first["forecast"].allowed, first  # nothing recorded sends `days`
    judged: list[str] = []
    judge = gate._judge

    def counting(tools: list[dict[str, Any]]) -> Any:
        judged.extend(t["name"] for t in tools)
        return judge(tools)

    gate._judge = counting  # type: ignore[method-assign]
    writer = CallLog(str(log), server="srv", principal="default")
    writer.record_call("forecast", {"city": "Paris", "days": 2}, rpc_id=1)
    writer.close()
    # The pinned tool's verdict does not depend on calls: still served from the cache.
    assert gate.peek([echo]) == {"echo": first["echo"]}
    # The drifted tool's cached verdict is stale: only check() may answer, and it re-judges.
    assert gate.peek([v3, echo]) is None
    after = gate.check([v3, echo])
    assert not after["forecast"].allowed and after["forecast"].status.startswith("broken"), after
    assert after["echo"] == first["echo"]
    assert judged == ["forecast"]
    assert gate.reloads == 1  # the pin file was not re-read


def test_peek_follows_a_few_appended_calls_itself_and_misses_when_one_turns_a_verdict(
    tmp_path: Path, monkeypatch: Any
):
    """A drifted tool's call is recorded on every call, so the log has always moved by the next
    one: ``peek`` reads those few new lines itself (no worker thread, no new judgement) when
    they change nothing the verdict turns on, and misses when one does; more than
    ``PEEK_GROWTH`` bytes appended are left to ``check``."""
    from mcp_review.store.calllog import CallLog

    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, FORECAST, Decision.APPROVED)
    log = tmp_path / "calls.jsonl"
    real = enforce_mod._now_ns
    monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    gate = PinEnforcer(str(pins), "srv", default_tier="compatible", calls_path=str(log))
    v3 = {
        **FORECAST,
        "inputSchema": {**FORECAST["inputSchema"], "properties": {"city": {"type": "string"}}},
    }
    writer = CallLog(str(log), server="srv", principal="default")
    writer.record_call("forecast", {"city": "a"}, rpc_id=1)
    first = gate.check([v3])
    assert first["forecast"].allowed and first["forecast"].status != "pinned", first
    judged: list[str] = []
    judge = gate._judge

    def counting(tools: list[dict[str, Any]]) -> Any:
        judged.extend(t["name"] for t in tools)
        return judge(tools)

    gate._judge = counting  # type: ignore[method-assign]
    for i in range(5):  # calls that do not send the removed `days`: the verdict stands
        writer.record_call("forecast", {"city": f"c{i}"}, rpc_id=10 + i)
        assert gate.peek([v3]) == first
    assert judged == [] and len(gate._calls.by_tool["forecast"]) == 6
    # A call that sends `days` turns it: peek misses, and check() judges it broken.
    writer.record_call("forecast", {"city": "b", "days": 3}, rpc_id=20)
    assert gate.peek([v3]) is None
    after = gate.check([v3])["forecast"]
    assert not after.allowed and after.status.startswith("broken"), after
    # Past PEEK_GROWTH appended at once: left to check() (a miss, nothing read by peek).
    gate2 = PinEnforcer(str(pins), "srv", default_tier="compatible", calls_path=str(log))
    assert not gate2.check([v3])["forecast"].allowed
    off = gate2._calls_off
    while log.stat().st_size - off <= enforce_mod.PEEK_GROWTH:
        writer.record_call("other", {"pad": "x" * 1000}, rpc_id=1)
    assert gate2.peek([v3]) is None and gate2._calls_off == off
    # A pinned tool's verdict turns on no call: peek reads nothing for it.
    pinned = dict(FORECAST)
    assert gate2.check([pinned])["forecast"].status == "pinned"
    off = gate2._calls_off
    writer.record_call("forecast", {"city": "d", "days": 1}, rpc_id=30)
    assert gate2.peek([pinned])["forecast"].status == "pinned"
    assert gate2._calls_off == off
    writer.close()


def test_one_call_reads_a_line_exactly_as_parse_calls_does_or_declines(tmp_path: Path):
    """The enforcing proxy reads its own last call with ``engine.calls.one_call`` instead of a
    reader per line: for every line it answers, the answer is the call ``parse_calls`` (the
    reader ``status`` replays with) makes of that line, values and their types alike; any line
    that reader might treat otherwise (long digit runs, integers past 64 bits, a lone
    surrogate, NaN, a BOM, two lines, a bare argument object, JSON-RPC, a foreign key) it
    declines. The proxy's own records take the fast path."""
    import io

    from mcp_review.engine.calls import one_call, parse_calls
    from mcp_review.store.calllog import CallLog

    log = tmp_path / "calls.jsonl"
    w = CallLog(str(log), server="srv", principal="default")
    w.record_call("echo", {"q": "x" * 100}, rpc_id=7, digest="sha256:" + "ab" * 32)
    w.record_call("echo", {"q": "é\u2028", "n": 1.5, "k": [True, None]}, rpc_id="s1")
    w.record_call("echo", None, rpc_id=3, held={"live_digest": "sha256:" + "cd" * 32})
    w.record_call("echo", {"token": "ghp_" + "a" * 36}, rpc_id=4)  # redacted
    w.record_call("echo", {"big": 2**70, "n": 1234567890123456789}, rpc_id=5)
    w.record_call("echo", {"deep": [[[[["x"]]]]]}, rpc_id=6)
    w.close()
    lines = log.read_bytes().splitlines(keepends=True)
    hand = [
        b'{"tool":"echo","arguments":{"q":1},"server":"s","principal":"p","time":"t"}\n',
        b'{"tool":"echo","arguments":{"q":"\\ud800"}}\n',
        b'{"tool":"echo","arguments":{"q":NaN}}\n',
        b'\xef\xbb\xbf{"tool":"echo","arguments":{}}\n',
        b'{"tool":"echo","arguments":{}}\n{"tool":"echo","arguments":{}}\n',
        b'{"tool":"echo","arguments":{}}',
        b'{"q":"a bare argument object"}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}\n',
        b'{"tool":"echo","arguments":{},"extra":1}\n',
        b'{"tool":"echo","arguments":{"n":100000000000000000000}}\n',
        b'{"tool":"echo","arguments":{"n":1e400}}\n',
        b'{"tool":"echo","arguments":{"a":1,"a":2}}\n',
        b"not json\n",
        b"\n",
    ]
    taken = 0
    for line in [*lines, *hand]:
        got = one_call(line)
        truth = list(parse_calls(io.BytesIO(line), source="x", strict=False))
        if got is None:
            continue
        taken += 1
        assert len(truth) == 1, line
        want = truth[0]
        assert (got.index, got.line, got.tool) == (want.index, want.line, want.tool), line
        assert repr(got.arguments) == repr(want.arguments), line
    assert one_call(lines[0]) is not None and one_call(lines[2]) is not None
    assert taken >= 5
    for line in hand[1:9]:
        assert one_call(line) is None, line


def test_the_gate_reads_only_the_calls_appended_since_and_a_rotated_log_whole(
    tmp_path: Path, monkeypatch: Any
):
    """Following the call log costs a call what was appended since the last read (whole lines;
    a line still being written waits), not the whole log; a rotated or truncated log is read
    again from its start. What the gate holds is what `load_call_log` reads from the file."""
    from mcp_review.store.calllog import CallLog
    from mcp_review.store.readers import load_call_log

    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, FORECAST, Decision.APPROVED)
    log = tmp_path / "calls.jsonl"
    real = enforce_mod._now_ns
    monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    gate = PinEnforcer(str(pins), "srv", default_tier="compatible", calls_path=str(log))
    writer = CallLog(str(log), server="srv", principal="default")

    def held() -> dict[str, list[Any]]:
        got = gate._calls.by_tool if gate._calls is not None else {}
        return {k: [(c.index, c.arguments) for c in v] for k, v in got.items()}

    def on_disk() -> dict[str, list[Any]]:
        got = load_call_log(str(log)).by_tool
        return {k: [(c.index, c.arguments) for c in v] for k, v in got.items()}

    v3 = {
        **FORECAST,
        "inputSchema": {**FORECAST["inputSchema"], "properties": {"city": {"type": "string"}}},
    }
    writer.record_call("forecast", {"city": "a"}, rpc_id=1)
    assert gate.check([dict(v3)])["forecast"].allowed
    read: list[int] = []
    parse = enforce_mod._parse_call_log

    def counting(path: str, data: bytes) -> Any:
        read.append(len(data))
        return parse(path, data)

    import mcp_review.engine.calls as calls_mod

    one = calls_mod.one_call

    def counting_one(line: bytes) -> Any:  # one appended line, read without a reader
        got = one(line)
        if got is not None:
            read.append(len(line))
        return got

    monkeypatch.setattr(enforce_mod, "_parse_call_log", counting)
    monkeypatch.setattr(calls_mod, "one_call", counting_one)
    size = log.stat().st_size
    writer.record_call("other", {"x": 1}, rpc_id=2)
    with open(log, "ab") as f:
        f.write(b'{"tool": "forecast", "arguments": {"ci')  # a line being written
    assert gate.check([dict(v3)])["forecast"].allowed
    assert read == [log.stat().st_size - size - len(b'{"tool": "forecast", "arguments": {"ci')]
    with open(log, "ab") as f:
        f.write(b'ty": "b", "days": 3}}\n')
    v = gate.check([dict(v3)])["forecast"]
    assert not v.allowed, v  # the completed line sends `days`
    assert held() == on_disk() and len(held()["forecast"]) == 2
    # Rotated: a new file under the name, read whole.
    writer.close()
    log.rename(tmp_path / "calls.jsonl.1")
    writer = CallLog(str(log), server="srv", principal="default")
    writer.record_call("forecast", {"city": "c"}, rpc_id=3)
    writer.close()
    assert gate.check([dict(v3)])["forecast"].allowed  # nothing recorded now sends `days`
    assert held() == on_disk() == {"forecast": [(1, {"city": "c"})]}


def _pins_with_also(path: Path, tool: dict) -> None:
    pf = load_pins(str(path))
    pf.decide(make_pin("srv", ToolDef.from_wire(tool), Decision.APPROVED, by="test"))
    save_pins(pf, str(path))


def test_a_pin_file_that_stops_parsing_fails_closed_on_every_check(tmp_path: Path):
    pins = tmp_path / "mcp-pins.toml"
    good = _pins_with(pins, ECHO, Decision.APPROVED)
    gate = PinEnforcer(str(pins), "srv")
    tool = dict(ECHO)
    assert gate.check([tool])["echo"].allowed
    pins.write_bytes(b"version = [[[ not toml\n")
    for _ in range(3):  # never the stale verdict, however often it is asked
        with pytest.raises(InputError):
            gate.check([tool])
        assert gate.peek([tool]) is None
    pins.write_bytes(good)
    assert gate.check([tool])["echo"].allowed


async def test_the_relay_judges_in_a_worker_thread_and_follows_the_pin_file(tmp_path: Path):
    """Through the in-process relay: the pin file is parsed off the event loop's thread; a
    denial between two calls refuses the second; a pin file that stops parsing withholds."""
    pins = tmp_path / "mcp-pins.toml"
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps([ECHO]))
    approved = _pins_with(pins, ECHO, Decision.APPROVED)
    gate = PinEnforcer(str(pins), "srv")
    parsed_on: list[threading.Thread] = []
    refresh = gate._refresh

    def spy() -> None:
        parsed_on.append(threading.current_thread())
        refresh()

    gate._refresh = spy  # type: ignore[method-assign]
    env = {**os.environ, "PROXY_TOOLS_FILE": str(tools_file)}
    proxy = Proxy(RAW, name="srv", env=env, gate=gate, diag=open(tmp_path / "proxy.log", "a"))
    io = InProcess(tmp_path, proxy)
    loop_thread = threading.current_thread()

    async def call(i: int) -> Any:
        io.send(
            {
                "jsonrpc": "2.0",
                "id": i,
                "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "hi"}},
            }
        )
        return await io.recv()

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(io.run)
            await io.initialize()
            io.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            assert [t["name"] for t in (await io.recv())["result"]["tools"]] == ["echo"]
            assert "result" in await call(2)
            _pins_with(pins, ECHO, Decision.DENIED)
            err = (await call(3))["error"]
            assert err["code"] == REFUSED_CODE and err["data"]["status"] == "denied"
            pins.write_bytes(approved)
            assert "result" in await call(4)
            pins.write_bytes(b"version = [[[ not toml\n")
            err = (await call(5))["error"]
            assert err["code"] == REFUSED_CODE and err["data"]["status"] == "error"
            io.disconnect()
        assert io.rc == 0
    finally:
        io.close()
    assert parsed_on and loop_thread not in parsed_on


def test_services_share_transport_through_public_names_only():
    """fetch, watch, rerun and the proxy meet in ``services.transport``; none of them imports
    a private name from another services module."""
    root = Path(proxy_pkg.__file__).parents[1]
    private: list[str] = []
    users = [root / f"{m}.py" for m in ("fetch", "watch", "rerun", "transport")]
    for f in [*users, *sorted((root / "proxy").glob("*.py"))]:
        for n in ast.walk(ast.parse(f.read_text())):
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("mcp_review.services"):
                own = ".".join(f.relative_to(root.parents[1]).with_suffix("").parts)
                if own.startswith(n.module or "") or (n.module or "").startswith(own):
                    continue  # a module of the same package
                private += [
                    f"{f.name}: {n.module}.{a.name}" for a in n.names if a.name.startswith("_")
                ]
    assert private == []
    watch = ast.parse((root / "watch.py").read_text())
    sources = {n.module for n in ast.walk(watch) if isinstance(n, ast.ImportFrom)}
    assert "mcp_review.services.transport" in sources


def test_a_call_log_that_cannot_be_read_is_an_input_error_naming_it(tmp_path: Path):
    """As `load_call_log` said it before the gate read the log itself: the proxy's start-up
    check turns it into exit 2 with the file named, and the relay fails closed on it."""
    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, ECHO, Decision.APPROVED)
    (tmp_path / "calls.jsonl").mkdir()
    gate = PinEnforcer(str(pins), "srv", calls_path=str(tmp_path / "calls.jsonl"))
    with pytest.raises(InputError) as ei:
        gate.check([dict(ECHO)])
    assert "calls.jsonl" in str(ei.value.source)


def test_a_recorded_call_costs_the_next_check_its_own_replay_not_the_logs(
    tmp_path: Path, monkeypatch: Any
):
    """Issue 46 item 5: under --enforce a call to a held tool is recorded, so every call moved
    the log and every drifted tool was judged again over all its recorded calls (30 ms at
    20,000). A recorded call can change only its own tool's verdict, and only when it is
    broken or still sends a removed property: the gate replays the new calls alone (counted
    here, never timed) and re-judges a tool only then."""
    from mcp_review.engine import replay as replay_mod
    from mcp_review.store.calllog import CallLog

    pins = tmp_path / "mcp-pins.toml"
    _pins_with(pins, FORECAST, Decision.APPROVED)
    echo = dict(ECHO)
    _pins_with_also(pins, echo)
    log = tmp_path / "calls.jsonl"
    real = enforce_mod._now_ns
    monkeypatch.setattr(enforce_mod, "_now_ns", lambda: real() + 60 * 10**9)
    writer = CallLog(str(log), server="srv", principal="default")
    for i in range(2_000):  # the log before the proxy starts: judged once, whole
        writer.record_call("forecast", {"city": f"c{i}"}, rpc_id=i)
    gate = PinEnforcer(str(pins), "srv", calls_path=str(log))
    held = {**FORECAST, "description": "the forecast for a city, now with rain"}
    v3 = {  # a removed optional property: re-pinned by the tier while no call sends it
        **FORECAST,
        "name": "forecast",
        "inputSchema": {**FORECAST["inputSchema"], "properties": {"city": {"type": "string"}}},
    }
    first = gate.check([held, echo])
    assert first["forecast"].status == "held", first
    fed: list[int] = []
    feed = replay_mod.Replayer.feed

    def counting(self: Any, calls: Any) -> None:
        calls = list(calls)
        fed.append(len(calls))
        feed(self, calls)

    monkeypatch.setattr(replay_mod.Replayer, "feed", counting)
    judged: list[str] = []

    def judging(g: PinEnforcer) -> None:
        judge = g._judge

        def counted(tools: list[dict[str, Any]]) -> Any:
            judged.extend(t["name"] for t in tools)
            return judge(tools)

        g._judge = counted  # type: ignore[method-assign]

    judging(gate)
    for n in range(1, 6):
        writer.record_call("forecast", {"city": "Paris"}, rpc_id=10_000 + n)
        writer.record_call("echo", {"text": "hi"}, rpc_id=20_000 + n)
        again = gate.check([held, echo])
        assert again == first  # the same verdicts, the same objects
    assert judged == [] and fed == [1] * 5  # each check replayed the one new call of its tool
    # The same for a drift the tier re-pins: judged once over the log, then its new calls alone
    # until one of them sends the removed property, which re-judges it over all its calls.
    fed.clear()
    gate = PinEnforcer(str(pins), "srv", default_tier="compatible", calls_path=str(log))
    judging(gate)
    assert gate.check([v3, echo])["forecast"].allowed
    assert judged == ["forecast", "echo"] and fed == [2_005]  # a new gate: both, once
    fed.clear()
    writer.record_call("forecast", {"city": "Oslo"}, rpc_id=30_000)
    assert gate.check([v3, echo])["forecast"].allowed and fed == [1]
    writer.record_call("forecast", {"city": "Rome", "days": 2}, rpc_id=30_001)
    v = gate.check([v3, echo])["forecast"]
    assert not v.allowed and judged == ["forecast", "echo", "forecast"], v
    writer.close()


def test_the_collector_pause_nests_and_keeps_a_callers_choice():
    """gcpause.collector_paused: the collector is off inside, on again after the outermost
    pause ends (an exception too), and left off when it was off before."""
    import gc

    from mcp_review.services.proxy.gcpause import collector_paused

    assert gc.isenabled()
    with collector_paused(False):
        assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # someone else's gc.disable() is kept
    finally:
        gc.enable()


async def test_the_record_only_relay_pauses_the_collector_for_a_large_line_only(
    tmp_path: Path, monkeypatch: Any
):
    """benchmarks/README.md, "Issue 46 item 7, seventh pass": while a large line's value is
    held (parsed, forwarded, recorded), the cyclic collector does not walk it; a batch of small
    lines runs with it on, and it is on again once the large call is through. The call's record
    is the same either way (the collector never decides what is written)."""
    import gc

    from mcp_review.services.proxy import relay as relay_mod
    from mcp_review.services.proxy.recorder import LARGE
    from mcp_review.store.calllog import CallLog

    seen: list[tuple[int, bool]] = []
    real = relay_mod.relay_read  # (what the record-only relay parses a client line with)

    def spy(line: bytes) -> Any:
        seen.append((len(line), gc.isenabled()))
        return real(line)

    monkeypatch.setattr(relay_mod, "relay_read", spy)
    tools_file = tmp_path / "tools.json"
    tools_file.write_text(json.dumps([ECHO]))
    env = {**os.environ, "PROXY_TOOLS_FILE": str(tools_file)}
    log = CallLog(str(tmp_path / "calls.jsonl"), server="srv", principal="default")
    records = [
        {"id": i, "name": f"n{i}", "tags": ["a", "b"], "meta": {"k": i}} for i in range(2000)
    ]
    proxy = Proxy(RAW, name="srv", env=env, calllog=log, diag=open(tmp_path / "proxy.log", "a"))
    io = InProcess(tmp_path, proxy)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(io.run)
            await io.initialize()
            for i, args in ((1, {"text": "hi"}), (2, {"text": "x", "rows": records})):
                io.send(
                    {
                        "jsonrpc": "2.0",
                        "id": i,
                        "method": "tools/call",
                        "params": {"name": "echo", "arguments": args},
                    }
                )
                assert (await io.recv())["id"] == i
                assert gc.isenabled()  # between batches: on
            io.disconnect()
        assert io.rc == 0
    finally:
        io.close()
        log.close()
    large = [on for n, on in seen if n >= LARGE]
    small = [on for n, on in seen if n < LARGE]
    assert large == [False] and small and all(small), seen
    assert gc.isenabled()
    written = [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text().splitlines()]
    calls = [r for r in written if r.get("tool") == "echo"]
    assert [c["arguments"] for c in calls] == [{"text": "hi"}, {"text": "x", "rows": records}]


async def test_an_awaiting_collector_pause_ends_at_its_time_limit():
    """A batch that waits (a server that stops reading its stdin) does not keep the collector
    off: after ``limit`` seconds it runs again, and the block's end leaves it on."""
    import gc

    from mcp_review.services.proxy.gcpause import collector_paused

    with collector_paused(True, 0.05):
        assert not gc.isenabled()
        with collector_paused():
            await asyncio.sleep(0.3)
            assert gc.isenabled()
        assert gc.isenabled()
    assert gc.isenabled()
    with collector_paused(True, 5.0):  # a block that ends first: its timer is cancelled
        assert not gc.isenabled()
    assert gc.isenabled()
