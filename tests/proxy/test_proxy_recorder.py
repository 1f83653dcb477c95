"""The record-only proxy's recorder process (services/proxy/recorder.py): the same records as
in-process, in the order the calls were read, and nothing lost when it dies or the proxy does."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from servers.proxy_harness import PATIENCE, ROOT, RawClient, read_jsonl

from mcp_review.services.proxy.framing import relay_loads, relay_read
from mcp_review.services.proxy.recorder import LARGE, _argv, spec_for
from mcp_review.services.proxy.recorder_child import HEAD, NICE, QUIET, _when_due
from mcp_review.store.calllog import CallLog, seal_key, sealed

SECRET = "s3cr3t-value-of-the-server-Zq81"


def _lines() -> list[tuple[bytes, list[tuple[int | None, str, str | None]]]]:
    """Client lines the proxy hands over, each with its calls (index, time, digest)."""
    prose = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
    prose = prose[:300_000] + " Bearer Zk39Qm27Xw84Lp56Rt19Vb73Nc28Hd61 " + SECRET
    code = (ROOT / "mcp_review" / "store" / "calllog.py").read_text(encoding="utf-8")
    rows = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "tests" / "corpus").rglob("*.json"))[:40]
    ]

    def call(i: object, args: object, name: str = "echo") -> dict:
        return {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"name": name, "arguments": args},
        }

    def line(msg: object) -> bytes:
        return json.dumps(msg, ensure_ascii=False).encode() + b"\n"

    t = "2026-12-04T01:00:00.000Z"
    return [
        (line(call(1, {"path": "a.md", "content": prose})), [(None, t, "d" * 64)]),
        (
            line(call("two", {"path": "b.py", "content": code, "apiKey": "k-123456789"})),
            [(None, t, None)],
        ),
        (line(call(3, {"rows": rows, "token": {"a": [1, 2.5, "x"]}})), [(None, t, None)]),
        (line(call(4, {"q": "x" * 100_000})), [(None, t, None)]),
        # a batch: each call its index
        (
            line(
                [
                    call(5, {"password": "p", "u": "https://u:pw@h/x?token=t"}),
                    {"jsonrpc": "2.0", "method": "notifications/x"},
                    call(6, None),
                ]
            ),
            [(0, t, None), (2, t, "e" * 64)],
        ),
        (
            b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"echo","arguments":{"n":1e400,"big":123456789012345678901234567890}}}\n',
            [(None, t, None)],
        ),
        (
            b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"f":NaN,"s":"\\ud800"}}}\n',
            [(None, t, None)],
        ),
    ]


def test_a_call_recorded_by_the_recorder_is_the_in_process_record_byte_for_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each line through the real recorder process gives the very bytes (seal included) that
    recording it in the proxy gives: parsed as the proxy parses it, then ``record_call``, with
    the server's secret scrubbed and the default redaction, for prose, code, records, x's, a
    batch, integers past 64 bits and a NaN."""
    from mcp_review.services.config_model import ServerConfig

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    scrub = ServerConfig("srv", command="-", expanded=(SECRET,)).scrub
    here = CallLog(str(tmp_path / "here.jsonl"), server="srv", principal="p", scrub=scrub)
    spec = spec_for(
        CallLog(str(tmp_path / "aside.jsonl"), server="srv", principal="p", scrub=scrub), scrub
    )
    assert spec is not None and spec["secrets"] == [SECRET] and spec["key"] is not None
    lines = _lines()
    for line, calls in lines:
        msg, why = relay_loads(line)
        assert why is None
        for _ in range(2):  # (the child is handed each line twice: see below)
            for index, t, digest in calls:
                m = msg[index] if index is not None else msg
                p = m["params"]
                here.record_call(p["name"], p.get("arguments"), m["id"], time=t, digest=digest)
    here.close()
    child = subprocess.Popen(
        _argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={}, cwd=tmp_path
    )
    assert child.stdin is not None and child.stdout is not None
    head = json.dumps(spec).encode()
    child.stdin.write(HEAD.pack(len(head), 0) + head)
    for k, (line, calls) in enumerate(lines):
        # Each line as the calls alone (parsed with every check), then as the proxy hands
        # it: marked read by orjson where relay_read says so (not the last two: the big
        # integers, the NaN).
        by_orjson = relay_read(line)[2]
        assert by_orjson == (k < len(lines) - 2)
        for meta in (calls, {"calls": calls, "orjson": True} if by_orjson else calls):
            head = json.dumps(meta).encode()
            child.stdin.write(HEAD.pack(len(head), len(line)) + head + line)
    child.stdin.close()
    acks = child.stdout.read()
    assert child.wait(timeout=PATIENCE) == 0
    assert acks == b"\n" * 2 * len(lines)  # one confirmation a line, nothing unrecorded
    got = (tmp_path / "aside.jsonl").read_bytes()
    assert got == (tmp_path / "here.jsonl").read_bytes()
    recs = read_jsonl(tmp_path / "aside.jsonl")
    assert len(recs) == 16
    text = got.decode()
    assert SECRET not in text and "Zk39Qm27Xw84Lp56Rt19Vb73Nc28Hd61" not in text
    assert "k-123456789" not in text and ":pw@" not in text
    assert all(sealed(r, seal_key(create=False)) for r in recs if "seal" in r)


def test_relay_read_says_orjson_only_where_its_message_is_orjsons():
    """``relay_read``'s mark (the recorder then parses with orjson alone) is given exactly
    where the message is ``orjson.loads(line)``: not for an integer past 64 bits (orjson
    reads a float), a lone carriage return, a NaN or a lone surrogate (the stdlib reads
    them), nor a refused line."""
    import orjson

    good = [line for line, _ in _lines()[:5]]
    good.append(b'{"id":1,"n":922337203685477580,"m":-1,"f":1.5,"s":"a\\r\\u00e9"}\n')
    for line in good:
        msg, why, by_orjson = relay_read(line)
        assert why is None and by_orjson and msg == orjson.loads(line)
        assert relay_loads(line) == (msg, None)
    for line in (
        b'{"id":1,"n":18446744073709551616}\n',
        b'{"id":1,"n":18446744073709551615,"f":1.5}\n',  # (a 20-digit run: the stdlib reads it)
        b'{"id":1,"s":"a\rb"}\n',
        b'{"id":1,"s":"a"}\r{"id":2}\n',
        b'{"id":1,"f":NaN}\n',
        b'{"id":1,"s":"\\ud800"}\n',
        b'{"id":1,\n',
        b"\xff\n",
    ):
        msg, why, by_orjson = relay_read(line)
        assert not by_orjson, line
        assert relay_loads(line) == (msg, why)


@pytest.mark.slow
def test_a_large_call_with_an_integer_past_64_bits_is_recorded_exactly(tmp_path: Path):
    """Through the real record-only proxy and its recorder: a large call holding an integer
    orjson would read as a float is recorded digit for digit (the proxy does not mark it read
    by orjson); one without is recorded as sent."""
    big = 123456789012345678901234567890
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        for i, n in ((1, big), (2, 7)):
            c.send(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"q": "z" * LARGE, "n": n}},
                }
            )
            assert "result" in c.recv()
        _recorder(c)
        assert c.close() == 0
    raw = (tmp_path / "calls.jsonl").read_text()
    recs = [json.loads(x) for x in raw.splitlines()]
    assert [(r["id"], r["arguments"]["n"]) for r in recs] == [(1, big), (2, 7)]
    assert str(big) in raw


def test_a_scrubber_the_recorder_cannot_rebuild_keeps_the_recording_in_process(tmp_path: Path):
    log = CallLog(str(tmp_path / "c.jsonl"), server="s")
    assert spec_for(log, lambda s: s.replace("tok", "***")) is None  # (an OAuth token's)
    assert spec_for(log, None) is not None


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            kids += [int(k) for k in f.read().split()]
    return kids


def _recorder(c: RawClient) -> int:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        for k in _children(c.proc.pid):
            with open(f"/proc/{k}/cmdline", "rb") as f:
                if b"recorder_child" in f.read():
                    return k
        time.sleep(0.01)
    raise AssertionError("no recorder process")


def _call(c: RawClient, i: int, size: int) -> None:
    q = "y" * size
    c.send(
        {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"q": q}},
        }
    )
    got = c.recv()
    assert got["id"] == i and "result" in got


def _ids(tmp: Path) -> list[int]:
    return [r["id"] for r in read_jsonl(tmp / "calls.jsonl")]


def _wait_for_ids(tmp: Path, n: int) -> None:
    deadline = time.monotonic() + PATIENCE
    while len(_ids(tmp) if (tmp / "calls.jsonl").exists() else []) < n:
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_the_recorder_yields_the_cpu_to_the_calls(tmp_path: Path):
    """The recorder child runs ``NICE`` steps below the proxy (its records are off the call's
    path): read from the kernel's own view of both processes."""
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        _call(c, 1, LARGE)
        _wait_for_ids(tmp_path, 1)
        rec = _recorder(c)
        proxy = os.getpriority(os.PRIO_PROCESS, c.proc.pid)
        assert os.getpriority(os.PRIO_PROCESS, rec) == min(19, proxy + NICE)
        assert c.close() == 0


def _due(frames: list[tuple[bytes, bytes] | None], **kw: Any) -> list[tuple[bytes, int]]:
    """What ``_when_due`` lets go, each with how many frames were still unread then."""
    q: queue.SimpleQueue[tuple[bytes, bytes] | None] = queue.SimpleQueue()
    for f in frames:
        q.put(f)
    return [(meta, q.qsize()) for meta, _ in _when_due(q, **kw)]


def test_the_recorder_writes_once_no_call_is_in_flight():
    """Frames wait for the proxy's QUIET (no tools/call in flight) and are then written in the
    order handed; one handed after it waits again (here for the pipe's end)."""
    quiet = (QUIET, b"")
    got = _due([(b"a", b"x" * 10), (b"b", b"x"), quiet, (b"c", b"x"), None], defer=3600)
    assert got == [(b"a", 2), (b"b", 2), (b"c", 0)]  # a and b before c and the end were read


def test_the_recorder_does_not_wait_past_its_bounds():
    """Quiet or not, a frame goes once the frames waiting hold ``defer_bytes``, or once it
    has waited ``defer`` seconds (a relay never quiet must not hold records back)."""
    got = _due(
        [(b"a", b"x" * 10), (b"b", b"x" * 10), (b"c", b"x"), None], defer_bytes=15, defer=3600
    )
    assert got == [(b"a", 2), (b"b", 0), (b"c", 0)]  # b and c (11 bytes) wait for the end
    q: queue.SimpleQueue[tuple[bytes, bytes] | None] = queue.SimpleQueue()
    q.put((b"a", b"x"))
    out: list[tuple[bytes, float]] = []
    t0 = time.monotonic()
    gen = _when_due(q, defer=0.05)
    t = threading.Thread(target=lambda: out.append((next(gen)[0], time.monotonic())), daemon=True)
    t.start()
    t.join(PATIENCE)
    assert [m for m, _ in out] == [b"a"]  # no QUIET, no end: its age let it go
    assert out[0][1] - t0 >= 0.05


def test_a_call_never_answered_is_recorded_all_the_same(tmp_path: Path):
    """A large call the server never answers keeps the relay from going quiet; its record is
    written once it has waited ``DEFER`` (the call log never waits on a hung call)."""
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        c.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "hang", "arguments": {"q": "y" * LARGE}},
            }
        )
        _wait_for_ids(tmp_path, 1)
        assert _recorder(c)  # (written by the child, not the proxy)
        c.close()


@pytest.mark.slow
def test_small_calls_wait_behind_a_large_one_the_recorder_has_not_written(tmp_path: Path):
    """While the recorder holds a large call unwritten (stopped with SIGSTOP), the small calls
    after it, each answered before the next is sent, go the same way rather than into the log
    first; once it runs again the log holds every call in the order it was read."""
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        _call(c, 10, 10)  # small, recorder idle: in the proxy
        _call(c, 11, LARGE)  # the recorder starts
        _wait_for_ids(tmp_path, 2)
        rec = _recorder(c)
        os.kill(rec, signal.SIGSTOP)
        try:
            _call(c, 12, 2 * LARGE)
            for i in range(13, 18):
                _call(c, i, 10)
            assert _ids(tmp_path) == [10, 11]  # nothing written ahead of call 12
        finally:
            os.kill(rec, signal.SIGCONT)
        _call(c, 18, LARGE)
        _call(c, 19, 10)
        assert c.close() == 0
    assert _ids(tmp_path) == list(range(10, 20))


@pytest.mark.slow
def test_a_recorder_that_dies_loses_no_record(tmp_path: Path):
    """The recorder killed (SIGKILL) while it holds calls it has not written: the proxy says
    so on stderr, writes them itself in order, records in-process from then on, and the log
    holds every call (those handed over after it was stopped once each)."""
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        _call(c, 1, LARGE)
        _wait_for_ids(tmp_path, 1)
        rec = _recorder(c)
        os.kill(rec, signal.SIGSTOP)
        for i, size in ((2, LARGE), (3, 10), (4, 3 * LARGE)):
            _call(c, i, size)
        os.kill(rec, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):  # (reaped already)
            os.kill(rec, signal.SIGCONT)
        _wait_for_ids(tmp_path, 4)
        for i, size in ((5, LARGE), (6, 10), (7, 2 * LARGE)):
            _call(c, i, size)
        assert c.close() == 0
        err = c.stderr()
    ids = _ids(tmp_path)
    # Call 1 was written before the stop; its confirmation may not have left the recorder
    # yet, and then the proxy writes it again (docs/proxy.md: the same time and id twice).
    assert ids in (list(range(1, 8)), [1, *range(1, 8)]), ids
    unconfirmed = 4 if ids[:2] == [1, 1] else 3
    assert f"recorder was killed by signal 9 before confirming {unconfirmed} call record(s)" in err
    assert "the proxy wrote them itself" in err and "records in this process from now on" in err


@pytest.mark.slow
def test_a_proxy_killed_leaves_the_recorder_to_write_what_it_was_handed(tmp_path: Path):
    """SIGKILL to the proxy alone: the recorder (stopped meanwhile, so nothing was written
    before the kill) reads what the pipe holds after its writer died, records it and exits."""
    with RawClient(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")}, warm=False) as c:
        c.initialize()
        _call(c, 1, LARGE)
        _wait_for_ids(tmp_path, 1)
        rec = _recorder(c)
        os.kill(rec, signal.SIGSTOP)
        for i in (2, 3, 4):
            _call(c, i, LARGE + 1000)  # ~200 KiB in all: the widened pipe holds it
        c.proc.kill()
        c.proc.wait(timeout=PATIENCE)
        os.kill(rec, signal.SIGCONT)
        deadline = time.monotonic() + PATIENCE
        while os.path.exists(f"/proc/{rec}") and time.monotonic() < deadline:
            with open(f"/proc/{rec}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
            time.sleep(0.02)
    assert _ids(tmp_path) == [1, 2, 3, 4]


def test_a_recorder_that_cannot_start_leaves_the_recording_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """No interpreter to start (a deleted venv, an exhausted process table): the proxy says
    so, ``hand`` answers False (the caller records the call itself) and never tries again."""
    import asyncio

    from mcp_review.services.proxy import recorder

    monkeypatch.setattr(recorder, "_argv", lambda: [str(tmp_path / "no-such-python")])
    said: list[str] = []
    rec = recorder.Recorder({}, said.append, lambda line, entries: None)

    async def go() -> list[bool]:
        return [await rec.hand(b"{}\n", []), await rec.hand(b"{}\n", [])]

    assert asyncio.run(go()) == [False, False]
    assert rec.failed and rec.proc is None and not rec.busy
    assert len(said) == 1 and "cannot start the call log's recorder" in said[0]
