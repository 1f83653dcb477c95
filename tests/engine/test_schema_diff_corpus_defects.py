"""Engine defects the widened corpus found (issue 26; tests/engine/test_corpus.py named them in
KNOWN_MISSED and KNOWN_CRY_WOLF): one fixture per class of the defect, asserting exactly which
rules fire, and python-jsonschema (an independent validator) on every witness."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema.validators import Draft202012Validator

from mcp_review.engine.compare import compare
from mcp_review.engine.model import ChangeClass, Direction, ToolDef
from mcp_review.engine.schema_diff import diff_tools

B, P, C, X = (
    ChangeClass.BREAKING,
    ChangeClass.POTENTIALLY_BREAKING,
    ChangeClass.COMPATIBLE,
    ChangeClass.COSMETIC,
)
ALARMS = (B, P)


def _changes(old: Any, new: Any, field: str = "inputSchema") -> set[tuple[str, ChangeClass]]:
    base = {"name": "t", "inputSchema": {"type": "object"}}
    a = ToolDef.from_wire({**base, field: old})
    b = ToolDef.from_wire({**base, field: new})
    return {(c.rule, c.cls) for c in diff_tools(a, b)}


def _alarms(old: Any, new: Any, field: str = "inputSchema") -> set[tuple[str, ChangeClass]]:
    return {(r, c) for r, c in _changes(old, new, field) if c in ALARMS}


def _map(**kw: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"fields": {"type": "object", **kw}}}


# propertyNames that every name passes (airtable create_record, update_records) ---------------

EVERY_NAME = [
    {"type": "string"},
    {"type": ["string", "null"]},
    {"type": "string", "description": "a field name"},
    {"type": "string", "minimum": 3, "items": {"type": "integer"}},  # no string constraint
    {},
    True,
]


@pytest.mark.parametrize("names", EVERY_NAME)
@pytest.mark.parametrize("field", ["inputSchema", "outputSchema"])
def test_property_names_every_name_passes_is_no_change(names, field):
    """A property name is always a string: ``propertyNames`` that admits strings and says
    nothing else about them rules no object out, added, removed or rewritten."""
    for old, new in (
        (_map(additionalProperties={}), _map(additionalProperties={}, propertyNames=names)),
        (_map(propertyNames=names), _map()),
        (_map(propertyNames={}), _map(propertyNames=names)),
    ):
        assert _alarms(old, new, field) == set(), (old, new)
        assert {c for _, c in _changes(old, new, field)} <= {X, ChangeClass.TRUST}


@pytest.mark.parametrize(
    "names", [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "integer"}, {"maxLength": 3}]
)
def test_property_names_that_rule_names_out_stay_breaking(names):
    assert _changes(_map(), _map(propertyNames=names)) == {("property-names-added", B)}


# A union of closed object branches re-expressed as an open map (airtable create_field) --------

BRANCHES = [
    {
        "type": "object",
        "properties": {"type": {"type": "string", "const": k}},
        "required": ["type"],
        "additionalProperties": False,
    }
    for k in ("autoNumber", "barcode", "button")
]
OPEN_MAPS = [
    {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {}},
    {"type": "object", "additionalProperties": True},
    {"type": "object"},
]


@pytest.mark.parametrize("new_map", OPEN_MAPS)
def test_a_union_of_object_branches_re_expressed_as_a_map_of_every_object_is_no_alarm(new_map):
    old = {"type": "object", "properties": {"field": {"anyOf": BRANCHES}}}
    new = {"type": "object", "properties": {"field": new_map}}
    assert _alarms(old, new) == set()
    # the other way round the map narrows to the union: breaking
    assert ("any-of-branch-added", B) not in _changes(old, new)
    assert any(c is B for _, c in _changes(new, old))


# anyOf [T, null] written beside the same T (workspace-mcp modify_gmail_message_labels) -------

ARRAY = {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize("kw", ["anyOf", "oneOf"])
def test_a_union_beside_a_sibling_type_that_one_branch_already_admits_is_no_change(kw):
    """``{type: array, items: string, anyOf: [{type: array, items: string}, {type: null}]}``:
    the sibling ``type`` rules null out, so the union keeps exactly what the siblings accept."""
    old = {"type": "object", "properties": {"ids": {**ARRAY, "default": []}}}
    new = {
        "type": "object",
        "properties": {"ids": {**ARRAY, kw: [dict(ARRAY), {"type": "null"}], "default": None}},
    }
    assert _alarms(old, new) == set()
    assert _alarms(new, old) == set()  # the union dropped again: no change either


def test_a_union_beside_a_sibling_type_that_narrows_it_stays_breaking():
    old = {"type": "object", "properties": {"ids": dict(ARRAY)}}
    narrower = {"type": "array", "items": {"type": "string", "maxLength": 3}}
    new = {
        "type": "object",
        "properties": {"ids": {**ARRAY, "anyOf": [narrower, {"type": "null"}]}},
    }
    assert ("composition-added", B) in _changes(old, new)


# A closed output object gains properties (git-mcp-server git_merge, git_pull) ----------------

OUT_OLD = {
    "type": "object",
    "properties": {"success": {"type": "boolean"}},
    "required": ["success"],
    "additionalProperties": False,
}


def test_a_closed_output_object_gaining_a_required_property_is_breaking():
    """Every new result carries ``strategy``, which the old schema (closed) rejects: the
    client that validates by the old promise rejects every result."""
    new = {
        **OUT_OLD,
        "properties": {**OUT_OLD["properties"], "strategy": {"type": "string"}},
        "required": ["success", "strategy"],
    }
    got = _changes(OUT_OLD, new, "outputSchema")
    assert ("property-added-required", B) in got
    assert not [c for r, c in got if c is B and r != "property-added-required"]
    # On the input side too: an old call lacks it.
    assert ("property-added-required", B) in _changes(OUT_OLD, new)
    # An open output object gaining a required property promises more: compatible.
    open_old = {k: v for k, v in OUT_OLD.items() if k != "additionalProperties"}
    open_new = {k: v for k, v in new.items() if k != "additionalProperties"}
    assert _alarms(open_old, open_new, "outputSchema") == set()
    # A pattern of the old closed object that admits the name: the old schema took the key.
    pat_old = {**OUT_OLD, "patternProperties": {"^s": {"type": "string"}}}
    pat_new = {**new, "patternProperties": {"^s": {"type": "string"}}}
    assert ("property-added-required", B) not in _changes(pat_old, pat_new, "outputSchema")


def _output_witness_checked(old_out: Any, new_out: Any) -> Any:
    tool = {"name": "t", "inputSchema": {"type": "object"}}
    a = ToolDef.from_wire({**tool, "outputSchema": old_out})
    b = ToolDef.from_wire({**tool, **({"outputSchema": new_out} if new_out is not None else {})})
    got = [c for c in compare(a, b).changes if c.direction is Direction.OUTPUT]
    for c in got:
        if c.has_witness:
            assert not Draft202012Validator(old_out).is_valid(c.witness)  # the old promise
            if new_out is not None:
                assert Draft202012Validator(new_out).is_valid(c.witness)
    return got


def test_a_closed_output_object_gaining_a_required_property_shows_the_result():
    new = {
        **OUT_OLD,
        "properties": {**OUT_OLD["properties"], "strategy": {"type": "string"}},
        "required": ["success", "strategy"],
    }
    got = _output_witness_checked(OUT_OLD, new)
    c = next(c for c in got if c.rule == "property-added-required")
    assert c.cls is B and c.has_witness and "strategy" in c.witness


# outputSchema removed (mcp-neo4j-cypher 0.2.4 -> 0.6.0) -----------------------------------------


def test_an_output_schema_removed_is_an_output_change_shown_by_a_result_the_old_rejected():
    got = _output_witness_checked(OUT_OLD, None)
    assert [(c.rule, c.cls) for c in got] == [("output-schema-removed", B)]
    assert got[0].has_witness and got[0].witness == {}


def test_an_output_schema_removed_that_promised_nothing_stays_to_settle():
    got = _output_witness_checked({"type": "object"}, None)
    assert [(c.rule, c.cls) for c in got] == [("output-schema-removed", P)]
    assert not got[0].has_witness


# A length bound moved between a pattern's lookahead and minLength/maxLength (firecrawl-mcp
# 3.15.0 -> 3.26.0 firecrawl_search includeDomains): no call shows it because there is none ----

HOST = "(?:[a-z0-9]+\\.)+[a-z]+$"


def _host(**kw: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"d": {"type": "string", **kw}}}


@pytest.mark.parametrize("field", ["inputSchema", "outputSchema"])
def test_a_length_bound_moved_out_of_a_patterns_lookahead_is_no_length_change(field):
    with_lookahead = _host(pattern="^(?=.{1,253}$)" + HOST)
    with_keywords = _host(minLength=1, maxLength=253, pattern="^" + HOST)
    for old, new in ((with_lookahead, with_keywords), (with_keywords, with_lookahead)):
        got = _changes(old, new, field)
        assert {r for r, _ in got} == {"pattern-changed"}, got


def test_a_length_bound_tighter_than_the_old_lookahead_stays_breaking():
    old = _host(pattern="^(?=.{1,253}$)" + HOST)
    assert _changes(old, _host(maxLength=100, pattern="^" + HOST)) == {
        ("max-length-decreased", B),
        ("pattern-changed", P),
    }
    assert ("min-length-increased", B) in _changes(old, _host(minLength=4, pattern="^" + HOST))
    # the pattern kept as it was: the lookahead still says 1..253, maxLength 253 adds nothing
    same = _host(pattern="^(?=.{1,253}$)" + HOST, maxLength=253)
    assert _changes(old, same) == set()
