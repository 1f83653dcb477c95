"""The text a group member's changes add, whole: what a group screen shows for each member
(:class:`AddedText`, :func:`added_texts`) and the most it may bring (:data:`SHOWN_WHOLE`), for
tools (engine/kinds.py) and surfaces (engine/surface_kinds.py) alike. Its own module so both
read it and neither imports the other back.

Engine layer: no textual, rich or mcp.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_review.engine.model import pointer_tokens
from mcp_review.engine.rules.catalog import rule_of

if TYPE_CHECKING:
    from mcp_review.engine.model import Change
    from mcp_review.engine.status import ToolStatus

__all__ = ["SHOWN_WHOLE", "AddedText", "added_texts"]


SHOWN_WHOLE = 600
"""Characters of added text a group member may bring at most: each group screen shows every
member's added text in full, so a member adding more is read alone."""


@dataclass(frozen=True, slots=True)
class AddedText:
    """Text a member's change adds, whole (raw server text: escape it to show it)."""

    pointer: str
    text: str

    def to_json(self) -> dict[str, str]:
        from mcp_review.engine.hidden import safe_text

        return {"pointer": self.pointer, "text": safe_text(self.text)}


def _at(wire: Any, pointer: str) -> Any:
    from mcp_review.engine.walk import MISSING, get

    v = get(wire, pointer_tokens(pointer))
    return None if v is MISSING else v


def _strings(v: Any) -> list[str]:
    from mcp_review.engine.textwalk import schema_strings

    return [t for _, _, _, t in schema_strings(v, "")] if not isinstance(v, str) else [v]


def added_texts(t: ToolStatus, changes: Sequence[Change]) -> tuple[AddedText, ...] | None:
    """Every text ``changes`` add to ``t``'s definition, whole: a text change's added words
    (old text against new at its pointer), the texts a structural change carries in. None when
    they cannot all be listed (texts counted, not carried, ``Change.new_text_more``)."""
    from mcp_review.engine.rules.render import added_text

    cmp = t.comparison
    if cmp is None:
        return ()
    old, new = cmp.old.wire, cmp.new.wire
    out: list[AddedText] = []
    seen: set[str] = set()
    for c in changes:
        if c.new_text_more:
            return None
        ptrs = [x.pointer for x in c.new_text]
        if rule_of(c.rule).text and c.pointer:
            ptrs.insert(0, c.pointer)
        for p in ptrs:
            if p in seen:
                continue
            seen.add(p)
            was, now = _at(old, p), _at(new, p)
            if isinstance(now, str):
                text = added_text(was if isinstance(was, str) else None, now)
            else:
                before = set(_strings(was)) if was is not None else set()
                text = "\n".join(x for x in _strings(now) if x not in before)
            if text:
                out.append(AddedText(p, text))
    return tuple(out)
