"""The call log's line seal (store/lineseal.py): an HMAC over the bytes of the line as written,
instead of over a second, canonical serialisation of the record.

The independent truth is the file itself: the HMAC is recomputed here with ``hmac`` over the
line's bytes with its last member (the seal) cut, not with the module's own helpers; and the
records are read back by both parsers the readers use (the stdlib and orjson).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from mcp_review.services.rerun import load_recorded
from mcp_review.store.calllog import CallLog, seal_key, seal_of, sealed
from mcp_review.store.lineseal import LINE_SCHEME

_ODD = {
    "floats": [0.1, 1e16, 1.5e-7, -0.0, 2.5, 123456789.125, 1e300],
    "ints": [0, -1, 2**53 + 1, 2**63 - 1, -(2**63)],
    "text": 'é ü ß — “quoted” 日本語 😀 \u2028 \u2029 \x7f \x00 \t \n " \\ /',
    "nested": {"a": [[], {}, [None, True, False]], "z": {"y": {"x": "deep"}}},
    "keys": {"é": 1, "\u2028": 2, "": 3, "b": 4, "a": 5},
}


def _raw_lines(p: Path) -> list[bytes]:
    return [x for x in p.read_bytes().split(b"\n") if x]


def _independent(line: bytes, key: bytes) -> str:
    """The line seal as the format says: HMAC-SHA256 under the key of the domain string and the
    line's bytes without its last member (``,"seal":"…"``)."""
    cut = line.rindex(b',"seal":"')
    assert line[cut:].endswith(b'"}') and line[cut:].count(b",") == 1
    body = line[:cut] + b"}"
    mac = hmac.new(key, b"mcp-review call log v2, the line's bytes\n" + body, hashlib.sha256)
    return LINE_SCHEME + mac.hexdigest()


def test_a_record_is_sealed_over_its_own_line_and_verifies_read_by_either_parser(tmp_path: Path):
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s", record_results=True)
    t = log.record_call("t", _ODD, rpc_id=7, digest="sha256:" + "a" * 64)
    log.record_result("t", 7, t, {"result": {"content": [{"type": "text", "text": "é\u2028"}]}})
    log.close()
    key = seal_key(create=False)
    assert key is not None
    for line in (*_raw_lines(p), *_raw_lines(Path(str(p) + ".results.jsonl"))):
        assert b"\xe2\x80\xa8" not in line  # U+2028 escaped: one line for every reader
        for rec in (json.loads(line), orjson.loads(line)):
            assert rec["seal"] == _independent(line, key)
            assert list(rec)[-1] == "seal"
            assert sealed(rec, key)
    (rec,) = [json.loads(x) for x in _raw_lines(p)]
    assert rec["arguments"] == _ODD
    (loaded,) = load_recorded(str(p))
    assert loaded.sealed and loaded.has_result


def test_any_change_to_a_line_sealed_record_breaks_its_seal(tmp_path: Path):
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s")
    log.record_call("t", {"env": "staging", "n": [1, 2.5, None]}, rpc_id=7, digest="d" * 8)
    log.close()
    key = seal_key(create=False)
    (line,) = _raw_lines(p)
    rec = json.loads(line)
    assert rec["seal"].startswith(LINE_SCHEME) and sealed(rec, key)
    for field, value in (
        ("tool", "deploy"),
        ("arguments", {"env": "prod", "n": [1, 2.5, None]}),
        ("arguments", {"env": "staging", "n": [1, 2.50001, None]}),
        ("arguments", {"n": [1, 2.5, None], "env": "staging"}),  # the order of keys
        ("id", "7"),
        ("id", 7.0),
        ("digest", "e" * 8),
        ("server", "t"),
        ("principal", "admin"),
        ("time", "2030-01-01T00:00:00.000Z"),
    ):
        assert not sealed({**rec, field: value}, key), (field, value)
    assert not sealed({**rec, "redacted": False}, key)  # an added member
    assert not sealed({k: v for k, v in rec.items() if k != "digest"}, key)  # a removed one
    reordered = {"time": rec["time"], **{k: v for k, v in rec.items() if k != "time"}}
    reordered = {"server": rec["server"], **reordered}
    assert not sealed(reordered, key)
    assert not sealed(rec, b"k" * 32)  # another key


def test_the_two_seals_never_pass_for_each_other(tmp_path: Path):
    """Old logs still verify (the canonical seal), and neither seal's hex verifies under the
    other's name: the HMACs are over different domain strings."""
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s")
    log.record_call("t", {"q": "x"}, rpc_id=1)
    log.close()
    key = seal_key(create=False)
    assert key is not None
    (rec,) = [json.loads(x) for x in _raw_lines(p)]
    rest = {k: v for k, v in rec.items() if k != "seal"}
    old = seal_of(rest, key)
    assert old.startswith("hmac-sha256:") and sealed({**rest, "seal": old}, key)
    assert not sealed({**rest, "seal": LINE_SCHEME + old.split(":", 1)[1]}, key)
    assert not sealed({**rest, "seal": "hmac-sha256:" + rec["seal"].split(":", 1)[1]}, key)


@pytest.mark.parametrize(
    "args, sealed_as",
    [
        ({"n": float("nan")}, None),  # orjson would write null: no line seal, and as before
        ({"n": [float("inf")]}, None),  # the canonical seal refuses it: unsealed
        ({"n": 2**64 + 1}, "hmac-sha256:"),  # orjson refuses it: the canonical seal, as before
        ({"s": "\ud800"}, "hmac-sha256:"),  # a lone surrogate: the same
        ({"password": float("nan")}, LINE_SCHEME),  # redacted to 0: nothing odd is left
    ],
)
def test_values_orjson_cannot_write_exactly_keep_the_canonical_seal(
    tmp_path: Path, args: dict[str, Any], sealed_as: str | None
):
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s")
    log.record_call("t", args, rpc_id=1)
    log.close()
    (rec,) = [json.loads(x) for x in _raw_lines(p)]
    if sealed_as is None:
        assert "seal" not in rec
        return
    assert rec["seal"].startswith(sealed_as) and sealed(rec, seal_key(create=False))


def test_a_non_finite_id_keeps_the_canonical_path(tmp_path: Path):
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s")
    log.record_call("t", {"q": 1}, rpc_id=float("nan"))
    log.close()
    (rec,) = [json.loads(x) for x in _raw_lines(p)]
    assert "seal" not in rec  # as before: the canonical seal refuses NaN
