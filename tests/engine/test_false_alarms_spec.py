"""The last false alarms (issue 46 items 1-3), on the MCP specification's own schemas.

Fixtures (tests/fixtures/spec/) are the spec's definitions as published in
modelcontextprotocol/modelcontextprotocol ``schema/<revision>/schema.json``: ``GetTaskResult``
(an object re-expressed as an ``allOf`` of ``$ref``s to ``Result`` and ``Task``) and the
history of ``EnumSchema`` (one open object in 2025-06-18, a union of five in 2025-11-25, one of
which, ``LegacyTitledEnumSchema``, announces its removal). Every verdict is held against an
independent truth: python-jsonschema on the calls the witness search's finite listing makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema.validators import Draft202012Validator

from mcp_review.engine.compare import compare
from mcp_review.engine.finite import candidates
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.protocol import tool_findings
from mcp_review.engine.walk import nodes
from mcp_review.engine.witness import NOTE_NOT_EXHAUSTIVE, _Side

SPEC = Path(__file__).parent.parent / "fixtures" / "spec"
B, P = ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SPEC / name).read_text())
    return data


def _compare(old: Any, new: Any, field: str = "inputSchema") -> list[Any]:
    base = {"name": "t", "inputSchema": {"type": "object"}}
    a = ToolDef.from_wire({**base, field: old})
    b = ToolDef.from_wire({**base, field: new})
    return list(compare(a, b).changes)


def _alarms(old: Any, new: Any, field: str = "inputSchema") -> list[tuple[str, str]]:
    return [(c.rule, c.pointer) for c in _compare(old, new, field) if c.cls in (B, P)]


def _finite(schema: Any) -> Any:
    """``schema`` with every string and number leaf made one value (``enum: ["s"]`` / ``[1]``),
    so the witness search can list every call it accepts: the same shape, a finite world."""
    out = json.loads(json.dumps(schema))
    for node, _ in nodes(out):
        if isinstance(node, dict) and node.get("type") in ("string", "number", "integer"):
            if "enum" not in node and "const" not in node:
                node["enum"] = ["s"] if node["type"] == "string" else [1]
    return out


def _exhaustive(acc: Any, rej: Any) -> tuple[int, Any]:
    side = _Side.from_schemas(acc, rej)
    assert side is not None
    side.objects = True
    proof = side.exhaustive()
    assert proof is not None, "the finite projection must be listed whole"
    return proof


def _agree_on_all(acc: Any, rej: Any) -> int:
    """python-jsonschema's answer on every value engine.finite lists for ``acc``: each one
    ``acc`` accepts, ``rej`` accepts too. Returns how many were checked."""
    vals = candidates(acc)
    assert vals is not None
    va, vr = Draft202012Validator(acc), Draft202012Validator(rej)
    taken = [v for v in vals if isinstance(v, dict) and va.is_valid(v)]
    assert taken, "the listing holds values the schema accepts"
    assert all(vr.is_valid(v) for v in taken), [v for v in taken if not vr.is_valid(v)][:3]
    return len(taken)


# Item 1: GetTaskResult, an object re-expressed as allOf [$ref Result, $ref Task] -----------------


@pytest.mark.parametrize("field", ["inputSchema", "outputSchema"])
@pytest.mark.parametrize("direction", ["to allOf", "from allOf"])
def test_get_task_result_allof_of_refs_is_the_same_object(field, direction):
    """Result says ``additionalProperties: {}`` (its other keys may be anything): that
    constrains nothing, so the allOf of the two objects merges into the one object."""
    g = _load("get-task-result.json")
    old, new = (g["old"], g["new"]) if direction == "to allOf" else (g["new"], g["old"])
    assert _alarms(old, new, field) == []


def test_get_task_result_proof_of_absence_on_the_finite_projection():
    g = _load("get-task-result.json")
    old, new = _finite(g["old"]), _finite(g["new"])
    assert _alarms(old, new) == [] and _alarms(new, old) == []
    for acc, rej in ((old, new), (new, old)):
        n, refused = _exhaustive(acc, rej)
        assert refused is None and n > 1
        assert _agree_on_all(acc, rej) == n


def test_get_task_result_a_real_narrowing_beside_it_still_breaks():
    """The merge is not a blindfold: the same allOf with Task's ttl bounded still breaks (the
    schema is not finite, so the missing witness cannot demote it, and the verdict says so)."""
    g = _load("get-task-result.json")
    new = json.loads(json.dumps(g["new"]))
    new["definitions"]["Task"]["properties"]["ttl"]["maximum"] = 10
    (c,) = [c for c in _compare(g["old"], new) if c.cls in (B, P)]
    assert (c.rule, c.cls, c.pointer) == ("maximum-added", B, "/inputSchema/properties/ttl/maximum")
    if c.has_witness:
        assert not Draft202012Validator(new).is_valid(c.witness)
    else:
        assert c.to_json()["no_witness"].endswith(NOTE_NOT_EXHAUSTIVE)


# Items 1: EnumSchema's history: an open object re-expressed as a union; a covered branch removed


def test_enum_schema_2025_06_18_to_2025_11_25_is_compatible_for_calls():
    """The one object became ``anyOf`` [single-select, multi-select, legacy]: the root's
    ``type: object`` applies to the lifted old object too, and the legacy branch (and the
    untitled single-select one) accepts everything it did."""
    e = _load("enum-schema.json")
    assert _alarms(e["v2025_06_18"], e["v2025_11_25"]) == []


def test_enum_schema_2025_06_18_to_2025_11_25_still_breaks_results():
    """The other direction of meaning still breaks: as a result, the new union may be a
    multi-select schema the old one never produced (python-jsonschema: one such result)."""
    e = _load("enum-schema.json")
    old, new = e["v2025_06_18"], e["v2025_11_25"]
    changes = [c for c in _compare(old, new, "outputSchema") if c.cls is B]
    assert changes and not any(c.disproved for c in changes)
    multi = {"type": "array", "items": {"type": "string", "enum": ["a"]}}
    assert Draft202012Validator(new).is_valid(multi) and not Draft202012Validator(old).is_valid(
        multi
    )


@pytest.mark.parametrize("finite", [False, True])
def test_enum_schema_legacy_branch_removed_is_compatible(finite):
    """The untitled single-select schema accepts every legacy one (the legacy ``enumNames``
    is a property it leaves open): removing the legacy alternative loses no call."""
    e = _load("enum-schema.json")
    old, new = e["v2025_11_25"], e["legacy_removed"]
    if finite:
        old, new = _finite(old), _finite(new)
    assert _alarms(old, new) == []


# Item 1: a union inside items -------------------------------------------------------------------


def _items(kw: str, alts: list[Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"v": {"type": "array", "maxItems": 2, "items": {kw: alts}}},
    }


@pytest.mark.parametrize(
    "sibling", [{}, True, {"description": "anything"}, {"$ref": "#/$defs/Any"}]
)
def test_union_inside_items_branch_narrowed_beside_an_accept_all_sibling(sibling):
    block = {
        "type": "object",
        "properties": {"type": {"const": "text"}, "text": {"type": "string"}},
        "required": ["type", "text"],
    }
    narrowed = json.loads(json.dumps(block))
    narrowed["properties"]["text"]["maxLength"] = 10
    old, new = _items("anyOf", [block, sibling]), _items("anyOf", [narrowed, sibling])
    old["$defs"] = new["$defs"] = {"Any": {}}
    assert _alarms(old, new) == []


def test_union_inside_items_finite_proof_of_absence():
    """``oneOf`` [a|b, a|b|c] accepts only "c" (a and b match two); [a, a|b|c] accepts b and
    c. The walk reads a narrowed branch; the search lists every call (arrays of up to two
    items) and finds none refused: potentially-breaking, with its ``no_witness`` reason."""
    old = _items("oneOf", [{"enum": ["a", "b"]}, {"enum": ["a", "b", "c"]}])
    new = _items("oneOf", [{"enum": ["a"]}, {"enum": ["a", "b", "c"]}])
    changes = [c for c in _compare(old, new) if c.cls in (B, P)]
    assert [(c.rule, c.cls) for c in changes] == [("enum-narrowed", P)]
    (c,) = changes
    assert c.disproved and not c.has_witness
    doc = c.to_json()
    assert doc["class"] == "potentially-breaking"
    assert doc["no_witness"].startswith("no witness exists: the search tried every one of the")
    n, refused = _exhaustive(old, new)
    # {}, {"v": []}, {"v": ["c"]}, {"v": ["c", "c"]}
    assert refused is None and n == _agree_on_all(old, new) == 4


# Item 2: no proof, no "breaking"; where the search cannot be exhaustive it says so ----------------


def test_structural_breaking_disproved_on_a_finite_schema():
    old = {"type": "object", "properties": {"m": {"enum": ["a", "b"]}, "f": {"type": "boolean"}}}
    new = {
        "type": "object",
        "properties": {"m": {"enum": ["a", "b"], "type": "string"}, "f": {"type": "boolean"}},
    }
    (c,) = [c for c in _compare(old, new) if c.cls in (B, P)]
    assert (c.rule, c.cls, c.disproved) == ("type-added", P, True)
    assert "every one of the 9 calls" in c.to_json()["no_witness"]
    assert _agree_on_all(old, new) == 9


def test_structural_breaking_stays_breaking_where_the_search_cannot_be_exhaustive():
    old = {"type": "object", "properties": {"m": {"enum": ["a", "b"]}, "s": {"type": "string"}}}
    new = {
        "type": "object",
        "properties": {"m": {"enum": ["a", "b"], "type": "string"}, "s": {"type": "string"}},
    }
    (c,) = [c for c in _compare(old, new) if c.cls in (B, P)]
    assert (c.rule, c.cls, c.disproved) == ("type-added", B, False)
    assert c.to_json()["no_witness"].endswith(NOTE_NOT_EXHAUSTIVE)


def test_a_real_break_on_a_finite_schema_keeps_its_witness():
    old = {"type": "object", "properties": {"m": {"enum": ["a", "b"]}}}
    new = {"type": "object", "properties": {"m": {"enum": ["a"]}}}
    (c,) = [c for c in _compare(old, new) if c.cls in (B, P)]
    assert (c.rule, c.cls, c.has_witness, c.disproved) == ("enum-narrowed", B, True, False)
    assert c.witness == {"m": "b"}


# Item 3: a root that accepts no object ----------------------------------------------------------


def test_root_accepting_no_object_is_one_protocol_finding_not_changes():
    old = {"$ref": "#/$defs/Mode", "$defs": {"Mode": {"enum": ["a", "b"]}}}
    new = {"$ref": "#/$defs/Mode", "$defs": {"Mode": {"type": "string", "enum": ["a", "b", "c"]}}}
    # no alarm, and no type-added on the definition: the enum widened is all there is
    assert [(c.rule, c.cls) for c in _compare(old, new)] == [
        ("enum-widened", ChangeClass.COMPATIBLE)
    ]
    for schema in (old, new):
        found = tool_findings({"name": "t", "inputSchema": schema})
        assert [(f.rule, f.pointer) for f in found] == [
            ("protocol-input-schema-no-object", "/inputSchema")
        ]


def test_root_that_starts_accepting_objects_is_still_judged():
    """Only when neither version admits an object is there nothing to judge."""
    old = {"type": "string"}
    new = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert _compare(old, new) != []
    assert [f.rule for f in tool_findings({"name": "t", "inputSchema": new})] == []


def test_the_proof_never_takes_the_budget_another_search_needs():
    """A finite schema whose listing would cost more than half the tool's witness work (1,500
    values, each call weighing the 1,500-value enum) is not listed: the verdict stays breaking
    and says the search could not be exhaustive."""
    values = [f"v{i}" for i in range(1500)]
    old = {"type": "object", "properties": {"m": {"enum": values}}}
    new = {"type": "object", "properties": {"m": {"enum": values, "type": "string"}}}
    (c,) = [c for c in _compare(old, new) if c.cls in (B, P)]
    assert (c.rule, c.cls, c.disproved) == ("type-added", B, False)
    assert c.to_json()["no_witness"].endswith(NOTE_NOT_EXHAUSTIVE)
