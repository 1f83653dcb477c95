"""The rules: one module per family, each rule defined once (id, class, message template,
witness strategy) beside the handlers that judge it, the registry table, and the rendering of a
change's words.

Families: ``tool``, ``tool_annotations``, ``meta`` (a tool's ``_meta``), ``hidden``, ``text``, ``schema`` (whole schema and
unowned keywords), ``json_types``, ``values`` (enum/const), ``numeric``, ``strings``,
``arrays``, ``objects``, ``composition``, ``refs``. ``registry`` says what a rule is,
``catalog`` is the one table, ``render`` words a change, ``kit`` is what the families share
(JSON equality, schema readers, the typed walker/handler interface).
"""

from __future__ import annotations

from mcp_review.engine.rules import settle  # noqa: F401  (installs Change.settle's wording)
from mcp_review.engine.rules.catalog import FAMILIES, KEYWORDS, RULES
from mcp_review.engine.rules.kit import Keywords
from mcp_review.engine.rules.registry import Effect, Rule, Witness, class_for, rule
from mcp_review.engine.rules.render import (
    NEW_TEXT_QUOTE,
    NEW_TEXT_SHOWN,
    QUOTE_CAP,
    Raw,
    hidden_tokens,
    make,
    new_text,
    quote,
    render_change,
    text_delta,
    where,
    with_new_text,
)

__all__ = [
    "FAMILIES",
    "KEYWORDS",
    "NEW_TEXT_QUOTE",
    "NEW_TEXT_SHOWN",
    "QUOTE_CAP",
    "RULES",
    "Effect",
    "Keywords",
    "Raw",
    "Rule",
    "Witness",
    "class_for",
    "hidden_tokens",
    "make",
    "new_text",
    "quote",
    "render_change",
    "rule",
    "text_delta",
    "where",
    "with_new_text",
]
