"""Witnesses: each is valid under old, rejected by new (checked by an independent validator),
sits on the boundary, and promotes a potentially-breaking change it demonstrates."""

from __future__ import annotations

import copy
import threading

import jsonschema
import pytest
from helpers import tool_def as tool

from mcp_review.engine.model import Change, ChangeClass
from mcp_review.engine.witness import attach_witnesses, find_witness

BASE = {
    "type": "object",
    "properties": {
        "q": {"type": "string", "maxLength": 10},
        "n": {"type": "integer", "minimum": 0},
        "f": {"type": "string", "enum": ["json", "csv"]},
        "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "t": {"type": ["string", "integer"]},
        "x": {"type": "number"},
        "p": {"type": "string"},
        "o": {"type": "object", "properties": {"a": {"type": "string"}}},
    },
    "required": ["q"],
}


def mod(fn) -> dict:
    s = copy.deepcopy(BASE)
    fn(s)
    return s


def independent_check(old, new, witness):
    """Judge with python-jsonschema (a different implementation from the engine's), formats
    asserted as the engine asserts them."""
    fc = jsonschema.Draft202012Validator.FORMAT_CHECKER
    assert jsonschema.Draft202012Validator(old, format_checker=fc).is_valid(witness), witness
    assert not jsonschema.Draft202012Validator(new, format_checker=fc).is_valid(witness), witness


def witness_for(old, new, pointer, rule, cls=ChangeClass.BREAKING):
    ch = Change(rule, cls, "/inputSchema" + pointer)
    (out,) = attach_witnesses(tool(old), tool(new), [ch])
    assert out.has_witness, f"no witness for {rule}"
    independent_check(old, new, out.witness)
    return out


# Boundary choice (documented): lengths and integer bounds use the *first value the new schema
# rejects* (new maxLength + 1, new minimum - 1), because it shows exactly where the line moved;
# when that value was already invalid under old, the old bound itself is used.


def test_max_length_lowered_witness_is_first_invalid_length():
    new = mod(lambda s: s["properties"]["q"].update(maxLength=5))
    out = witness_for(BASE, new, "/properties/q/maxLength", "max-length-decreased")
    assert len(out.witness["q"]) == 6
    assert out.witness_error.startswith("/q: ") and "longer than 5" in out.witness_error


def test_min_length_raised_witness_is_last_length_old_accepted():
    old = mod(lambda s: s["properties"]["q"].update(minLength=2))
    new = mod(lambda s: s["properties"]["q"].update(minLength=4))
    out = witness_for(old, new, "/properties/q/minLength", "min-length-increased")
    assert len(out.witness["q"]) == 3


def test_minimum_raised_witness_is_new_minimum_minus_one():
    new = mod(lambda s: s["properties"]["n"].update(minimum=5))
    out = witness_for(BASE, new, "/properties/n/minimum", "minimum-increased")
    assert out.witness["n"] == 4


def test_maximum_lowered_on_a_number_uses_a_value_just_outside():
    old = mod(lambda s: s["properties"]["x"].update(maximum=10))
    new = mod(lambda s: s["properties"]["x"].update(maximum=2.5))
    out = witness_for(old, new, "/properties/x/maximum", "maximum-decreased")
    assert out.witness["x"] == 3


def test_enum_value_dropped_witness_is_the_dropped_value():
    new = mod(lambda s: s["properties"]["f"].update(enum=["json"]))
    out = witness_for(BASE, new, "/properties/f/enum", "enum-narrowed")
    assert out.witness["f"] == "csv"


def test_any_of_branch_removed_witness_is_the_removed_branch_instance():
    new = mod(lambda s: s["properties"]["v"]["anyOf"].pop(1))
    out = witness_for(BASE, new, "/properties/v/anyOf/1", "any-of-branch-removed")
    assert isinstance(out.witness["v"], int)


def test_required_added_witness_omits_it():
    new = mod(lambda s: s.update(required=["q", "n"]))
    out = witness_for(BASE, new, "/required", "required-added")
    assert "n" not in out.witness
    assert out.witness_error == '(root): "n" is a required property'


def test_required_property_added_witness_omits_it():
    def add(s):
        s["properties"]["tenant"] = {"type": "string"}
        s["required"] = ["q", "tenant"]

    out = witness_for(BASE, mod(add), "/properties/tenant", "property-added-required")
    assert "tenant" not in out.witness


@pytest.mark.parametrize("old", [{}, {"$schema": "http://json-schema.org/draft-07/schema#"}])
def test_each_property_added_required_gets_a_call_that_fails_for_it_alone(old):
    """server-filesystem 2025.7.29 served empty input schemas, 2026.8.31 requires ``source`` and
    ``destination`` on move_file: the witness for each added property must be a call missing
    that one property only, and its error must name it (``{}`` failed for whichever the
    validator reported first, so the evidence for ``destination`` named ``source``)."""
    new = {
        "type": "object",
        "properties": {"source": {"type": "string"}, "destination": {"type": "string"}},
        "required": ["source", "destination"],
    }
    for name, other in (("source", "destination"), ("destination", "source")):
        out = witness_for(old, new, f"/properties/{name}", "property-added-required")
        assert name not in out.witness and other in out.witness, out.witness
        assert out.witness_error == f'(root): "{name}" is a required property'


def test_a_nested_property_added_required_fails_for_it_alone():
    def add(s):
        s["properties"]["o"]["properties"]["b"] = {"type": "integer"}
        s["properties"]["o"]["required"] = ["a", "b"]

    new = mod(add)
    old = copy.deepcopy(BASE)
    old["required"] = ["q", "o"]
    new["required"] = ["q", "o"]
    out = witness_for(old, new, "/properties/o/properties/b", "property-added-required")
    assert "b" not in out.witness["o"] and "a" in out.witness["o"], out.witness
    assert '"b" is a required property' in out.witness_error


def test_closed_object_witness_has_one_extra_key():
    new = mod(lambda s: s.update(additionalProperties=False))
    out = witness_for(BASE, new, "/additionalProperties", "additional-properties-closed")
    assert set(out.witness) - set(BASE["properties"]) == {"extra"}


def test_nested_closed_object():
    new = mod(lambda s: s["properties"]["o"].update(additionalProperties=False))
    out = witness_for(
        BASE, new, "/properties/o/additionalProperties", "additional-properties-closed"
    )
    assert set(out.witness["o"]) == {"extra"}


def test_type_narrowed_from_type_array():
    new = mod(lambda s: s["properties"]["t"].update(type="string"))
    out = witness_for(BASE, new, "/properties/t/type", "type-narrowed")
    assert isinstance(out.witness["t"], int)


def test_number_to_integer_witness_is_a_fraction():
    # 1.0 is an integer in 2020-12, so the integer-valued float is no witness: 0.5 is.
    new = mod(lambda s: s["properties"]["x"].update(type="integer"))
    out = witness_for(BASE, new, "/properties/x/type", "type-narrowed")
    assert out.witness["x"] == 0.5


def test_pattern_added_promotes_potentially_breaking():
    new = mod(lambda s: s["properties"]["p"].update(pattern="^[a-z]+$"))
    out = witness_for(
        BASE, new, "/properties/p/pattern", "pattern-added", ChangeClass.POTENTIALLY_BREAKING
    )
    assert out.cls is ChangeClass.BREAKING and out.promoted


def test_pattern_changed_uses_a_string_the_old_pattern_generates():
    old = mod(lambda s: s["properties"]["p"].update(pattern=r"^\d{3}-\d{4}$"))
    new = mod(lambda s: s["properties"]["p"].update(pattern=r"^\d{3}-\d{5}$"))
    out = witness_for(
        old, new, "/properties/p/pattern", "pattern-changed", ChangeClass.POTENTIALLY_BREAKING
    )
    assert out.witness["p"] == "000-0000" and out.promoted


def test_format_added():
    new = mod(lambda s: s["properties"]["p"].update(format="email"))
    out = witness_for(
        BASE, new, "/properties/p/format", "format-added", ChangeClass.POTENTIALLY_BREAKING
    )
    assert out.promoted


def test_items_max_length_in_an_array_under_ref():
    old = {
        "type": "object",
        "$defs": {"Tag": {"type": "string", "maxLength": 8}},
        "properties": {"tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}}},
    }
    new = copy.deepcopy(old)
    new["$defs"]["Tag"]["maxLength"] = 3
    out = witness_for(old, new, "/$defs/Tag/maxLength", "max-length-decreased")
    assert out.witness == {"tags": ["aaaa"]}


def test_unattributable_potentially_breaking_change_is_not_promoted():
    # Removing an optional property from an open object: a call setting it still validates.
    new = mod(lambda s: s["properties"].pop("p"))
    ch = Change(
        "property-removed-open", ChangeClass.POTENTIALLY_BREAKING, "/inputSchema/properties/p"
    )
    (out,) = attach_witnesses(tool(BASE), tool(new), [ch])
    assert not out.has_witness and out.cls is ChangeClass.POTENTIALLY_BREAKING


def test_one_change_is_not_promoted_by_another_changes_breakage():
    # Two changes: q's maxLength lowered (breaking), p's pattern removed (nothing narrows).
    # A maxLength witness must not be pinned on an unrelated potentially-breaking change.
    def both(s):
        s["properties"]["q"]["maxLength"] = 0
        s["properties"]["n"]["description"] = "changed"

    new = mod(both)
    ch = Change(
        "unsupported-keyword-changed",
        ChangeClass.POTENTIALLY_BREAKING,
        "/inputSchema/properties/n/description",
    )
    (out,) = attach_witnesses(tool(BASE), tool(new), [ch])
    assert not out.has_witness and not out.promoted


def test_existing_witness_and_other_classes_left_alone():
    new = mod(lambda s: s["properties"]["f"].update(enum=["json"]))
    keep = Change(
        "enum-narrowed",
        ChangeClass.BREAKING,
        "/inputSchema/properties/f/enum",
        witness={"q": "", "f": "csv"},
    )
    compat = Change("enum-widened", ChangeClass.COMPATIBLE, "/inputSchema/properties/f/enum")
    out = attach_witnesses(tool(BASE), tool(new), [keep, compat])
    assert out[0] is keep and out[1] is compat and not out[1].has_witness


def test_output_side_witness_is_a_result_new_allows_and_old_did_not():
    out_old = {"type": "object", "properties": {"status": {"enum": ["ok", "error"]}}}
    out_new = {"type": "object", "properties": {"status": {"enum": ["ok", "error", "partial"]}}}
    from mcp_review.engine.model import Direction

    ch = Change(
        "enum-widened",
        ChangeClass.BREAKING,
        "/outputSchema/properties/status/enum",
        direction=Direction.OUTPUT,
    )
    (out,) = attach_witnesses(
        tool(BASE, outputSchema=out_old), tool(BASE, outputSchema=out_new), [ch]
    )
    assert out.witness == {"status": "partial"}
    independent_check(out_new, out_old, out.witness)


def test_uncompilable_schema_gives_no_witness_and_no_error():
    new = mod(lambda s: s["properties"]["p"].update(pattern="(("))
    ch = Change(
        "pattern-added", ChangeClass.POTENTIALLY_BREAKING, "/inputSchema/properties/p/pattern"
    )
    (out,) = attach_witnesses(tool(BASE), tool(new), [ch])
    assert not out.has_witness


@pytest.mark.parametrize("pattern", [r"^(a+)+$", r"^(a|a)*\1$", r"(x+x+)+y", r"^(\w+\s?)*\1$"])
def test_hostile_pattern_bounded(pattern):
    new = mod(lambda s: s["properties"]["p"].update(pattern=pattern))
    box = {}
    t = threading.Thread(
        target=lambda: box.update(
            r=find_witness(BASE, new, "/properties/p/pattern", "pattern-added")
        ),
        daemon=True,
    )
    t.start()
    t.join(60)
    assert not t.is_alive()


def test_recursive_ref_bounded():
    old = {
        "$defs": {
            "node": {
                "type": "object",
                "required": ["child"],
                "properties": {"child": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}},
            }
        },
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}, "n": {"type": "integer"}},
    }
    new = copy.deepcopy(old)
    new["properties"]["n"]["maximum"] = 3
    box = {}
    t = threading.Thread(
        target=lambda: box.update(
            r=find_witness(old, new, "/properties/n/maximum", "maximum-added")
        ),
        daemon=True,
    )
    t.start()
    t.join(60)
    assert not t.is_alive()
    inst, _ = box["r"]
    assert inst == {"n": 4}
    independent_check(old, new, inst)
