"""The one table of every rule, assembled from the family modules (each rule defined once)."""

from __future__ import annotations

import dataclasses

from mcp_review.engine.rules import (
    arrays,
    composition,
    hidden,
    json_types,
    numeric,
    objects,
    refs,
    schema,
    strings,
    text,
    tool,
    tool_annotations,
    values,
)
from mcp_review.engine.rules.registry import Rule

FAMILIES = (
    tool,
    tool_annotations,
    hidden,
    text,
    schema,
    json_types,
    values,
    numeric,
    strings,
    arrays,
    objects,
    composition,
    refs,
)
"""Every family module, in the order the registry lists them."""


def _family(module: object) -> str:
    return getattr(module, "__name__", "").rsplit(".", 1)[-1]


def _table() -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for module in FAMILIES:
        for r in module.RULES:
            if r.id in table:
                raise ValueError(
                    f"rule {r.id!r} is defined twice ({table[r.id].family}, {_family(module)})"
                )
            table[r.id] = dataclasses.replace(r, family=_family(module))
    return table


RULES: dict[str, Rule] = _table()
"""The registry: rule id -> Rule."""
