"""The one schema walker (engine.walk): pointers, bounded node walks, local $ref resolution, and
the diff and the witness search reading a schema through it alike."""

from __future__ import annotations

import copy
import inspect
import re

import pytest
from jsonschema import Draft202012Validator

from mcp_review.engine import locate, schema_diff, walk, witness
from mcp_review.engine.generate import example
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.schema_diff import diff_schemas, diff_tools
from mcp_review.engine.walk import MAX_REF_HOPS, MISSING, Refs, Unresolved, follow, get, ref_sites
from mcp_review.engine.witness import attach_witnesses

DEFS = {
    "a b": {"type": "string", "enum": ["x", "y"]},
    "T": {"$anchor": "tee", "type": "integer", "minimum": 3},
    "N": {"$id": "#named", "type": "boolean"},
    "Any": True,
    "R": {"$ref": "#/$defs/T", "maximum": 10},
    "C1": {"$ref": "#/$defs/C2"},
    "C2": {"$ref": "#/$defs/C1"},
    "t~/s": {"type": "null"},
}
DOC = {"type": "object", "$defs": DEFS, "properties": {"xs": [{"k": 1}]}}


def test_get_pointer_tokens_objects_and_arrays():
    assert get(DOC, ["$defs", "T", "minimum"]) == 3
    assert get(DOC, ["properties", "xs", "0", "k"]) == 1
    for toks in (
        ["nope"],
        ["properties", "xs", "1"],
        ["properties", "xs", "-1"],
        ["type", "x"],
        ["properties", "xs", "0", "k", "z"],
    ):
        assert get(DOC, toks) is MISSING


@pytest.mark.parametrize(
    "ref, target, frag",
    [
        ("#/$defs/a%20b", DEFS["a b"], "/$defs/a b"),  # percent-decoded, as 2020-12 says
        ("#tee", DEFS["T"], "/$defs/T"),  # $anchor
        ("#named", DEFS["N"], "/$defs/N"),  # draft-07 plain-name $id
        ("#/$defs/t~0~1s", DEFS["t~/s"], "/$defs/t~0~1s"),
        ("#", DOC, ""),
    ],
)
def test_resolve_local_refs(ref, target, frag):
    assert Refs(DOC).resolve(ref) == (target, frag)


@pytest.mark.parametrize(
    "ref, remote, why",
    [
        ("https://example.com/s.json", True, "remote"),
        ("other.json#/a", True, "remote"),
        ("#/$defs/missing", False, "no such location"),
        ("#nowhere", False, "no anchor 'nowhere'"),
    ],
)
def test_unresolvable_refs_raise_never_fetch(ref, remote, why):
    with pytest.raises(Unresolved) as ei:
        Refs(DOC).resolve(ref)
    assert (ei.value.remote, ei.value.why) == (remote, why)


def test_deref_merges_siblings_over_the_target_and_keeps_the_view_alive():
    keep: list = []
    d = Refs(DOC).deref({"$ref": "#/$defs/R", "description": "d"}, keep=keep)
    # R = {$ref T, maximum 10}: the chain goes on to T, each level's siblings merged over it.
    assert d.view == {
        "$anchor": "tee",
        "type": "integer",
        "minimum": 3,
        "maximum": 10,
        "description": "d",
    }
    assert (d.frag, d.problem, d.ref) == ("/$defs/T", None, "")
    assert d.view in keep and isinstance(d.key, tuple) and len(d.key) == 3
    # Keywords beside a $ref to `true` are the whole schema (true ∧ S = S).
    assert Refs(DOC).deref({"$ref": "#/$defs/Any", "type": "string"}).view == {"type": "string"}
    # No siblings: the target itself, keyed by its identity.
    plain = Refs(DOC).deref({"$ref": "#/$defs/T"})
    assert plain.view is DEFS["T"] and plain.key == (id(DEFS["T"]),)


def test_deref_cycles_and_broken_chains_report_without_a_schema():
    d = Refs(DOC).deref({"$ref": "#/$defs/C1"})
    assert d.problem == "a $ref cycle with no schema" and "$ref" not in d.view
    assert d.last.get("$ref") in ("#/$defs/C1", "#/$defs/C2")
    d = Refs(DOC).deref({"$ref": 5, "type": "string"})
    assert (d.problem, d.ref, d.view) == ("not a string", 5, {"type": "string"})
    d = Refs(DOC).deref({"$ref": "https://x/y"})
    assert (d.problem, d.ref, d.view, d.frag) == ("remote", "https://x/y", {}, None)


def test_hop_bound_on_a_long_chain():
    chain = {f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(200)}
    chain["D200"] = {"type": "string"}
    doc = {"$defs": chain}
    d = Refs(doc).deref({"$ref": "#/$defs/D0"})
    assert d.problem == "a $ref cycle with no schema" and d.frag == f"/$defs/D{MAX_REF_HOPS - 1}"
    # Within the bound the chain resolves; follow() stops at its own bound and shows the $ref.
    assert Refs(doc).deref({"$ref": "#/$defs/D150"}).view == {"type": "string"}
    assert follow(doc, {"$ref": "#/$defs/D0"}, 8) == {"$ref": "#/$defs/D8"}  # 8 hops: D7
    assert follow(doc, {"$ref": "#/$defs/D195"}, 8) == {"type": "string"}


def test_ref_sites_shortest_first_and_bounded():
    doc = {
        "properties": {
            "a": {"items": {"$ref": "#/$defs/X"}},
            "b": {"$ref": "#/$defs/X"},
            "c": {"anyOf": [{"$ref": "#/$defs/X"}, {"$ref": "#/$defs/Y"}]},
        },
        "$defs": {"X": {"type": "string"}},
    }
    assert ref_sites(doc, "#/$defs/X") == [
        ["properties", "b"],
        ["properties", "a", "items"],
        ["properties", "c", "anyOf", "0"],
    ]
    assert len(ref_sites(doc, "#/$defs/X", first=1)) == 1
    deep: dict = {"$ref": "#/$defs/X"}
    for _ in range(100):
        deep = {"not": deep}
    assert ref_sites(deep, "#/$defs/X") == []  # below 64 tokens: not searched
    wide = {"properties": {f"p{i}": {"type": "string"} for i in range(10_000)}}
    wide["properties"]["p0"] = {"$ref": "#/$defs/X"}
    assert ref_sites(wide, "#/$defs/X", limit=100) == []  # visits at most `limit` containers


def test_the_walker_is_total_over_junk():
    for junk in (
        None,
        1,
        "s",
        [],
        [1, {"$ref": 3}],
        {"$ref": None},
        {"$ref": ""},
        {"$defs": [1, 2]},
        True,
        False,
    ):
        Refs(junk).deref(junk)
        follow(junk, {"$ref": "#/0"}, 8)
        ref_sites(junk, "#/a")
        list(walk.nodes(junk))


# The diff and the witness search read a schema alike ---------------------------------------


def _valid(schema, value) -> bool:
    return Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize(
    "prop",
    [
        {"$ref": "#tee"},
        {"$ref": "#/$defs/a%20b"},
        {"$ref": "#/$defs/Any", "type": "string", "maxLength": 3},
    ],
)
def test_witness_values_follow_the_same_refs_the_diff_does(prop):
    """Before the shared walker the witness generator could not follow an anchor or a
    percent-encoded pointer (it proposed values that the schema rejects, or none); its
    proposals are now valid calls, judged by an independent validator."""
    schema = {"type": "object", "properties": {"v": prop}, "required": ["v"], "$defs": DEFS}
    call = example(schema)
    assert call is not None and _valid(schema, call)


def test_a_breaking_change_behind_an_anchor_is_witnessed():
    old = {
        "type": "object",
        "properties": {"v": {"$ref": "#tee"}},
        "required": ["v"],
        "$defs": {"T": {"$anchor": "tee", "type": "integer", "minimum": 0}},
    }
    new = copy.deepcopy(old)  # nothing shared: as two definitions parsed off the wire
    new["$defs"]["T"]["minimum"] = 5
    [ch] = diff_schemas(old, new)
    assert (ch.rule, ch.cls, ch.pointer) == (
        "minimum-increased",
        ChangeClass.BREAKING,
        "/inputSchema/$defs/T/minimum",
    )
    a = ToolDef.from_wire({"name": "t", "inputSchema": old})
    b = ToolDef.from_wire({"name": "t", "inputSchema": new})
    [ch] = attach_witnesses(a, b, diff_tools(a, b))
    assert _valid(old, ch.witness) and not _valid(new, ch.witness)


def test_one_resolver_no_second_copy():
    """The diff, the witness search and the replay locator resolve through engine.walk only."""
    for mod in (schema_diff, witness, locate):
        src = inspect.getsource(mod)
        assert "engine.walk import" in src, mod.__name__
        assert not re.search(r"def _(resolve|anchor|ref_sites)\(", src), mod.__name__
        assert not re.search(r"\bunquote\b|\.get\(\"\$anchor\"\)", src), mod.__name__
