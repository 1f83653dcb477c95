"""The one table of every rule, assembled from the family modules (each rule defined once)."""

from __future__ import annotations

import dataclasses

from mcp_review.engine.rules import (
    arrays,
    composition,
    hidden,
    json_types,
    meta,
    numeric,
    objects,
    refs,
    schema,
    strings,
    text,
    tool,
    tool_annotations,
    ui,
    values,
)
from mcp_review.engine.rules.kit import Handler, Keywords, counts_judge
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.render import install_rules

FAMILIES = (
    tool,
    tool_annotations,
    meta,
    ui,
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
install_rules(RULES)


def _keywords() -> Keywords:
    """The keywords every family registered (each owned by one family), and one handler for
    all count keywords, judged in the families' order."""
    handlers: dict[str, Handler] = {}
    owner: dict[str, str] = {}
    counts = []
    types: dict[str, frozenset[str]] = {}
    entries: set[str] = set()
    interacting: list[frozenset[str]] = []
    nodes: list[Handler] = []

    def own(kw: str, module: object) -> None:
        if kw in owner:
            raise ValueError(f"keyword {kw!r} is registered twice ({owner[kw]}, {_family(module)})")
        owner[kw] = _family(module)

    for module in FAMILIES:
        for kw, h in getattr(module, "HANDLERS", {}).items():
            own(kw, module)
            handlers[kw] = h
        for c in getattr(module, "COUNTS", ()):
            own(c.keyword, module)
            counts.append(c)
        types.update(getattr(module, "INSTANCE_TYPES", {}))
        entries |= getattr(module, "ENTRY_KEYWORDS", frozenset())
        interacting += getattr(module, "INTERACTING", ())
        nodes += getattr(module, "NODE_HANDLERS", ())
    judge_counts = counts_judge(tuple(counts))
    handlers.update(dict.fromkeys((c.keyword for c in counts), judge_counts))
    return Keywords(handlers, types, frozenset(entries), tuple(interacting), tuple(nodes))


KEYWORDS: Keywords = _keywords()
"""The keyword registry the schema walker asks: which handler judges a keyword, which
instance types it constrains, which keywords name entries, which interact."""
