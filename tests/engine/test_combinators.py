"""Meaning, not syntax, for anyOf/oneOf/allOf and $ref (issue 11 #2): a schema re-expressed
with the same values is not breaking; an alternative that lost values is, with a witness drawn
from it; where the walk cannot decide, potentially-breaking naming the branch.

Every "not breaking" verdict here is checked against an independent truth: each value the old
schema lists (or a sample of each old alternative) is validated by python-jsonschema under the
new schema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from mcp_review.engine.compare import compare
from mcp_review.engine.model import ChangeClass, ToolDef

FC = jsonschema.Draft202012Validator.FORMAT_CHECKER
ALARMS = (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)


def wrap(x: Any, defs: dict | None = None) -> dict:
    s: dict = {"type": "object", "properties": {"x": x}, "required": ["x"]}
    if defs:
        s["$defs"] = defs
    return s


def classify(old: dict, new: dict):
    return compare(
        ToolDef.from_wire({"name": "t", "inputSchema": old}),
        ToolDef.from_wire({"name": "t", "inputSchema": new}),
    )


def accepts(schema: dict, value: Any) -> bool:
    return jsonschema.Draft202012Validator(schema, format_checker=FC).is_valid({"x": value})


ENUM = {"type": "string", "enum": ["json", "csv", "xml"]}
ANY_CONST = {"anyOf": [{"const": "json"}, {"const": "csv"}, {"const": "xml"}]}
ONE_CONST = {
    "oneOf": [
        {"const": "json", "title": "JSON"},
        {"const": "csv", "title": "CSV"},
        {"const": "xml", "title": "XML"},
    ]
}
TYPES = {"type": ["string", "integer", "null"]}
ANY_TYPES = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
ONE_TYPES = {"oneOf": [{"type": "null"}, {"type": "integer"}, {"type": "string"}]}
SAMPLES = ["json", "csv", "xml", "other", 0, 7, None, 1.5, True, [], {}]

EQUIVALENT = [
    ("enum -> anyOf of const", wrap(ENUM), wrap(ANY_CONST)),
    ("anyOf of const -> enum", wrap(ANY_CONST), wrap(ENUM)),
    ("enum -> oneOf of titled const", wrap(ENUM), wrap(ONE_CONST)),
    ("oneOf of const -> enum", wrap(ONE_CONST), wrap(ENUM)),
    ("type list -> anyOf of single types", wrap(TYPES), wrap(ANY_TYPES)),
    ("anyOf of single types -> type list", wrap(ANY_TYPES), wrap(TYPES)),
    ("type list -> oneOf of single types", wrap(TYPES), wrap(ONE_TYPES)),
    (
        "anyOf branches reordered",
        wrap(ANY_TYPES),
        wrap({"anyOf": list(reversed(ANY_TYPES["anyOf"]))}),
    ),
    (
        "definition becomes anyOf of $refs",
        wrap({"$ref": "#/$defs/V"}, {"V": {"type": ["string", "integer"]}}),
        wrap(
            {"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/I"}]},
            {"S": {"type": "string"}, "I": {"type": "integer"}},
        ),
    ),
    ("$ref inlined", wrap({"$ref": "#/$defs/F"}, {"F": ENUM}), wrap(ENUM)),
    ("$ref extracted", wrap(ENUM), wrap({"$ref": "#/$defs/F"}, {"F": ENUM})),
    (
        "integer exclusive bounds written inclusive",
        wrap({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10}),
        wrap({"type": "integer", "minimum": 1, "maximum": 9}),
    ),
    (
        "anyOf of const -> fewer, wider alternatives",
        wrap(ANY_CONST),
        wrap({"anyOf": [{"enum": ["json", "csv"]}, {"const": "xml"}]}),
    ),
]


@pytest.mark.parametrize(("name", "old", "new"), EQUIVALENT, ids=[e[0] for e in EQUIVALENT])
def test_re_expressed_values_are_not_breaking(name, old, new):
    cmp = classify(old, new)
    alarms = [(c.rule, c.pointer) for c in cmp.changes if c.cls in ALARMS]
    assert alarms == [], name
    # Independent truth: every sample the old schema accepts, the new one accepts.
    for v in SAMPLES:
        if accepts(old, v):
            assert accepts(new, v), (name, v)


ALLOF_OLD = {
    "type": "object",
    "properties": {
        "page": {
            "type": "object",
            "properties": {
                "cursor": {"type": "string"},
                "size": {"type": "integer", "maximum": 100},
            },
            "required": ["size"],
        }
    },
}
ALLOF_NEW = {
    "type": "object",
    "properties": {"page": {"allOf": [{"$ref": "#/$defs/Cursor"}, {"$ref": "#/$defs/Size"}]}},
    "$defs": {
        "Cursor": {"type": "object", "properties": {"cursor": {"type": "string"}}},
        "Size": {"properties": {"size": {"type": "integer", "maximum": 100}}, "required": ["size"]},
    },
}


def test_all_of_refs_whose_merge_is_the_old_object_is_not_breaking():
    cmp = classify(ALLOF_OLD, ALLOF_NEW)
    assert [c for c in cmp.changes if c.cls in ALARMS] == []
    v = jsonschema.Draft202012Validator(ALLOF_NEW)
    for page in ({"size": 3}, {"size": 100, "cursor": "a"}, {"size": 3, "other": 1}):
        assert v.is_valid({"page": page})


def test_all_of_refs_that_narrow_the_object_still_break():
    new = {
        **ALLOF_NEW,
        "$defs": {
            **ALLOF_NEW["$defs"],
            "Size": {
                "properties": {"size": {"type": "integer", "maximum": 50}},
                "required": ["size"],
            },
        },
    }
    cmp = classify(ALLOF_OLD, new)
    (b,) = [c for c in cmp.changes if c.cls is ChangeClass.BREAKING]
    assert b.rule == "maximum-decreased" and b.has_witness
    assert jsonschema.Draft202012Validator(ALLOF_OLD).is_valid(b.witness)
    assert not jsonschema.Draft202012Validator(new).is_valid(b.witness)


def test_an_uncovered_old_branch_is_breaking_with_a_witness_from_that_branch():
    old = wrap({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]})
    new = wrap({"anyOf": [{"type": "string"}, {"type": "boolean"}]})
    cmp = classify(old, new)
    (b,) = [c for c in cmp.changes if c.cls in ALARMS]
    assert b.rule == "any-of-branch-removed" and b.cls is ChangeClass.BREAKING
    assert b.pointer == "/inputSchema/properties/x/anyOf/1"
    assert isinstance(b.witness["x"], int) and not isinstance(b.witness["x"], bool)
    assert accepts(old, b.witness["x"]) and not accepts(new, b.witness["x"])


def test_enum_value_lost_in_the_rewrite_is_breaking_with_that_value():
    old = wrap(ENUM)
    new = wrap({"oneOf": [{"const": "json"}, {"const": "csv"}]})
    cmp = classify(old, new)
    broken = [c for c in cmp.changes if c.cls is ChangeClass.BREAKING]
    assert broken and all(c.has_witness for c in broken)
    assert {c.witness["x"] for c in broken} == {"xml"}
    # the alternatives that took over old values are not reported as additions
    assert not [c for c in cmp.changes if c.rule == "one-of-branch-added"]


def test_a_branch_whose_coverage_cannot_be_decided_is_potentially_breaking_by_name():
    """^a is inside ^[ab], but the walker does not decide regex inclusion: it names the branch
    as potentially-breaking and never calls it breaking without a witness."""
    defs_old = {"A": {"type": "string", "pattern": "^a"}}
    defs_new = {"B": {"type": "string", "pattern": "^[ab]"}}
    old = wrap({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "integer"}]}, defs_old)
    new = wrap(
        {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "integer"}, {"type": "boolean"}]}, defs_new
    )
    cmp = classify(old, new)
    (p,) = [c for c in cmp.changes if c.cls in ALARMS]
    assert p.rule == "any-of-branch-removed" and p.cls is ChangeClass.POTENTIALLY_BREAKING
    assert p.pointer == "/inputSchema/properties/x/anyOf/0" and not p.has_witness
    assert '"$ref"' in p.message  # the branch is named


def test_one_of_alternatives_that_can_overlap_are_not_taken_as_a_union():
    """oneOf rejects a value two alternatives match: splitting a type list into overlapping
    alternatives (number and integer) is not a re-expression."""
    old = wrap({"type": ["number", "string"]})
    new = wrap({"oneOf": [{"type": "number"}, {"type": "integer"}, {"type": "string"}]})
    cmp = classify(old, new)
    assert [c for c in cmp.changes if c.cls in ALARMS]
    assert accepts(old, 3) and not accepts(new, 3)  # independent truth: 3 matches two


def test_output_side_coverage_flips():
    """In an outputSchema a re-expression is equally silent, and a new alternative the old
    ones never allowed is breaking (results may now fall outside the promise)."""

    def tool(out):
        return ToolDef.from_wire(
            {"name": "t", "inputSchema": {"type": "object"}, "outputSchema": out}
        )

    same = compare(tool(wrap(ENUM)), tool(wrap(ONE_CONST)))
    assert [c for c in same.changes if c.cls in ALARMS] == []
    wider = compare(
        tool(wrap(ENUM)), tool(wrap({"anyOf": [*ANY_CONST["anyOf"], {"const": "yaml"}]}))
    )
    assert [c.cls for c in wider.changes if c.cls in ALARMS] == [ChangeClass.BREAKING]


def test_integer_bounds_that_really_move_are_still_breaking_with_a_witness():
    old = wrap({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10})
    new = wrap({"type": "integer", "minimum": 1, "maximum": 8})
    cmp = classify(old, new)
    (b,) = [c for c in cmp.changes if c.cls in ALARMS]
    assert b.rule == "maximum-decreased" and b.witness["x"] == 9
    assert accepts(old, 9) and not accepts(new, 9)


def test_breaking_changes_without_a_witness_say_why():
    """A call that breaks for two changes at once is no witness for either alone: it is
    repaired (the property the other change made required is filled in) and tried again;
    when nothing can show a change alone, the change says so."""
    old = {"type": "object", "properties": {"uid": {"type": "string"}}, "required": ["uid"]}
    new = {
        "type": "object",
        "properties": {"uid": {"type": "string"}, "pageId": {"type": "number"}},
        "required": ["uid", "pageId"],
        "additionalProperties": False,
    }
    cmp = classify(old, new)
    closed = next(c for c in cmp.changes if c.rule == "additional-properties-closed")
    assert closed.has_witness and "pageId" in closed.witness and "extra" in closed.witness
    v_old, v_new = (jsonschema.Draft202012Validator(s) for s in (old, new))
    assert v_old.is_valid(closed.witness) and not v_new.is_valid(closed.witness)
    # a change no generated call can show alone carries a note instead
    old2 = wrap({"type": "string", "format": "email", "maxLength": 50})
    new2 = wrap({"type": "string", "format": "email", "maxLength": 60, "minLength": 90})
    for c in classify(old2, new2).changes:
        if c.cls is ChangeClass.BREAKING:
            assert c.has_witness or (c.note and c.note.startswith("no witness")), c
