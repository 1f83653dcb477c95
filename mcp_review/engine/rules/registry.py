"""The rule registry: what a rule is (id, class, direction, purpose, message template, effect,
witness strategy), how an effect and a polarity give a class, and the one table of all rules.

Each family module (``types``, ``values``, ``numbers``, ...) defines its rules once, with the
id written as a literal, so grepping an id finds its definition and every place that emits it.

Schema rules are written from the input side ("does new accept every call old accepted?"). A
rule with an ``effect`` gets its class from the effect and the polarity where it fired: in an
``outputSchema`` (or inside ``not``) narrowing is compatible and widening is breaking. Rules
with no effect (trust, cosmetic, undecidable) keep their class wherever they fire.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mcp_review.engine.model import ChangeClass, Direction


class Effect(StrEnum):
    """What a schema change does to the set of valid values (on the input side)."""

    NARROW = "narrow"  # some value valid before is now rejected
    WIDEN = "widen"  # every value valid before still is, and more are accepted
    BOTH = "both"  # some values lost and some gained: breaking whichever way it is read
    UNKNOWN = "unknown"  # cannot be decided statically
    MAYBE_NARROW = "maybe-narrow"  # narrows by an amount we cannot measure (pattern added)
    MAYBE_WIDEN = "maybe-widen"  # widens by an amount we cannot measure (pattern removed)


class Witness(StrEnum):
    """How the witness search (``engine/witness.py``) looks for a call that shows a change."""

    SEARCH = "search"
    """Values aimed at the changed location (boundaries, dropped values, lost types, old
    branches, pattern examples), each checked by the real validator and attributed."""
    OMIT = "omit"
    """As SEARCH, leaving the property out first (an added property)."""
    OMIT_REQUIRED = "omit-required"
    """As OMIT, and the object's ``required`` / ``dependentRequired`` are undone with the
    change when the witness is attributed (the change is a requirement)."""
    HINT = "hint"
    """No witness can show it: a hint that explains other changes (they carry the evidence),
    or a change of where an argument travels, not of which values are valid."""
    NONE = "none"
    """Not a change of the set of valid values (text, trust, cosmetic, the tool around the
    schemas): never searched."""


_B, _P, _C = ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING, ChangeClass.COMPATIBLE
_CLASS_BY_EFFECT: dict[Effect, tuple[ChangeClass, ChangeClass]] = {
    # effect: (class where new must accept what old accepted, class where polarity is flipped)
    Effect.NARROW: (_B, _C),
    Effect.WIDEN: (_C, _B),
    Effect.BOTH: (_B, _B),
    Effect.UNKNOWN: (_P, _P),
    Effect.MAYBE_NARROW: (_P, _C),
    Effect.MAYBE_WIDEN: (_C, _P),
}


def class_for(effect: Effect, positive: bool) -> ChangeClass:
    """Class of a change with ``effect`` under the given polarity."""
    return _CLASS_BY_EFFECT[effect][0 if positive else 1]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    cls: ChangeClass
    """Class on the input side (or the fixed class when ``effect`` is None)."""
    direction: Direction
    """INPUT for schema rules (the output side is the same rule with the polarity flipped);
    TOOL for rules about the definition around the schemas."""
    purpose: str
    message: str
    """The message template: ``str.format`` fields filled with quoted parameters (see
    ``render``)."""
    effect: Effect | None = None
    witness: Witness = Witness.SEARCH
    family: str = ""
    """The family module that defines it (``numbers``, ``objects``, ...)."""
    at_keyword: bool = False
    """Its pointer names a keyword (or one entry of an entry keyword, see
    :attr:`Keywords.entries`): the walker fills its message's ``where`` with the schema that
    holds the keyword."""


def rule(
    id: str,
    cls: ChangeClass,
    direction: Direction,
    purpose: str,
    message: str,
    effect: Effect | None = None,
    *,
    witness: Witness | None = None,
    at_keyword: bool = False,
) -> Rule:
    """One rule. The witness strategy defaults to SEARCH for a rule that judges values in a
    schema (an effect, or a breaking / potentially-breaking class on the input side) and to
    NONE for every other rule."""
    if witness is None:
        judges_values = effect is not None or (direction is not Direction.TOOL and cls in (_B, _P))
        witness = Witness.SEARCH if judges_values else Witness.NONE
    return Rule(id, cls, direction, purpose, message, effect, witness, at_keyword=at_keyword)
