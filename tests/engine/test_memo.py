"""The per-run comparison memo (engine/memo.py) changes no answer.

A fleet repeats schema pairs (one server deployed many times), so ``compute_status`` reuses
the schema walk and the witness search for a pair it has compared before. The truth here is
the same run with the memo off: every tool's witnesses, notes, classes and verdict, and the
reports themselves, byte for byte.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mcp_review.engine.compare import compare
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.schema_diff import diff_tools
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import State, compute_status
from mcp_review.engine.witness import attach_witnesses
from mcp_review.formats.check import to_json, to_text

ROOT = Path(__file__).resolve().parents[2]

import corpus_data as cd  # noqa: E402


def _fleet(pairs: list[tuple[str, dict[str, dict], dict[str, dict]]]) -> tuple[Snapshot, PinFile]:
    """One server per (name, old tools, new tools): pins of the old, a snapshot of the new.
    Every definition is its own copy (no object shared between old and new, or servers)."""
    pins = PinFile()
    servers = {}
    for name, old, new in pairs:
        for wire in old.values():
            pins.decide(
                make_pin(name, ToolDef.from_wire(copy.deepcopy(wire)), Decision.APPROVED, by="t")
            )
        servers[name] = ServerSnapshot(
            name=name,
            server_info={"name": name, "version": "1"},
            tools=[ToolDef.from_wire(copy.deepcopy(w)) for w in new.values()],
        )
    return Snapshot(servers=servers), pins


def _answers(report):
    """Everything the comparison decided, per tool (witness values compared by value)."""
    out = []
    for t in report.tools:
        cmp = t.comparison
        out.append(
            (
                t.server,
                t.tool,
                t.state,
                t.policy,
                tuple(t.notes),
                cmp.to_json() if cmp is not None else None,
            )
        )
    return out


LONG_TEXT_PAIRS = frozenset(
    {
        ("desktop-commander", "0.2.3"),
        ("desktop-commander", "0.2.15"),
        ("desktop-commander", "0.2.30"),
        ("firecrawl-mcp", "3.15.0"),
    }
)
"""(server, old version) of the four SUITE_SERVERS upgrades whose long descriptions cost three
fifths of the fleet's status (the cues and text diffs of every copy, which the memo never
touches: it keeps schema walks and witness searches). Their comparisons are held to the
memo-off ones by :func:`test_memo_gives_every_corpus_comparison_the_same_answers`; the fleet
below leaves them out and still meets every answer the memo gives (walk and search hits,
witnesses, promotions, notes, broken tools: the counts its test asserts)."""


def _suite_pairs():
    """Every consecutive pair of captured versions of the servers the suite runs whole."""
    for server, caps in cd.servers().items():
        if server in cd.SUITE_SERVERS:  # the corpus the suite runs whole (corpus_data)
            yield from itertools.pairwise(caps)


@pytest.fixture(scope="module")
def corpus_fleet():
    """Every consecutive pair of captured versions of the corpus' real servers (but
    :data:`LONG_TEXT_PAIRS`), each deployed twice (``…#a`` and ``…#b``): the second copy's
    comparisons all come from the memo."""
    pairs = []
    for old, new in _suite_pairs():
        if (old.server, old.version) in LONG_TEXT_PAIRS:
            continue
        for copy_name in ("a", "b"):
            pairs.append(
                (f"{old.server}@{old.version}->{new.version}#{copy_name}", old.tools, new.tools)
            )
    return _fleet(pairs)


@pytest.fixture(scope="module")
def memo_run(corpus_fleet):
    """The fleet's status with a memo (what ``compute_status`` does by default: a fresh
    ``CompareMemo`` for the run), computed once for the two tests that read it (neither
    changes it): the memo and the report."""
    snap, pins = corpus_fleet
    memo = CompareMemo()
    return memo, compute_status(snap, pins, memo=memo)


def test_memo_gives_the_corpus_the_same_witnesses_and_verdicts(corpus_fleet, memo_run):
    snap, pins = corpus_fleet
    memo, with_memo = memo_run
    without = compute_status(snap, pins, memo=False)
    # Not vacuous: the memo answered, and there were witnesses and breaking verdicts to keep.
    assert memo.hits >= memo.misses > 100
    changes = [c for t in without.tools if t.comparison for c in t.comparison.changes]
    assert sum(c.has_witness for c in changes) > 200
    assert sum(c.promoted for c in changes) >= 4
    assert sum(bool(c.note) for c in changes) > 50
    assert sum(t.state is State.BROKEN for t in without.tools) > 100
    assert _answers(with_memo) == _answers(without)
    for fail_on in ("review", "breaking"):
        assert to_json(with_memo, fail_on) == to_json(without, fail_on)
        assert to_text(with_memo, fail_on, max_changes=10_000) == to_text(
            without, fail_on, max_changes=10_000
        )


def test_memo_gives_every_corpus_comparison_the_same_answers():
    """Every changed tool of every SUITE_SERVERS upgrade (the long-text ones too), compared
    twice through one memo (the second time from it) and once without: the same changes,
    classes, witnesses and notes. The fleet test above holds the status and the reports built
    on these answers; what the memo keeps is only what ``compare`` answers."""
    memo = CompareMemo()
    seen = 0
    for old, new in _suite_pairs():
        for name in sorted(old.tools.keys() & new.tools.keys()):
            a, b = ToolDef.from_wire(old.tools[name]), ToolDef.from_wire(new.tools[name])
            if a.digest == b.digest:
                continue
            fresh = compare(a, b).to_json()
            for _copy in ("a", "b"):
                got = compare(
                    ToolDef.from_wire(copy.deepcopy(old.tools[name])),
                    ToolDef.from_wire(copy.deepcopy(new.tools[name])),
                    memo=memo,
                )
                assert got.to_json() == fresh, (old.server, old.version, name)
            seen += (old.server, old.version) in LONG_TEXT_PAIRS
    assert memo.hits >= memo.misses > 100
    assert seen > 20  # the pairs the fleet leaves out were compared here


def test_a_reused_witness_is_a_copy(memo_run):
    _memo, report = memo_run  # compute_status(snap, pins): the memo is on by default
    by_key: dict = {}
    for t in report.tools:
        for c in t.comparison.changes if t.comparison else ():
            if c.has_witness and isinstance(c.witness, (dict, list)):
                by_key.setdefault((t.tool, c.pointer, c.rule), []).append(c.witness)
    twins = [ws for ws in by_key.values() if len(ws) >= 2]
    assert twins
    for ws in twins:
        assert ws[0] == ws[1] and ws[0] is not ws[1]


SCHEMA_OLD = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "maximum": 100}},
    "required": ["q"],
}
SCHEMA_NEW = {
    "type": "object",
    "properties": {"q": {"type": "string"}, "limit": {"type": "integer", "maximum": 50}},
    "required": ["q"],
}


def _tool(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "description": description, "inputSchema": copy.deepcopy(schema)}


def test_tools_sharing_a_schema_pair_keep_their_own_names_and_lines():
    """Two tools on one server and one on another, all with the same schema change but their
    own names and descriptions: each is reported under its own name, with its own lines."""
    pairs = []
    for server, names in (("one", ("alpha", "beta")), ("two", ("gamma",))):
        old = {n: _tool(n, SCHEMA_OLD, f"{n} searches.") for n in names}
        new = {n: _tool(n, SCHEMA_NEW, f"{n} searches.") for n in names}
        pairs.append((server, old, new))
    snap, pins = _fleet(pairs)
    memo = CompareMemo()
    report = compute_status(snap, pins, memo=memo)
    assert memo.hits == 4 and memo.misses == 2  # one walk and one search, reused twice each
    got = {(t.server, t.tool): t for t in report.tools}
    assert set(got) == {("one", "alpha"), ("one", "beta"), ("two", "gamma")}
    witnesses = []
    for (_, name), t in got.items():
        assert t.state is State.BROKEN
        assert t.comparison is not None
        assert t.comparison.new.name == t.comparison.old.name == name
        [c] = t.comparison.breaking
        assert c.pointer == "/inputSchema/properties/limit/maximum"
        # A real witness (python-jsonschema, not the engine's validator, is the judge).
        assert Draft202012Validator(SCHEMA_OLD).is_valid(c.witness)
        assert not Draft202012Validator(SCHEMA_NEW).is_valid(c.witness)
        witnesses.append(c.witness)
    assert witnesses[0] == witnesses[1] == witnesses[2]
    text = to_text(report, "review")
    for tool in ("one/alpha", "one/beta", "two/gamma"):
        # Its own header line, then its own change and witness lines under it.
        block = text.split(f" BROKEN   {tool}  [review]", 1)[1].split(" BROKEN ", 1)[0]
        assert "maximum-decreased  /inputSchema/properties/limit/maximum" in block, text
        assert "witness call: " in block, text
    assert "3 broken" in text
    assert to_text(report, "review") == to_text(compute_status(snap, pins, memo=False), "review")


def test_keys_are_exact_json_text():
    """The key tells apart what the search can tell apart: 1 from 1.0 from true, and key
    order (properties are tried in document order); a document whose text holds a null (a NaN
    writes as null too) has no key."""
    m = CompareMemo()
    assert m.key({"maximum": 1}) != m.key({"maximum": 1.0}) != m.key({"maximum": True})
    assert m.key({"a": 1, "b": 2}) != m.key({"b": 2, "a": 1})
    assert m.key(None) == b""
    assert m.key({"default": None}) is None
    assert m.key({"default": float("nan")}) is None
    assert m.key({"enum": ["null"]}) is not None  # the string "null" is not a null
    assert m.key({"big": 2**70}) is None


def test_the_search_key_covers_what_the_search_reads():
    """Same schemas, a change that differs only in its class: a potentially-breaking change
    is promoted by its witness, a compatible one is not searched; the memo keeps them apart."""
    old = ToolDef.from_wire(_tool("t", SCHEMA_OLD, "d"))
    new = ToolDef.from_wire(_tool("t", SCHEMA_NEW, "d"))
    [c] = [c for c in diff_tools(old, new) if c.cls is ChangeClass.BREAKING]
    memo = CompareMemo()
    potential = dataclasses.replace(c, cls=ChangeClass.POTENTIALLY_BREAKING)
    compatible = dataclasses.replace(c, cls=ChangeClass.COMPATIBLE)
    [a] = attach_witnesses(old, new, [potential], memo=memo)
    [b] = attach_witnesses(old, new, [compatible], memo=memo)
    [a2] = attach_witnesses(old, new, [potential], memo=memo)
    assert a.promoted and a.cls is ChangeClass.BREAKING and a.has_witness
    assert not b.has_witness and b.cls is ChangeClass.COMPATIBLE
    assert a2 == a and a2.witness == a.witness and memo.hits == 1
