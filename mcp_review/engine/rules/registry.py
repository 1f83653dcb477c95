"""The rule registry: what a rule is (id, class, direction, purpose, message template, effect,
witness strategy), how an effect and a polarity give a class, and the one table of all rules.

Each family module (``types``, ``values``, ``numbers``, ...) defines its rules once, with the
id written as a literal (or as the named constant the family defines for it, its one literal),
so grepping an id finds its definition and every place that emits it. Outside ``engine/rules/``
no module names an id: consumers ask a rule's taxonomy (``text``, ``claim``, ``withheld``, ...)
through ``catalog.rule_of``, and a site that must name one rule imports its constant.

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


class Claim(StrEnum):
    """What a change of the tool's own claims says of its power (annotations, ``_meta``):
    consumers (the kinds, the policy, enforcement, the proxy's hold) ask this, never an id."""

    ANNOTATION_MORE = "annotation-more-power"
    """A safety hint moved towards more power: blocks in every tier, never held."""
    ANNOTATION_LESS = "annotation-less-power"
    """A safety hint now claims less power: never approved automatically, read alone."""
    ANNOTATION_OTHER = "annotation-other"
    """An annotation the tool does not know changed: always reviewed."""
    META_MORE = "meta-more-power"
    """``_meta`` claims more power (the model may call it, its UI may reach more): blocks in
    every tier, read alone, never held."""

    @property
    def more_power(self) -> bool:
        return self in (Claim.ANNOTATION_MORE, Claim.META_MORE)


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
    # The taxonomy consumers ask (engine/kinds.py, engine/policy.py, engine/enforcement.py,
    # services/proxy/hold.py, the app): a rule's id is named only in engine/rules/.
    text: bool = False
    """Its change is a piece of server-written text, new or reworded (not structure): one kind
    of its own, ``text``, grouped by the cues the text introduces."""
    claim: Claim | None = None
    """What it says of the tool's power, when it is a change of the tool's own claims."""
    text_added: bool = False
    """A text rule whose change always adds text (never rewords it)."""
    title: bool = False
    """A text rule about a title (the tool's, its annotations', a schema's), not a
    description: what a group calls the text when the change does not say."""
    hidden: bool = False
    """Its change is hidden characters appearing in a string: blocks, never held."""
    adds_required: bool = False
    """Its change makes an argument required (on a schema-less tool: a kind of its own)."""
    trust_axis: bool = False
    """On the trust axis though its class is not ``trust`` (server text rewritten, an annotation
    written out with its default): no ``[rules]`` config changes its class. Every ``trust``
    rule is on it too."""
    unjudged: bool = False
    """The engine could not read that part of the definition: no class can be declared for it."""
    kind_label: str = ""
    """How its kind is named to the operator ("output schema added"), when not by its purpose
    and pointer."""
    withheld: str = ""
    """Why the proxy never holds a tool with this change (empty: it may be held)."""

    @property
    def holdable(self) -> bool:
        """Whether a tool changed by this rule may be held by the proxy (services/proxy/hold.py)."""
        return not self.withheld


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
    text: bool = False,
    text_added: bool = False,
    title: bool = False,
    claim: Claim | None = None,
    hidden: bool = False,
    adds_required: bool = False,
    trust_axis: bool = False,
    unjudged: bool = False,
    kind_label: str = "",
    withheld: str = "",
) -> Rule:
    """One rule. The witness strategy defaults to SEARCH for a rule that judges values in a
    schema (an effect, or a breaking / potentially-breaking class on the input side) and to
    NONE for every other rule."""
    if witness is None:
        judges_values = effect is not None or (direction is not Direction.TOOL and cls in (_B, _P))
        witness = Witness.SEARCH if judges_values else Witness.NONE
    return Rule(
        id,
        cls,
        direction,
        purpose,
        message,
        effect,
        witness,
        at_keyword=at_keyword,
        text=text,
        text_added=text_added,
        title=title,
        claim=claim,
        hidden=hidden,
        adds_required=adds_required,
        trust_axis=trust_axis,
        unjudged=unjudged,
        kind_label=kind_label,
        withheld=withheld,
    )
