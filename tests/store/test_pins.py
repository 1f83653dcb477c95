"""The pin file: lossless round trip of hostile values, deterministic layout, refusals, merging."""

from __future__ import annotations

import difflib
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcp_review.engine.canonical import canonical_json
from mcp_review.engine.errors import InputError
from mcp_review.engine.model import DIGEST_SCHEME, HASHED_FIELDS, ToolDef, digest_of
from mcp_review.engine.pinread import parse_pins
from mcp_review.engine.pins import (
    Decision,
    PinFile,
    definition_text,
    make_pin,
    with_decision,
)
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins, save_pins

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "pins")

HOSTILE_NAMES = [
    "x" * 300,
    "a.b.c",
    'say "hi"',
    "it's",
    "path/to\\tool",
    "emoji 😀🔥",
    "مرحبا بالعالم",  # RTL
    "bidi\u202eevil\u202c",
    "zero\u200bwidth",
    "tag\U000e0041",
    "new\nline\ttab",
    "[table]",
    "=",
    "",
]


def hostile_def(name: str = "tool") -> dict:
    return {
        "name": name,
        "title": "Ｔitle \u200f RTL mark",
        "description": "Emoji 😀, RTL שלום, bidi \u202e, tags \U000e0041\U000e0042, ESC \x1b[31m",
        "inputSchema": {
            "type": "object",
            "properties": {
                "n": {
                    "type": "integer",
                    "default": None,
                    "maximum": 2**63,
                    "minimum": -(2**63) - 1,
                },
                "f": {"type": "number", "default": 1.0, "multipleOf": 0.1, "maximum": 1e308},
                "tiny": {"type": "number", "exclusiveMinimum": 5e-324},
                "s": {"type": "string", "enum": ["a", None, "😀"], "description": "dots.in.text"},
                "weird.key/with\"quotes'": {"const": [None, True, False, 0, -0.0]},
            },
            "required": ["n"],
            "additionalProperties": False,
        },
        "outputSchema": {"type": "object", "properties": {"r": {"default": None}}},
        "annotations": {"readOnlyHint": True, "title": None},
    }


def roundtrip(tmp_path, defs: list[dict], server: str = "srv", principal: str = "default"):
    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    tools = [ToolDef.from_wire(d) for d in defs]
    for t in tools:
        pf.decide(make_pin(server, t, Decision.APPROVED, principal=principal, by="alice"))
    save_pins(pf)
    back = load_pins(path)
    return tools, back


def test_hostile_definition_round_trip_same_digest_and_json(tmp_path):
    tools, back = roundtrip(tmp_path, [hostile_def()])
    t = tools[0]
    pin = back.get("srv", "default", "tool")
    assert pin is not None and pin.digest == t.digest
    again = pin.tool_def()
    assert again.digest == t.digest
    assert canonical_json(again.wire) == canonical_json(t.wire)
    # Lossless, not merely equivalent: 1.0 stays a float, 2**63 an exact int, null a null.
    assert json.dumps(again.wire, sort_keys=True) == json.dumps(t.wire, sort_keys=True)
    props = again.wire["inputSchema"]["properties"]
    assert props["n"]["maximum"] == 2**63 and props["n"]["default"] is None
    assert isinstance(props["f"]["default"], float)
    assert props["tiny"]["exclusiveMinimum"] == 5e-324


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_hostile_names_round_trip(tmp_path, name):
    tools, back = roundtrip(
        tmp_path, [hostile_def(name)], server=f"srv {name}", principal=f"p {name}"
    )
    pin = back.get(f"srv {name}", f"p {name}", name)
    assert pin is not None
    assert pin.tool_def().digest == tools[0].digest
    assert pin.decided_by == "alice"


def test_many_hostile_names_in_one_file(tmp_path):
    tools, back = roundtrip(tmp_path, [hostile_def(n) for n in HOSTILE_NAMES])
    assert sorted(k[2] for k in back.pins) == sorted(HOSTILE_NAMES)
    for t in tools:
        assert back.get("srv", "default", t.name).tool_def().digest == t.digest


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    name=st.text(min_size=0, max_size=40),
    server=st.text(max_size=20),
    desc=st.text(max_size=60),
    extra=json_values,
)
def test_property_round_trip(tmp_path_factory, name, server, desc, extra):
    for s in (name, server, desc):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return  # lone surrogates: TOML keys cannot hold them (refused, tested below)
    tmp = tmp_path_factory.mktemp("rt")
    wire = {
        "name": name,
        "description": desc,
        "inputSchema": {"type": "object", "properties": {"x": {"default": extra}}},
    }
    tools, back = roundtrip(tmp, [wire], server=server)
    pin = back.get(server, "default", name)
    assert pin.tool_def().digest == tools[0].digest
    assert json.dumps(pin.tool_def().wire, sort_keys=True) == json.dumps(wire, sort_keys=True)


def test_lone_surrogate_in_description_survives(tmp_path):
    wire = {"name": "t", "description": "bad \ud800 half", "inputSchema": {}}
    _, back = roundtrip(tmp_path, [wire])
    assert back.get("srv", "default", "t").tool_def().wire["description"] == "bad \ud800 half"


def test_lone_surrogate_in_name_is_refused_cleanly(tmp_path):
    pf = PinFile(path=str(tmp_path / "p.toml"))
    pf.decide(
        make_pin("s", ToolDef.from_wire({"name": "a\udc00", "inputSchema": {}}), "approved", by="x")
    )
    with pytest.raises(InputError):
        save_pins(pf)
    assert not (tmp_path / "p.toml").exists()


# Layout ------------------------------------------------------------------------------------


def _pinfile(order: list[str]) -> PinFile:
    pf = PinFile()
    for n in order:
        pf.decide(
            make_pin(
                "s" + n[-1],
                ToolDef.from_wire({"name": n, "inputSchema": {}}),
                "approved",
                by="bob",
                at="2026-01-01T00:00:00Z",
            )
        )
    return pf


def test_deterministic_order_regardless_of_insertion():
    names = ["b1", "a2", "c1", "a1", "z2"]
    assert _pinfile(names).dumps() == _pinfile(list(reversed(names))).dumps()


def test_version_first_and_layout(tmp_path):
    text = _pinfile(["a1"]).dumps()
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert lines[0] == "version = 2"  # issue 19: version 2 writes definitions as JSON lines
    assert "[servers.s1.principals.default.tools.a1]" in text
    assert 'decision = "approved"' in text


def test_one_decision_is_a_small_diff(tmp_path):
    pf = _pinfile([f"t{i}1" for i in range(50)])
    before = pf.dumps()
    key = next(iter(sorted(pf.pins)))
    pf.decide(with_decision(pf.pins[key], Decision.DENIED, by="bob", at="2026-01-02T00:00:00Z"))
    after = pf.dumps()
    changed = [
        ln
        for ln in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if ln.startswith(("+", "-")) and not ln.startswith(("+++", "---"))
    ]
    assert len(changed) == 4  # decision and decided_at, old and new


def test_hidden_characters_are_escaped_in_definition_text():
    pf = _pinfile([])
    pf.decide(make_pin("s", ToolDef.from_wire(hostile_def()), "approved", by="x"))
    text = pf.dumps()
    # Version 2 (issue 19): the definition spans lines, from `definition = ` to its closing
    # delimiter; every one of them is ASCII and shows the RLO as an escape.
    start = text.index("definition = ")
    block = text[start:]
    assert "\u202e" not in block and "\\u202e" in block  # a literal string: one backslash
    assert block.startswith("definition = '''\n{")
    assert block.isascii()


# Refusals ----------------------------------------------------------------------------------


def test_corrupt_file_names_the_line():
    with pytest.raises(InputError) as e:
        load_pins(os.path.join(FIXTURES, "corrupt.toml"))
    assert "line 7" in str(e.value) and "corrupt.toml" in str(e.value)


def test_future_version_refused_naming_it():
    with pytest.raises(InputError) as e:
        load_pins(os.path.join(FIXTURES, "future.toml"))
    assert "version 2" in str(e.value) and "upgrade" in str(e.value)


@pytest.mark.parametrize(
    "text, msg",
    [
        ("servers = {}\n", "no integer 'version'"),
        ('version = "1"\n', "no integer 'version'"),
        (
            'version = 1\n[servers.s.principals.p.tools.t]\ndecision = "maybe"\ndigest = "sha256:x"\n'
            'definition = "{}"\n',
            "'decision' must be",
        ),
        (
            'version = 1\n[servers.s.principals.p.tools.t]\ndecision = "approved"\ndigest = "md5:x"\n'
            'definition = "{}"\n',
            "'digest' must start",
        ),
        (
            'version = 1\n[servers.s.principals.p.tools.t]\ndecision = "approved"\n'
            'digest = "sha256:x"\n',
            "'definition' is missing",
        ),
        ('version = 1\n[servers.s]\npolicy = "yolo"\n', "policy must be one of"),
        (b"version = 1\n# \xff\n", "not UTF-8"),
    ],
)
def test_invalid_content_is_refused(text, msg):
    with pytest.raises(InputError) as e:
        parse_pins(text, source="x.toml")
    assert msg in str(e.value)


def test_empty_file_is_an_empty_pin_set(tmp_path):
    p = tmp_path / "mcp-pins.toml"
    p.write_text("")
    assert load_pins(str(p)).pins == {}


def test_unknown_keys_are_kept(tmp_path):
    p = tmp_path / "mcp-pins.toml"
    t = ToolDef.from_wire({"name": "t", "inputSchema": {}})
    pf = PinFile(path=str(p))
    pf.decide(make_pin("s", t, "approved", by="x"))
    save_pins(pf)
    text = p.read_text().replace('decision = "approved"', 'decision = "approved"\nfuture_key = 7')
    p.write_text(
        "top_future = true\n".join(text.split("version = 2\n", 1)).replace(
            "top_future", "version = 2\ntop_future", 1
        )
    )
    pf = load_pins(str(p))
    pf.decide(make_pin("s", ToolDef.from_wire({"name": "u", "inputSchema": {}}), "denied", by="x"))
    save_pins(pf)
    again = p.read_text()
    assert "future_key = 7" in again and "top_future = true" in again


def test_save_refuses_a_file_corrupted_since_it_was_read(tmp_path):
    p = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(p))
    p.write_text("version = 1\nthis is = = broken\n")
    before = p.read_bytes()
    pf.decide(make_pin("s", ToolDef.from_wire({"name": "t", "inputSchema": {}}), "approved"))
    with pytest.raises(InputError):
        save_pins(pf)
    assert p.read_bytes() == before


# Merging concurrent writers ----------------------------------------------------------------


def test_concurrent_sessions_merge_and_lose_nothing(tmp_path):
    p = str(tmp_path / "mcp-pins.toml")
    a, b = load_pins(p), load_pins(p)
    ta = ToolDef.from_wire({"name": "ta", "inputSchema": {}})
    tb = ToolDef.from_wire({"name": "tb", "inputSchema": {}})
    a.decide(make_pin("s", ta, "approved", by="a"))
    b.decide(make_pin("s", tb, "denied", by="b"))
    ra = save_pins(a)
    rb = save_pins(b)
    assert not ra.merged and rb.merged and rb.conflicts == []
    final = load_pins(p)
    assert final.get("s", "default", "ta").decision is Decision.APPROVED
    assert final.get("s", "default", "tb").decision is Decision.DENIED
    assert b.get("s", "default", "ta") is not None  # the saving session sees the merged state


def test_same_tool_last_writer_wins_and_conflict_is_reported(tmp_path):
    p = str(tmp_path / "mcp-pins.toml")
    a, b = load_pins(p), load_pins(p)
    t = ToolDef.from_wire({"name": "t", "inputSchema": {}})
    a.decide(make_pin("s", t, "approved", by="a"))
    b.decide(make_pin("s", t, "denied", by="b"))
    save_pins(a)
    rb = save_pins(b)
    assert [c.key for c in rb.conflicts] == [("s", "default", "t")]
    assert load_pins(p).get("s", "default", "t").decided_by == "b"


# Files on disk -----------------------------------------------------------------------------


def test_audit_log_records_old_and_new_digest(tmp_path):
    p = str(tmp_path / "mcp-pins.toml")
    v1 = ToolDef.from_wire({"name": "t", "description": "one", "inputSchema": {}})
    v2 = ToolDef.from_wire({"name": "t", "description": "two", "inputSchema": {}})
    pf = load_pins(p)
    pf.decide(make_pin("s", v1, "approved", by="alice", note="first look"), source="test")
    save_pins(pf)
    pf.decide(make_pin("s", v2, "approved", by="bob"), why="reviewed", source="test")
    save_pins(pf)
    recs = audit.read(str(tmp_path / "mcp-pins.audit.jsonl"))
    assert [r["who"] for r in recs] == ["alice", "bob"]
    assert recs[0]["old_digest"] is None and recs[0]["why"] == "first look"
    assert recs[1]["old_digest"] == v1.digest and recs[1]["new_digest"] == v2.digest
    assert recs[1]["why"] == "reviewed" and recs[1]["source"] == "test"
    assert all(r["ts"].endswith("Z") for r in recs)


def test_scheme_change_migrates_by_recomputing(tmp_path):
    t = ToolDef.from_wire({"name": "t", "description": "d", "inputSchema": {}})
    old_fields = ("name", "description")
    pin = make_pin("s", t, "approved", by="x")
    from dataclasses import replace

    legacy = replace(
        pin,
        digest=digest_of(t.wire, old_fields),
        digest_scheme=DIGEST_SCHEME - 1,
        hashed_fields=old_fields,
    )
    assert legacy.digest != t.digest
    assert legacy.current_digest() == t.digest
    assert pin.hashed_fields == HASHED_FIELDS


def test_symlink_and_mode_are_preserved_and_stale_temps_cleaned(tmp_path):
    real = tmp_path / "real.toml"
    real.write_text("version = 1\n")
    os.chmod(real, 0o640)
    link = tmp_path / "mcp-pins.toml"
    link.symlink_to(real)
    stale = tmp_path / ".real.toml.abc123.tmp"
    stale.write_text("half")
    pf = load_pins(str(link))
    pf.decide(make_pin("s", ToolDef.from_wire({"name": "t", "inputSchema": {}}), "approved"))
    save_pins(pf)
    assert link.is_symlink() and "decision" in real.read_text()
    assert (os.stat(real).st_mode & 0o777) == 0o640
    assert not stale.exists()


def test_failed_write_leaves_the_file_and_says_so_in_the_audit_log(tmp_path, monkeypatch):
    from mcp_review.store import pinfile as P

    p = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(p))
    pf.decide(make_pin("s", ToolDef.from_wire({"name": "t", "inputSchema": {}}), "approved"))
    save_pins(pf)
    before = p.read_bytes()

    def disk_full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(P, "atomic_write", disk_full)
    pf.decide(make_pin("s", ToolDef.from_wire({"name": "u", "inputSchema": {}}), "denied"))
    with pytest.raises(InputError) as e:
        save_pins(pf)
    assert "No space left" in str(e.value) and p.read_bytes() == before
    events = [r["event"] for r in audit.read(str(tmp_path / "mcp-pins.audit.jsonl"))]
    assert events == ["decision", "decision", "aborted"]


def test_deciding_one_tool_twice_in_a_session_is_no_conflict(tmp_path):
    p = str(tmp_path / "mcp-pins.toml")
    other = load_pins(p)
    other.decide(make_pin("s", ToolDef.from_wire({"name": "x", "inputSchema": {}}), "approved"))
    mine = load_pins(p)
    save_pins(other)
    t = ToolDef.from_wire({"name": "t", "inputSchema": {}})
    mine.decide(make_pin("s", t, "approved"))
    mine.decide(make_pin("s", t, "denied"))
    r = save_pins(mine)
    assert r.merged and r.conflicts == []
    assert load_pins(p).get("s", "default", "t").decision is Decision.DENIED


def test_a_new_decision_does_not_inherit_the_old_note(tmp_path):
    p = str(tmp_path / "mcp-pins.toml")
    t = ToolDef.from_wire({"name": "t", "description": "d", "inputSchema": {}})
    pf = load_pins(p)
    pf.decide(
        make_pin("s", t, "approved", by="alice", note="approved as served at v1"), source="test"
    )
    denied = with_decision(pf.pins[("s", "default", "t")], Decision.DENIED, by="bob")
    assert denied.note == "" and denied.decided_by == "bob"
    assert denied.digest == t.digest and denied.definition == definition_text(t)
    pf.decide(denied, source="test")
    save_pins(pf)
    recs = audit.read(str(tmp_path / "mcp-pins.audit.jsonl"))
    assert recs[-1]["decision"] == "denied" and recs[-1]["why"] == ""
    assert load_pins(p).pins[("s", "default", "t")].note == ""
    # A note given for the new decision is kept.
    assert with_decision(denied, Decision.APPROVED, note="re-checked").note == "re-checked"
