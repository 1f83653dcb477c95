"""The in-place redaction of arguments the caller owns (store/ownedwalk.py, the recorder
process's): the same value, the same ``redacted`` mark, the same NaN note and so the same log
line as the copying walk, on every path it takes (keys judged or already known clean, short
strings screened joined, NUL inside strings, long strings, secret-named values hidden, a
second pass for a changed string) and where it declines."""

from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_redaction_fast_path import DECOYS, SECRETS

from mcp_review.services.proxy.framing import relay_loads
from mcp_review.store import ownedwalk
from mcp_review.store.calllog import _PREFILTER, _SHORT, CallLog, Redactor
from mcp_review.store.ownedwalk import DEEPEST, redact_owned

KEYS = [
    "q",
    "text",
    "password",
    "apiKey",
    "api_key",
    "x-api-key",
    "max_tokens",
    "author",
    "sessionId",
    "Authorization",
    "compass",
    "é",
    "",
]
TEXTS = [
    *SECRETS,
    *DECOYS,
    "plain",
    "",
    "[REDACTED]",
    "ghp",  # with the next: a token only if the two were one string
    "_" + "a1" * 18,
    "sk",
    "-" + "x" * 24,
    "a\x00sk-" + "z" * 24,  # a NUL of the string's own, a secret after it
    "sk-\x00" + "z" * 24,  # cut by its own NUL: no secret
    "\x00",
    "https://json-schema.org/draft-07/schema#",  # a URL with nothing to hide
    "ünïcödé 中文 sk-" + "ü" * 24,
    "w " * 300 + SECRETS[3],  # past the short-string cut
    "y" * (_SHORT - 1) + "?",
    "y" * _SHORT,
]
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 0.0, -0.0, 1.5]),
    st.sampled_from(TEXTS),
    st.text(max_size=12),
    st.builds(
        lambda a, b, c: a + b + c,
        st.text(max_size=6),
        st.sampled_from(SECRETS),
        st.text(max_size=6),
    ),
)


def _value(leaves: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(
        leaves,
        lambda kids: st.one_of(
            st.lists(kids, max_size=5),
            st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), kids, max_size=5),
        ),
        max_leaves=40,
    )


ARGS = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), _value(LEAVES), max_size=6),
    st.lists(_value(LEAVES), max_size=6),
)


def _spelled(v: object) -> str:
    """Every leaf's type and value (``0`` and ``0.0``, ``-0.0``, NaN as such)."""
    return json.dumps(v, allow_nan=True, ensure_ascii=True) + repr(v)


def _both(patterns=None, v=None) -> None:
    """The copying walk and the in-place one on copies of ``v``: the same."""
    kw = {} if patterns is None else {"patterns": patterns}
    old, new = Redactor(**kw), Redactor(**kw)
    mine = copy.deepcopy(v)
    want = old(v)
    got = redact_owned(new, mine, _PREFILTER, _SHORT)
    assert got is not None
    assert _spelled(got[0]) == _spelled(want)
    assert got[0] is mine  # in place
    assert got[1] == (want != v)
    assert new.nonfinite == old.nonfinite


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ARGS)
def test_the_in_place_walk_redacts_as_the_copying_walk(v):
    _both(v=v)
    _both(v=v)  # again: the key names are known clean now (the one-call check per dict)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ARGS)
def test_with_other_key_patterns_the_clean_names_are_their_own(v):
    """Names known clean under the default patterns are judged again under ``--redact``
    patterns that call them secret (``author``, ``q``)."""
    _both(v={"author": "x", "q": 1, "z": v})
    _both(patterns=["author", "^_q_$"], v={"author": "x", "q": 1, "z": v})


def test_strings_meet_only_across_the_joints_not_as_one():
    """Two strings that spell a token only together stay as they are; a NUL inside one string
    is its own (the secret after it redacted, one cut by it not); a changed string is replaced
    wherever it stands, once for each place, and a long one too."""
    long_secret = "w " * 300 + SECRETS[3]
    v = {
        "parts": ["ghp", "_" + "a1" * 18, "sk", "-" + "x" * 24],
        "nul": ["a\x00sk-" + "z" * 24, "sk-\x00" + "z" * 24, "\x00"],
        "again": [SECRETS[6], {"deep": [SECRETS[6]]}, SECRETS[6]],
        "long": [long_secret, {"x": long_secret}],
        "apiKey": {"nested": [SECRETS[6], 1.5, float("nan")]},
    }
    _both(v=v)
    r = Redactor()
    got, changed = redact_owned(r, copy.deepcopy(v), _PREFILTER, _SHORT)
    assert changed
    assert got["parts"] == v["parts"]
    assert got["nul"][0] == "a\x00[REDACTED]" and got["nul"][1:] == v["nul"][1:]
    assert got["again"] == ["[REDACTED]", {"deep": ["[REDACTED]"]}, "[REDACTED]"]
    assert SECRETS[3] not in json.dumps(got["long"])
    assert got["apiKey"] == {"nested": ["[REDACTED]", 0, 0]}
    assert not r.nonfinite  # the NaN was hidden


def test_where_it_declines_the_copying_walk_is_used():
    """A by-value scrubber, a value that is not a container, nesting past DEEPEST: None."""
    r = Redactor(scrub=lambda t: t.replace("hunter22", "***"))
    assert redact_owned(r, {"q": "hunter22"}, _PREFILTER, _SHORT) is None
    assert redact_owned(Redactor(), "sk-" + "x" * 24, _PREFILTER, _SHORT) is None
    deep: object = {"password": "p"}
    for _ in range(DEEPEST):
        deep = [deep]
    assert redact_owned(Redactor(), deep, _PREFILTER, _SHORT) is None
    shallow = deep[0]
    assert redact_owned(Redactor(), shallow, _PREFILTER, _SHORT) is not None


def _record(tmp_path, name: str, args: object, owned: bool) -> bytes:
    log = CallLog(str(tmp_path / name), server="s", sealing=(b"k" * 32, None))
    try:
        log.record_call("echo", args, 7, time="2026-12-04T00:00:00Z", digest="d", owned=owned)
    finally:
        log.close()
    return (tmp_path / name).read_bytes()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ARGS, st.booleans())
def test_a_recorded_line_is_the_same_byte_for_byte(tmp_path_factory, v, ascii_only):
    """The line as the recorder parses it (relay_loads), recorded in place and by the copying
    walk: the same bytes, seal included (NaN, big integers, non-ASCII, escapes)."""
    tmp = tmp_path_factory.mktemp("owned")
    msg = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"arguments": v}}
    line = json.dumps(msg, ensure_ascii=ascii_only, allow_nan=True).encode("utf-8", "surrogatepass")
    parsed, _ = relay_loads(line)
    if parsed is None:  # (a lone surrogate written raw: no parser reads it)
        return
    a = parsed["params"]["arguments"]
    b = relay_loads(line)[0]["params"]["arguments"]
    assert _record(tmp, "copied.jsonl", a, False) == _record(tmp, "owned.jsonl", b, True)


def test_a_mib_of_records_is_recorded_the_same_byte_for_byte(tmp_path):
    """The benchmark's shape: the corpus' tool definitions (``apiKey`` properties, URLs,
    ``Bearer``), a MiB of them, recorded both ways."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    rows, size = [], 0
    for p in sorted((root / "corpus").rglob("*.json")):
        if size >= 1 << 20:
            break
        text = p.read_text(encoding="utf-8")
        rows.append(json.loads(text))
        size += len(text)
    rows.append({"token": "t", "nan": math.inf, "url": "https://u:pw@h/?api_key=1&q=2"})
    line = json.dumps({"params": {"arguments": {"rows": rows}}}, allow_nan=True).encode()
    a = relay_loads(line)[0]["params"]["arguments"]
    b = relay_loads(line)[0]["params"]["arguments"]
    copied, owned = _record(tmp_path, "c.jsonl", a, False), _record(tmp_path, "o.jsonl", b, True)
    assert copied == owned
    assert b'"redacted":true' in owned and b"u:pw@" not in owned


def test_the_clean_names_are_bounded():
    ownedwalk._CLEAN.clear()
    v = {f"k{i}": i for i in range(ownedwalk._CLEAN_MAX + 50)}
    _both(v=v)
    assert all(len(s) <= ownedwalk._CLEAN_MAX for s in ownedwalk._CLEAN.values())


@pytest.mark.parametrize(
    "fixed",
    [
        "-----BEGIN",
        "eyJ",
        "ghp_",
        "github_pat_",
        "sk-",
        "xoxb-",
        "AKIA",
        "glpat-",
        "Bearer ",
        "://",
    ],
)
def test_a_fixed_part_cut_by_a_nul_is_no_match(fixed):
    """The joined screen's premise: every fixed part the prefilter looks for is found whole,
    and none cut by a NUL anywhere inside it."""
    assert _PREFILTER.search(fixed) is not None
    for i in range(1, len(fixed)):
        assert _PREFILTER.search(fixed[:i] + "\x00" + fixed[i:]) is None
