"""Issue 25 item 1: a ``$schema``-only change is judged by what it means.

``{"type":"array","prefixItems":[{"type":"string"}],"items":false}`` under 2020-12 accepts
``["x"]``; the same text under draft-07 rejects it (draft-07 ignores ``prefixItems``, and
``items: false`` forbids every item). Only ``schema-dialect-changed`` (cosmetic) was reported:
no witness, ``tiered`` auto-approved it while ``gate`` showed the recorded call broken.

Each case below is the same schema text under two dialects. python-jsonschema, the independent
oracle, validates each side under its own ``$schema`` on a few probe calls: when it finds a call
the old dialect accepts and the new one rejects, the change must not be cosmetic, and any
witness given must be one the oracle confirms; where no keyword present changes meaning, the
change stays cosmetic (and the oracle agrees on every probe). The class: draft-04, -06, -07,
2019-09, 2020-12; prefixItems against items, the tuple form of items, additionalItems,
dependencies against dependentRequired / dependentSchemas, keywords beside $ref,
unevaluatedProperties, const / contains / propertyNames / if (unknown to older drafts),
boolean exclusiveMinimum in draft-04, $defs against definitions.
"""

from __future__ import annotations

import jsonschema
import pytest

from mcp_review.engine.compare import compare
from mcp_review.engine.dialects import meaning_changes
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.policy import Outcome, decide, facts_for

URI = {
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}


def obj(props: dict, **more) -> dict:
    return {"type": "object", "properties": props, **more}


TUPLE_2020 = obj({"a": {"type": "array", "prefixItems": [{"type": "string"}], "items": False}})
REF_SIBLING = obj(
    {"q": {"$ref": "#/definitions/s", "maxLength": 3}}, definitions={"s": {"type": "string"}}
)
DEP_REQUIRED = obj(
    {"a": {"type": "string"}, "b": {"type": "string"}}, dependentRequired={"a": ["b"]}
)
DEP_SCHEMAS = obj(
    {"a": {"type": "string"}, "b": {"type": "string"}},
    dependentSchemas={"a": {"required": ["b"]}},
)
DEPENDENCIES = obj({"a": {"type": "string"}, "b": {"type": "string"}}, dependencies={"a": ["b"]})
UNEVALUATED = obj({"a": {"type": "string"}}, unevaluatedProperties=False)
TUPLE_07 = obj({"a": {"type": "array", "items": [{"type": "string"}], "additionalItems": False}})
CONST = obj({"k": {"const": "x"}})
CONTAINS = obj({"l": {"type": "array", "contains": {"type": "integer"}}})
PROPERTY_NAMES = obj({"m": {"type": "object", "propertyNames": {"maxLength": 2}}})
CONDITIONAL = obj(
    {"a": {"type": "string"}, "b": {"type": "string"}},
    **{"if": {"required": ["a"]}, "then": {"required": ["b"]}},
)
DEFS_07 = obj({"q": {"$ref": "#/definitions/s"}}, definitions={"s": {"type": "string"}})
DEFS_2020 = obj({"q": {"$ref": "#/$defs/s"}}, **{"$defs": {"s": {"type": "string"}}})
PLAIN = obj(
    {"a": {"type": "string", "maxLength": 5}, "n": {"type": "integer", "minimum": 0}},
    required=["a"],
    additionalProperties=False,
)

PROBES = [
    {},
    {"a": ["x"]},
    {"a": []},
    {"a": ["x", "y"]},
    {"q": "aaaa"},
    {"q": "aa"},
    {"a": "x"},
    {"a": "x", "b": "y"},
    {"a": "x", "extra": "a"},
    {"k": "a"},
    {"k": "x"},
    {"l": ["s"]},
    {"l": [1]},
    {"m": {"abc": 1}},
    {"m": {"ab": 1}},
    {"a": "x", "n": -1},
    {"a": "xxxxxx"},
]

# (body, old dialect, new dialect, a headline case: breaking with a witness required)
NARROWING = [
    (TUPLE_2020, "2020-12", "draft-07", True),
    (TUPLE_2020, "2020-12", "2019-09", True),
    (REF_SIBLING, "draft-07", "2020-12", True),
    (REF_SIBLING, "draft-06", "2019-09", True),
    (REF_SIBLING, "draft-04", "2020-12", True),
    (DEP_REQUIRED, "draft-07", "2020-12", True),
    (DEP_REQUIRED, "draft-06", "2019-09", True),
    (DEP_SCHEMAS, "draft-07", "2019-09", False),
    # jsonschema-rs still applies draft-07's `dependencies` under 2019-09 and 2020-12 (the
    # oracle does not): the product reads both sides alike, so no call shows the change, and
    # the change is potentially-breaking without a witness.
    (DEPENDENCIES, "2020-12", "draft-07", False),
    (DEPENDENCIES, "2019-09", "draft-04", False),
    (UNEVALUATED, "draft-07", "2019-09", True),
    (UNEVALUATED, "draft-06", "2020-12", True),
    (CONST, "draft-04", "draft-07", False),
    (CONTAINS, "draft-04", "draft-06", False),
    (PROPERTY_NAMES, "draft-04", "2020-12", False),
    (CONDITIONAL, "draft-06", "draft-07", False),
]
# The same text read the other way round: values are gained, none lost (widening on input).
WIDENING = [
    (TUPLE_2020, "draft-07", "2020-12"),
    (REF_SIBLING, "2020-12", "draft-07"),
    (DEP_REQUIRED, "2020-12", "draft-07"),
    (DEPENDENCIES, "draft-07", "2020-12"),
    (UNEVALUATED, "2019-09", "draft-07"),
    (CONST, "draft-07", "draft-04"),
]
# No keyword present changes meaning: the change stays cosmetic.
SAME = [
    (PLAIN, "draft-07", "2020-12"),
    (PLAIN, "draft-04", "2019-09"),
    (PLAIN, "draft-06", "draft-07"),
    (DEFS_07, "draft-07", "2020-12"),
    (DEFS_2020, "draft-07", "2020-12"),
    (TUPLE_07, "draft-07", "2019-09"),
    (CONDITIONAL, "draft-07", "2020-12"),
    (obj({"x": {"type": "string"}}), None, "draft-07"),
]


def under(body: dict, dialect: str | None) -> dict:
    return {**body, "$schema": URI[dialect]} if dialect else dict(body)


def tool(schema: dict) -> ToolDef:
    return ToolDef.from_wire({"name": "t", "description": "A tool.", "inputSchema": schema})


def oracle(schema: dict, instance) -> bool:
    """python-jsonschema, each schema under its own $schema (2020-12 without one)."""
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema).is_valid(instance)


def dialect_change(old: dict, new: dict):
    changes = compare(tool(old), tool(new)).changes
    [ch] = [c for c in changes if c.pointer == "/inputSchema/$schema"]
    return ch


def case_id(case) -> str:
    body, a, b = case[0], case[1], case[2]
    keys = sorted(set().union(*(v.keys() for v in body["properties"].values())) | set(body))
    return f"{a}->{b}:{'/'.join(k for k in keys if k not in ('type', 'properties'))}"


@pytest.mark.parametrize("case", NARROWING, ids=case_id)
def test_a_dialect_change_that_loses_calls_is_not_cosmetic(case):
    """The attack: only $schema changed, and a call the old dialect accepted is rejected
    under the new one. Not cosmetic, never auto-approved under tiered; a witness is one the
    oracle confirms (old accepts it, new rejects it, each under its own dialect)."""
    body, a, b, headline = case
    old, new = under(body, a), under(body, b)
    lost = [p for p in PROBES if oracle(old, p) and not oracle(new, p)]
    assert lost, "the oracle should see the change of meaning"
    ch = dialect_change(old, new)
    assert ch.rule == "schema-dialect-meaning-changed"
    assert ch.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
    if headline:
        assert ch.cls is ChangeClass.BREAKING and ch.has_witness, ch
    if ch.has_witness:
        assert oracle(old, ch.witness) and not oracle(new, ch.witness), ch.witness
    facts = facts_for(tool(old), tool(new), compare(tool(old), tool(new)).changes)
    assert decide("tiered", facts).outcome is not Outcome.AUTO_APPROVE


@pytest.mark.parametrize("case", WIDENING, ids=case_id)
def test_a_dialect_change_that_gains_calls_is_not_cosmetic_and_has_no_witness(case):
    body, a, b = case
    old, new = under(body, a), under(body, b)
    assert not [p for p in PROBES if oracle(old, p) and not oracle(new, p)]
    assert [p for p in PROBES if oracle(new, p) and not oracle(old, p)]
    ch = dialect_change(old, new)
    assert ch.rule == "schema-dialect-meaning-changed"
    assert ch.cls is ChangeClass.POTENTIALLY_BREAKING and not ch.has_witness


@pytest.mark.parametrize("case", SAME, ids=case_id)
def test_a_dialect_change_where_no_keyword_changes_meaning_stays_cosmetic(case):
    body, a, b = case
    old, new = under(body, a), under(body, b)
    assert all(oracle(old, p) == oracle(new, p) for p in PROBES)
    ch = dialect_change(old, new)
    assert ch.rule == "schema-dialect-changed" and ch.cls is ChangeClass.COSMETIC
    assert meaning_changes(old, new) == []


def test_the_output_side_flips_a_dialect_change():
    """On outputSchema a dialect that now accepts more results is what breaks the client."""
    old = under(TUPLE_2020, "draft-07")
    new = under(TUPLE_2020, "2020-12")
    wire = {"name": "t", "description": "A tool.", "inputSchema": {"type": "object"}}
    cmp = compare(
        ToolDef.from_wire({**wire, "outputSchema": old}),
        ToolDef.from_wire({**wire, "outputSchema": new}),
    )
    [ch] = [c for c in cmp.changes if c.pointer == "/outputSchema/$schema"]
    assert ch.rule == "schema-dialect-meaning-changed" and ch.cls is ChangeClass.BREAKING
    assert oracle(new, ch.witness) and not oracle(old, ch.witness)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("draft-04", "2020-12"),
        ("draft-04", "draft-06"),
    ],
)
def test_draft_04_boolean_exclusive_bounds_change_meaning(old, new):
    """``exclusiveMinimum: true`` modifies ``minimum`` in draft-04; later drafts read
    exclusiveMinimum as a number of its own."""
    body = obj({"n": {"type": "number", "minimum": 5, "exclusiveMinimum": True}})
    assert meaning_changes(under(body, old), under(body, new)) == ["exclusiveMinimum"]
    ch = dialect_change(under(body, old), under(body, new))
    assert ch.cls is not ChangeClass.COSMETIC


def test_the_tuple_form_of_items_changes_meaning_under_2020_12():
    """``items`` as an array is a tuple up to 2019-09 and not a 2020-12 form at all (the
    oracle cannot even load it): never cosmetic."""
    old, new = under(TUPLE_07, "draft-07"), under(TUPLE_07, "2020-12")
    assert "items" in meaning_changes(old, new)
    assert dialect_change(old, new).cls is not ChangeClass.COSMETIC
    assert dialect_change(new, old).cls is not ChangeClass.COSMETIC


def test_an_unknown_dialect_is_not_called_cosmetic():
    body = obj({"x": {"type": "string"}})
    old, new = under(body, "draft-07"), {**body, "$schema": "https://example.com/my-dialect"}
    assert meaning_changes(old, new) == ["$schema"]
    assert dialect_change(old, new).cls is not ChangeClass.COSMETIC


def test_a_nested_schema_keyword_selects_nothing():
    """$schema inside a subschema is not read by the validator: still cosmetic."""
    old = obj({"x": {"$schema": URI["draft-07"], "prefixItems": [{"type": "string"}]}})
    new = obj({"x": {"$schema": URI["2020-12"], "prefixItems": [{"type": "string"}]}})
    changes = compare(tool(old), tool(new)).changes
    assert [c.rule for c in changes] == ["schema-dialect-changed"]
