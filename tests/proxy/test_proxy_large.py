"""Large calls through the proxy at the wire's speed, and nothing weaker for it.

Each shortcut the relay takes on a large line is held here against the slow path it replaced:
the client line parsed once (orjson's own UTF-8 check standing in for a second decode), U+2028
and U+2029 found by their last byte, the server's pipe read in one piece, the heap kept between
calls; and end to end, a mebibyte of this repository's prose with secrets in it reaches the
server byte for byte while the call log holds it redacted and sealed as the reader expects.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from servers.proxy_harness import ROOT, RawClient, read_jsonl

from mcp_review.services.proxy.framing import framing_hazard, loads, relay_loads
from mcp_review.store.jsonline import separators_escaped


def _reference_relay_loads(line: bytes):
    """What the record-only relay did before: framing_hazard, then the parse."""
    why = framing_hazard(line)
    if why is not None:
        return None, why
    try:
        return loads(line), None
    except ValueError as e:
        return None, f"not JSON: {str(e)[:120]}"


def _hostile_lines(rnd: random.Random) -> list[bytes]:
    base = [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":'
        b'{"q":"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80"}}}\n',
        b'{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n',
        b'{"jsonrpc":"2.0","id":3,"method":"x","params":{"n":' + b"9" * 30 + b"}}\n",
        b'{"a":"\\ud800"}\n',
        b"[" * 3000 + b"]" * 3000 + b"\n",
    ]
    bad = [
        b"\xed\xa0\x80",  # an encoded surrogate
        b"\xc0\xaf",  # overlong
        b"\xe0\x80\xaf",  # overlong
        b"\xf4\x90\x80\x80",  # past U+10FFFF
        b"\xe2\x82",  # cut short
        b"\xff",
        b"\r",
        b"\x80",
    ]
    out = list(base)
    for _ in range(400):
        line = bytearray(rnd.choice(base))
        for _ in range(rnd.randint(1, 2)):
            at = rnd.randrange(len(line))
            line[at:at] = rnd.choice(bad)
        out.append(bytes(line))
    return out


def test_a_client_line_is_judged_as_before_with_one_parse():
    """Same message or same refusal, reason and all, as framing_hazard + loads gave: invalid
    UTF-8 anywhere (surrogates, overlong, cut short, past U+10FFFF), a lone CR, integers past
    64 bits, nesting deeper than the parser follows."""
    rnd = random.Random(46)
    lines = _hostile_lines(rnd)
    refused = 0
    for line in lines:
        got, want = relay_loads(line), _reference_relay_loads(line)
        assert got == want, line[:120]
        refused += got[1] is not None
    assert 300 < refused < len(lines)  # both paths taken, many times each


def test_orjson_refuses_every_invalid_utf8_a_strict_decode_refuses():
    """The shortcut rests on this: a line orjson parses is valid UTF-8 as Python's strict
    decoder reads it (no second decode needed), for every byte sequence of up to 4 bytes
    from a set that covers each class of UTF-8 error, inside a JSON string."""
    import orjson

    pieces = [b"a", b"\x80", b"\xbf", b"\xc0", b"\xc2", b"\xdf", b"\xe0", b"\xe2", b"\xed"]
    pieces += [b"\xa0", b"\x9f", b"\xef", b"\xf0", b"\xf4", b"\xf5", b"\x90", b"\xff"]
    rnd = random.Random(7)
    checked = 0
    for _ in range(20000):
        body = b"".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 4)))
        try:
            body.decode("utf-8")
            valid = True
        except UnicodeDecodeError:
            valid = False
        try:
            orjson.loads(b'"' + body + b'"')
            parsed = True
        except orjson.JSONDecodeError:
            parsed = False
        assert parsed == valid, body
        checked += not valid
    assert checked > 10000


def test_line_separators_are_escaped_as_the_plain_replace_escapes_them():
    """Against ``replace`` on text where A8/A9 end other characters (é, è, ©, CJK), alone and
    dense, at the edges, and with real separators among them."""
    rnd = random.Random(2028)
    alphabet = ["a", "é", "è", "©", "\u2014", "\u2028", "\u2029", "中", "\u20a8", "\U0001f600"]

    def plain(b: bytes) -> bytes:
        return b.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")

    for n in (0, 1, 2, 3, 50, 5000):
        for _ in range(60):
            weights = [rnd.random() for _ in alphabet]
            weights[5] *= rnd.choice([0, 0, 0.001, 1])
            weights[6] *= rnd.choice([0, 0, 0.001, 1])
            text = "".join(rnd.choices(alphabet, weights, k=n))
            raw = json.dumps(text, ensure_ascii=False).encode()
            assert separators_escaped(raw) == plain(raw), text[:40]
    clean = json.dumps("é" * 100_000, ensure_ascii=False).encode()
    assert separators_escaped(clean) is clean  # nothing to escape: no copy


def test_seal_bytes_of_sparse_non_ascii_are_the_stdlibs_run_by_run():
    """Large records with a little non-ASCII text among much ASCII (where the seal escapes run
    by run instead of handing the record to json.dumps): every range of characters, beside
    backslashes, quotes, control characters and text that reads like an escape, in keys and
    values: the bytes are json.dumps' own, and the run-by-run path was the one taken."""
    import orjson

    from mcp_review.store.calllog import _seal_bytes
    from mcp_review.store.jsonline import ascii_spelled

    tricky = [
        "é",
        "\\é",
        "é\\",
        "\\xe9",
        "\\U0001f600",
        "\U0001f600",
        "\u2028",
        "\u00ff\u0100\uffff",
    ]
    tricky += ["\U00010000\U0010ffff", 'q"é"\n\t\x7f\x00', "中文\\x41", "\\" * 7 + "×"]
    rnd = random.Random(46)
    taken = 0
    for _ in range(60):
        pad = "".join(rnd.choices('abc \\"\n\t/{}[]', k=rnd.randint(2000, 6000)))
        args = {
            f"k{i}" + (rnd.choice(tricky) if rnd.random() < 0.1 else ""): [
                pad,
                rnd.choice(tricky) + pad[: rnd.randint(0, 3000)] + rnd.choice(tricky),
                rnd.randint(-(2**63), 2**63 - 1),
                None,
                True,
            ]
            for i in range(rnd.randint(1, 12))
        }
        rec = {"time": "t", "tool": "é", "arguments": args, "id": 1}
        body = {k: v for k, v in rec.items() if k != "seal"}
        want = json.dumps(
            body, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False
        ).encode()
        assert _seal_bytes(rec) == want
        spelled = ascii_spelled(orjson.dumps(body, option=orjson.OPT_SORT_KEYS))
        if spelled is not None:
            taken += 1
            assert spelled.replace(b"\x7f", b"\\u007f") == want
    assert taken > 40


def test_a_mebibyte_waiting_in_the_clients_pipe_is_read_in_one_piece():
    """The client's stdin (a widened pipe) holding a whole 1 MiB message: one read returns all
    of it, where asyncio's own 256 KiB made four reads (and four wake-ups and copies)."""
    import asyncio
    import fcntl

    from mcp_review.services.pipes import widen_pipe
    from mcp_review.services.proxy.framing import CHUNK
    from mcp_review.services.proxy.process import ClientIn

    r, w = os.pipe()
    try:
        widen_pipe(w)
        if fcntl.fcntl(w, getattr(fcntl, "F_GETPIPE_SZ", 1032)) < CHUNK:
            pytest.skip("the system does not allow a 1 MiB pipe")
        data = os.urandom(CHUNK)
        assert os.write(w, data) == CHUNK

        async def first_read() -> bytes:
            c = ClientIn(r)
            await c.open()
            try:
                return await c.read(CHUNK)
            finally:
                c.close()

        assert asyncio.run(first_read()) == data
    finally:
        os.close(w)
        os.close(r)


def test_the_heap_is_kept_between_large_buffers():
    """After keep_heap, a mebibyte made and freed call after call reuses the same pages;
    without it each one faults in fresh ones (counted by the kernel, not timed)."""
    script = textwrap.dedent(
        """
        import random, resource, sys
        import orjson
        if sys.argv[1] == "keep":
            from mcp_review.services.proxy.heap import keep_heap
            assert keep_heap() and keep_heap()
        from mcp_review.store.calllog import _seal_bytes
        # Prose made here, not read from docs/: glibc's dynamic mmap threshold makes the default
        # mode's faults depend on the exact sizes, which an edit of the docs used to move.
        rng = random.Random(7)
        words = ["the", "server", "tool", "call", "pin", "review", "naïve", "–", "schema"]
        text = " ".join(rng.choice(words) for _ in range(300_000))
        body = {"arguments": {"content": text[: 1 << 20]}, "tool": "echo"}
        def one():  # what a recorded call makes: its parse, its line, its seal's bytes
            line = orjson.dumps(body)
            return orjson.loads(line), _seal_bytes(body)
        for _ in range(3):
            one()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(20):
            one()
        print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
        """
    )
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's malloc only")

    def faults(mode: str) -> int:
        out = subprocess.run(
            [sys.executable, "-c", script, mode],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        return int(out.stdout)

    kept, default = faults("keep"), faults("default")
    assert default > 20 * 200  # MiB buffers faulted in afresh (256 pages each), call after call
    assert kept < default // 10


def _prose_mib() -> str:
    parts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))]
    text = "".join(parts)
    return (text * ((1 << 20) // len(text) + 1))[: 1 << 20]


@pytest.mark.slow
def test_a_mebibyte_of_prose_is_forwarded_whole_and_recorded_redacted_and_sealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Through the real proxy and the raw server (which answers with the sha256 of the line it
    read): the server reads the client's bytes exactly; the call log holds the text with the
    secrets in it redacted, and a seal the reader verifies."""
    from mcp_review.store.calllog import REDACTED, Redactor, seal_key, sealed

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX29mX3RoZV90b2tlbg"
    gh = "ghp_" + "A1b2C3d4" * 5
    text = _prose_mib()
    content = text[:1000] + f" token {jwt} " + text[1000:500_000] + f" {gh}\u2028" + text[500_000:]
    msg = {
        "jsonrpc": "2.0",
        "id": 5,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"path": "docs/all.md", "content": content}},
    }
    line = json.dumps(msg, ensure_ascii=False).encode() + b"\n"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    with RawClient(tmp_path, env=env, warm=False) as c:
        c.initialize()
        c.request("tools/list")
        c.send_raw(line)
        reply = c.recv(timeout=60)
        assert c.close() == 0
    got = reply["result"]["structuredContent"]
    assert got["sha256"] == hashlib.sha256(line).hexdigest()  # the very bytes sent
    assert got["arguments"]["content"] == content
    (rec,) = [r for r in read_jsonl(tmp_path / "calls.jsonl") if r.get("tool") == "echo"]
    logged = rec["arguments"]["content"]
    assert jwt not in logged and gh not in logged
    # Exactly what the redactor makes of it in-process (held to the whole-text reference by
    # tests/store/test_redaction_fast_path.py): the docs' own example secrets are redacted too.
    assert logged == Redactor()(msg["params"]["arguments"])["content"]
    assert logged.count(REDACTED) > 2
    assert rec["redacted"] is True
    raw = (tmp_path / "calls.jsonl").read_bytes()
    assert b"\xe2\x80\xa8" not in raw and b"\\u2028" in raw  # one line per record
    assert sealed(rec, seal_key(create=False))
    assert os.stat(tmp_path / "calls.jsonl").st_size > 1 << 20


_DIES_RECORDING = """
import os, sys
from mcp_review.cli import main
from mcp_review.store import calllog

real = calllog.CallLog.record_call


def dying(self, tool, arguments, *args, **kwargs):
    if arguments == {"q": "die"}:  # killed between the forward and the record, as by SIGKILL
        os._exit(9)
    return real(self, tool, arguments, *args, **kwargs)


calllog.CallLog.record_call = dying
raise SystemExit(main())
"""


@pytest.mark.slow
def test_record_only_forwards_first_so_a_crash_before_the_record_loses_only_that_record(
    tmp_path: Path,
):
    """Record-only, a call is written to the server before its record is written to the call
    log (docs/proxy.md, "The call log"): a proxy that dies in between has forwarded the call
    (the bytes the server's side of the pipe received, teed to a file, hold it) and left no
    record of it, the one thing that ordering gives up. The call before it is on the record."""
    import time

    from servers.proxy_harness import PATIENCE, RAW

    received = tmp_path / "received.jsonl"
    server = ["/bin/sh", "-c", 'tee "$0" | "$@"', str(received), *RAW]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _DIES_RECORDING,
            "proxy",
            "--log",
            str(tmp_path / "calls.jsonl"),
            "--server-log",
            str(tmp_path / "server.log"),
            "--",
            *server,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    for i, (method, params) in enumerate(
        [
            ("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}),
            ("tools/list", {}),
            ("tools/call", {"name": "echo", "arguments": {"q": "recorded"}}),
            ("tools/call", {"name": "echo", "arguments": {"q": "die"}}),
        ]
    ):
        msg = {"jsonrpc": "2.0", "id": i + 1, "method": method, "params": params}
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()
        if params.get("arguments") != {"q": "die"}:
            assert json.loads(proc.stdout.readline())["id"] == i + 1
    assert proc.wait(timeout=PATIENCE) == 9
    deadline = time.monotonic() + PATIENCE
    got: list[dict] = []
    while not got and time.monotonic() < deadline:  # tee outlives the proxy
        got = [r for r in read_jsonl(received) if r.get("id") == 4] if received.exists() else []
        time.sleep(0.05)
    assert got and got[0]["params"]["arguments"] == {"q": "die"}
    recorded = [r["arguments"] for r in read_jsonl(tmp_path / "calls.jsonl")]
    assert recorded == [{"q": "recorded"}]


def _json_texts(rnd: random.Random) -> list[bytes]:
    """Client lines that stress the enforcing parse: repeated keys at any depth (also keys
    equal only once unescaped), colons in keys and values (raw and escaped), escapes,
    non-ASCII, numbers of every kind, deep nesting, and lines either parser refuses."""
    words = ["a", "b", "a:b", ":", "::", "é:", "\u2028", "x\\u003ay", "ok", "日本", "😀:"]

    def value(d: int) -> str:
        r = rnd.random()
        if d > 4 or r < 0.3:
            return rnd.choice(
                [
                    '"v:1"',
                    "1",
                    "-0",
                    "2.5",
                    "1e5",
                    "-1.5e-7",
                    "true",
                    "null",
                    '"\\u003a"',
                    '"\\ud83d\\ude00"',
                    '"a\\"b:c"',
                    '"\\\\u003a"',
                    str(2**63),
                    '":"',
                ]
            )
        if r < 0.65:
            keys = [rnd.choice(words) for _ in range(rnd.randint(0, 4))]
            if rnd.random() < 0.2 and keys:
                keys.append(keys[0])  # a repeated key
            if rnd.random() < 0.05:
                keys += ["a", "\\u0061"]  # equal once unescaped
            sep = rnd.choice([":", ":", " : ", ":\n"])  # compact most often, as SDKs send
            return "{" + ",".join(f'"{k}"{sep}{value(d + 1)}' for k in keys) + "}"
        comma = rnd.choice([",", ",", ", "])
        return "[" + comma.join(value(d + 1) for _ in range(rnd.randint(0, 4))) + "]"

    out = [value(0).encode() + rnd.choice([b"", b"\n"]) for _ in range(3000)]
    out += [b'{"a":NaN}', b'{"a":1e400}', b'{"a":"\\ud800"}', b'{"a":' + b"9" * 30 + b"}"]
    out += [b'{"a":' + b"[" * n + b"]" * n + b"}" for n in (127, 254, 256, 1010, 2000)]
    out += [b'{"a":1,"a":1}', b'{"a:":1,"a:":2}', b"\xef\xbb\xbf{}", b'{"a":"\xff"}', b""]
    out += [b'{"a":1.0}', b'{"a":1e5}', b'{"a":-0.0}', b'{"a":"\xe2\x80\xa8"}', b'{"a":1}\r\n']
    return out


def test_the_enforcing_parse_takes_orjsons_value_only_when_the_stdlib_agrees():
    """``strict_loads`` (orjson first, taken when it writes the line back byte for byte)
    against the stdlib with the duplicate-key hook alone, the parse it replaced: on every line
    the same value (types and the sign of zero included) or a refusal, with the same reason."""
    from mcp_review.services.proxy.framing import Unjudgeable, _stdlib_strict_loads, strict_loads

    def tokens(v):  # the value as a flat list, whatever its depth (repr and == recurse)
        out, stack = [], [v]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                out.append(("{", len(x)))
                for k, y in x.items():
                    out.append(repr(k))
                    stack.append(y)
            elif isinstance(x, list):
                out.append(("[", len(x)))
                stack.extend(x)
            else:
                out.append((type(x).__name__, repr(x)))
        return out

    def outcome(f, line):
        try:
            return "ok", tokens(f(line))
        except Unjudgeable as e:
            return "refused", str(e)

    rnd = random.Random(46)
    lines = _json_texts(rnd)
    refused = 0
    for line in lines:
        want = outcome(_stdlib_strict_loads, line)
        assert outcome(strict_loads, line) == want, line[:200]
        refused += want[0] == "refused"
    assert 300 < refused < len(lines) - 1000  # both kinds, many of each


def test_a_large_result_to_a_pending_call_is_passed_on_by_its_head_and_nothing_else():
    """Record-only, a result of 64 KiB or more to a pending tools/call whose result is not
    recorded is passed on byte for byte after its head gives the id (docs/proxy.md: it is not
    parsed to its end). Each condition is held by a line that is not JSON past its head: the
    shortcut forwards it, the parse it stands in for drops it as noise."""
    import asyncio
    import io

    from mcp_review.services.proxy.framing import id_keys
    from mcp_review.services.proxy.relay import Proxy
    from mcp_review.services.proxy.relay_common import Pending
    from mcp_review.store.calllog import CallLog

    big = "x" * (1 << 16)
    broken = b'{"jsonrpc": "2.0", "id": 5, "result": {"content": "' + big.encode() + b'", }\n'
    valid = json.dumps({"jsonrpc": "2.0", "id": 5, "result": {"c": big}}).encode() + b"\n"
    compact = json.dumps(
        {"jsonrpc": "2.0", "id": "a-1", "result": {"c": big}}, separators=(",", ":")
    )

    def relay(line: bytes, method: str = "tools/call", rid=5, calllog=None):
        proxy = Proxy(["true"], name="t", diag=io.StringIO(), calllog=calllog)
        p = Pending(method, rid, id_keys(rid), tool="echo" if method == "tools/call" else None)
        proxy._track(p)
        out = asyncio.run(proxy._on_server_line(line))
        return out, proxy._find(id_keys(rid)) is None, proxy.noise_lines

    assert relay(broken) == (broken, True, 0)  # passed on, and no longer pending
    assert relay(valid) == (valid, True, 0)
    line = compact.encode()
    assert relay(line, rid="a-1") == (line + b"\n", True, 0)
    # Not a pending tools/call, a short line, a head of another shape: parsed, so dropped.
    assert relay(broken, method="tools/list") == (None, False, 1)
    assert relay(broken, rid=6) == (None, False, 1)
    short = broken[:200] + b'"}}\n'
    assert relay(short[:150] + b", }\n") == (None, False, 1)
    reordered = broken.replace(b'"jsonrpc": "2.0", "id": 5', b'"id": 5, "jsonrpc": "2.0"')
    assert relay(reordered) == (None, False, 1)
    assert relay(broken.rstrip(b"\n") + b" trailing\n") == (None, False, 1)
    # Results recorded: the result is parsed (and redacted into the results log).
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        log = CallLog(os.path.join(d, "calls.jsonl"), server="t", record_results=True)
        assert relay(broken, calllog=log) == (None, False, 1)
        log.close()
