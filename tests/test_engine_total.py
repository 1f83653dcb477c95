"""The engine is total: closing free-form objects anywhere, hostile schemas, a failing rule or a
failing witness search never become a traceback; every other change is still reported."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import pytest

from mcp_review.core.compare import compare
from mcp_review.core.model import ChangeClass, ToolDef

FC = jsonschema.Draft202012Validator.FORMAT_CHECKER


def tool(schema: Any, **extra: Any) -> ToolDef:
    return ToolDef.from_wire({"name": "t", "inputSchema": schema, **extra})


def independent_check(old: Any, new: Any, witness: Any) -> None:
    assert jsonschema.Draft202012Validator(old, format_checker=FC).is_valid(witness), witness
    assert not jsonschema.Draft202012Validator(new, format_checker=FC).is_valid(witness), witness


FREE = {"type": "object", "additionalProperties": True}
CLOSED = {"type": "object", "additionalProperties": False}


def _at(where: str, sub: dict) -> dict:
    """A tool schema with ``sub`` (a free-form or closed object) placed at ``where``."""
    if where == "root":
        return copy.deepcopy(sub)
    if where == "property":
        return {"type": "object", "properties": {"schema": sub}}
    if where == "nested":
        return {"type": "object", "properties": {"a": {"type": "object", "properties": {
            "b": {"type": "object", "properties": {"schema": sub}}}}}}
    if where == "items":
        return {"type": "object", "properties": {"list": {"type": "array", "items": sub}}}
    if where == "prefixItems":
        return {"type": "object", "properties": {"pair": {"type": "array",
                                                          "prefixItems": [{"type": "string"},
                                                                          sub]}}}
    if where == "anyOf":
        return {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, sub]}}}
    if where == "oneOf":
        return {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, sub]}}}
    if where == "defs":
        return {"type": "object", "properties": {"opts": {"$ref": "#/$defs/Opts"}},
                "$defs": {"Opts": sub}}
    if where == "defs-nested-ref":
        return {"type": "object", "properties": {"x": {"$ref": "#/$defs/Outer"}},
                "$defs": {"Outer": {"type": "object", "properties": {
                    "opts": {"$ref": "#/$defs/Opts"}}}, "Opts": sub}}
    if where == "additionalProperties":
        return {"type": "object", "properties": {"m": {"type": "object",
                                                       "additionalProperties": sub}}}
    if where == "patternProperties":
        return {"type": "object", "properties": {"m": {"type": "object",
                                                       "patternProperties": {"^x": sub}}}}
    raise AssertionError(where)


WHERE = ["root", "property", "nested", "items", "prefixItems", "anyOf", "oneOf", "defs",
         "defs-nested-ref", "additionalProperties", "patternProperties"]


def test_issue_reproduction_closing_an_object_that_declares_no_properties():
    """The smallest reproduction from issue 11: a TypeError in the witness search."""
    old = {"type": "object", "properties": {"schema": {"type": "object",
                                                       "additionalProperties": True}}}
    new = copy.deepcopy(old)
    new["properties"]["schema"]["additionalProperties"] = False
    cmp = compare(tool(old), tool(new))
    (ch,) = [c for c in cmp.changes if c.rule == "additional-properties-closed"]
    assert ch.cls is ChangeClass.BREAKING
    assert ch.has_witness
    independent_check(old, new, ch.witness)
    assert cmp.verdict == "FAIL"


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("free", [FREE, {"type": "object"}, {}],
                         ids=["ap-true", "ap-absent", "empty"])
def test_closed_free_form_object_at_every_depth(where, free):
    old, new = _at(where, free), _at(where, {**free, **CLOSED})
    cmp = compare(tool(old), tool(new), calls=[{}])
    # ({} as the additionalProperties schema, then an object schema: restricted, not closed)
    rules = ("additional-properties-closed", "additional-properties-restricted")
    closed = [c for c in cmp.changes if c.rule in rules]
    assert closed, [c.rule for c in cmp.changes]
    assert all(c.cls is ChangeClass.BREAKING for c in closed)
    assert not [c for c in cmp.changes if c.rule == "engine-error"]
    for c in closed:
        if c.has_witness:
            independent_check(old, new, c.witness)
    # Where an extra key is reachable by a plain call, a witness is found.
    if where in ("root", "property", "nested", "items", "defs", "defs-nested-ref"):
        assert any(c.has_witness for c in closed), where


@pytest.mark.parametrize("where", WHERE)
def test_free_form_object_restricted_to_a_schema_at_every_depth(where):
    old = _at(where, FREE)
    new = _at(where, {"type": "object", "additionalProperties": {"type": "integer"}})
    cmp = compare(tool(old), tool(new))
    assert [c for c in cmp.changes if c.rule == "additional-properties-restricted"]
    for c in cmp.changes:
        if c.has_witness:
            independent_check(old, new, c.witness)
